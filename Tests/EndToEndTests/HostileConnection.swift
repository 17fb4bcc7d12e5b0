import CLocalAuthSystem
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport

/// A hostile-test client: the shared `LineClient` with calls that answer false or nil instead of
/// throwing, plus a non-blocking send. One thread at a time.
final class HostileConnection: @unchecked Sendable {
  // Used by one thread at a time (each test thread owns its connections).
  private let client: LineClient

  /// Connects to the daemon's socket.
  init(path: String) throws {
    do {
      client = try LineClient(socketPath: path)
    } catch {
      throw HostileError("\(error)")
    }
  }

  /// The socket.
  var fd: Int32 { client.fd }
  /// Whether the server closed the connection (end of stream or an error).
  var ended: Bool { client.ended }

  /// Sends all of `bytes` (blocking); false if the connection is gone.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool { (try? client.send(raw: bytes)) != nil }

  /// Sends a text line (adds the newline).
  @discardableResult
  func send(line: String) -> Bool { send(Array(line.utf8) + [0x0A]) }

  /// Sends what the socket takes now without blocking; the byte count (0 when full, -1 when gone).
  func sendNow(_ bytes: [UInt8]) -> Int {
    let sent = bytes.withUnsafeBytes { las_send(fd, $0.baseAddress, $0.count) }
    if sent == -Int(EAGAIN) { return 0 }
    return sent < 0 ? -1 : sent
  }

  /// The next line (without its newline), or nil on end of stream or after `timeout` seconds.
  func readLine(timeout: Double = 10) -> [UInt8]? {
    (try? client.readLine(seconds: timeout)) ?? nil
  }

  /// The next message, parsed; nil on end of stream or timeout.
  func readMessage(timeout: Double = 10) -> ServerLine? {
    guard let line = readLine(timeout: timeout) else { return nil }
    return ServerLine(line)
  }

  /// Sends a request and returns its response, skipping notifications and other ids.
  func call(_ line: String, id: JSONValue, timeout: Double = 10) -> ServerLine? {
    guard send(line: line) else { return nil }
    while let message = readMessage(timeout: timeout) {
      if case .response(let got, _) = message, got == id { return message }
    }
    return nil
  }

  /// Closes the socket (abruptly, whatever is in flight).
  func close() { client.close() }
}

/// One line the server sent, classified.
enum ServerLine: Equatable {
  /// A response: its id and the whole object.
  case response(id: JSONValue, JSONObject)
  /// A notification: its method.
  case notification(String)
  /// A batch of responses.
  case batch([JSONValue])
  /// Not JSON-RPC at all (a server bug).
  case garbage([UInt8])

  /// Classifies a line.
  init(_ line: [UInt8]) {
    guard let value = try? JSONParser.parse(line) else {
      self = .garbage(line)
      return
    }
    switch value {
    case .array(let elements): self = .batch(elements)
    case .object(let object):
      if let method = object["method"]?.stringValue, !object.contains("id") {
        self = .notification(method)
      } else if let id = object["id"], object.contains("result") != object.contains("error") {
        self = .response(id: id, object)
      } else {
        self = .garbage(line)
      }
    default: self = .garbage(line)
    }
  }

  /// The error code of an error response.
  var errorCode: Int? {
    guard case .response(_, let object) = self else { return nil }
    return object["error"]?.objectValue?["code"]?.intValue
  }

  /// The `error.data.reason` of an error response.
  var errorReason: String? {
    guard case .response(_, let object) = self else { return nil }
    return object["error"]?.objectValue?["data"]?.objectValue?["reason"]?.stringValue
  }

  /// The result object of a success response.
  var result: JSONObject? {
    guard case .response(_, let object) = self else { return nil }
    return object["result"]?.objectValue
  }
}

/// Runs each body on its own thread (blocking I/O stays off the cooperative pool) and joins them all.
func runOnThreads(_ bodies: [@Sendable () -> Void]) {
  final class Box: @unchecked Sendable {
    // Handed to exactly one thread, which owns it from then on.
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  var threads: [pthread_t] = []
  for body in bodies {
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    precondition(created == 0, "pthread_create failed")
    threads.append(thread)
  }
  for thread in threads { pthread_join(thread, nil) }
}
