import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Test failures raised by the rights end-to-end helpers.
struct RightsTestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension LineClient {
  /// Calls a method and returns its result object, failing the test on an error or a timeout.
  @discardableResult
  func ok(_ method: String, _ params: JSONObject = [:], seconds: Double = 10) throws -> JSONObject {
    switch try call(method, params, seconds: seconds) {
    case .success(let value)?: return value.objectValue ?? [:]
    case .failure(let error)?:
      throw RightsTestFailure("\(method) failed: \(error.code) \(error.message)")
    case nil: throw RightsTestFailure("\(method): no answer")
    }
  }

  /// Calls a method that must fail and returns its error.
  func failure(_ method: String, _ params: JSONObject = [:], seconds: Double = 10) throws
    -> RPCError
  {
    switch try call(method, params, seconds: seconds) {
    case .failure(let error)?: return error
    case .success(let value)?: throw RightsTestFailure("\(method) unexpectedly succeeded: \(value)")
    case nil: throw RightsTestFailure("\(method): no answer")
    }
  }

  /// session.hello with an app name.
  func hello(_ name: String, interactive: Bool = true) throws {
    try ok(
      Method.hello,
      ["client": ["name": .string(name), "interactive": .bool(interactive)], "protocol": 1])
  }

  /// Makes the demo face sensor match at once (instead of after about a second).
  func matchNow() throws {
    try ok(Method.sensorsScript, ["sensor": "face", "commands": ["MATCH"], "replace": true])
  }

  /// Creates and authorizes a right; returns its handle.
  func authorizedRight(_ requirement: JSONValue = "default") throws -> String {
    let right = try ok(Method.rightCreate, ["requirement": requirement])["right"]?.stringValue ?? ""
    try matchNow()
    try ok(Method.rightAuthorize, ["right": .string(right), "localizedReason": "e2e"])
    return right
  }

  /// Reads messages until a notification with this method arrives; returns its params.
  func notification(_ method: String, seconds: Double = 10) throws -> JSONObject? {
    while let value = try readMessage(seconds: seconds) {
      if case .notification(method, let params)? = ServerMessage(json: value) { return params }
    }
    return nil
  }
}

/// A JSON-RPC client running as another user (uid/gid 65534, no groups) in a child process:
/// `setpriv` drops privileges and Python sends the requests one by one, printing each response line.
enum OtherUserClient {
  static let python = "/usr/bin/python3"
  static let setpriv = "/usr/bin/setpriv"

  /// Whether the test can switch users (root, setpriv and a system Python are present).
  static var isAvailable: Bool {
    getuid() == 0 && access(python, X_OK) == 0 && access(setpriv, X_OK) == 0
  }

  private static let script = """
    import json, socket, sys
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    f = s.makefile("rwb")
    for line in sys.stdin:
        request = json.loads(line)
        f.write((json.dumps(request) + "\\n").encode()); f.flush()
        while True:
            message = json.loads(f.readline())
            if message.get("id") == request["id"]:
                print(json.dumps(message)); sys.stdout.flush(); break
    """

  /// Sends the requests (method, params) as uid 65534 and returns the responses in order.
  static func run(socket: String, _ requests: [(String, JSONObject)]) throws -> [JSONObject] {
    let lines = requests.enumerated().map { index, request in
      let message = RPCRequest(method: request.0, params: request.1, id: .int(index + 1))
      return String(decoding: JSONWriter.encode(message.json), as: UTF8.self)
    }
    let (status, output) = try runCapturing(
      setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", python, "-c", script, socket],
      input: lines.joined(separator: "\n") + "\n")
    guard status == 0 else {
      throw RightsTestFailure("the other-user client failed (\(status)): \(output)")
    }
    return try output.split(separator: "\n").map { line in
      guard let object = try JSONParser.parse(Array(line.utf8)).objectValue else {
        throw RightsTestFailure("not a JSON object: \(line)")
      }
      return object
    }
  }
}
