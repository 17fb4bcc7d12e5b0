import Foundation
import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Sensors
import Testing

/// A fresh state directory for one test's rights store, removed when the value goes away.
final class TemporaryStateDirectory: Sendable {
  /// The directory path (it does not exist until the store creates it).
  let path: String
  /// The store opened in it.
  let store: RightStore

  init() throws {
    path = NSTemporaryDirectory() + "localauthd-rights-\(UUID().uuidString)"
    store = try RightStore(directory: path)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A broker harness with a rights store in a temporary directory.
func rightsHarness(
  enrolled: [String] = ["alice"], hostNames: any HostNameDirectory = NoVerifiedHostNames()
) throws -> (BrokerHarness, TemporaryStateDirectory) {
  let directory = try TemporaryStateDirectory()
  return (
    BrokerHarness(enrolled: enrolled, rightStore: directory.store, hostNames: hostNames),
    directory
  )
}

extension TestClient {
  /// Says hello with a name (the app id) and interactivity.
  func hello(_ name: String, interactive: Bool = true) async {
    _ = await call(
      Method.hello,
      ["client": ["name": .string(name), "interactive": .bool(interactive)], "protocol": 1])
  }

  /// Creates a right and returns its handle.
  func createRight(_ requirement: JSONValue = "default", fallback: String? = nil) async -> String {
    var params: JSONObject = ["requirement": requirement]
    if let fallback { params["fallback"] = .string(fallback) }
    let result = await call(Method.rightCreate, params)
    return result?.object?["right"]?.stringValue ?? "none"
  }

  /// Starts `right.authorize` and returns its tag and immediate answer.
  func startAuthorize(_ right: String) async -> (tag: Int, immediate: Result<JSONValue, RPCError>?)
  {
    let tag = harness.nextTag()
    let immediate = await call(
      Method.rightAuthorize, ["right": .string(right), "localizedReason": "test"], tag: tag)
    return (tag, immediate)
  }

  /// Authorizes a right with a face match scripted first; returns the answer.
  @discardableResult
  func authorize(_ right: String, face: [ScriptCommand] = [.match(identity: nil)]) async -> Result<
    JSONValue, RPCError
  >? {
    _ = harness.face.script(face, replace: true)
    let (tag, immediate) = await startAuthorize(right)
    if let immediate { return immediate }
    return await recorder.waitForResponse(tag: tag)
  }

  /// The right's state.
  func state(_ right: String) async -> String? {
    await call(Method.rightState, ["right": .string(right)])?.object?["state"]?.stringValue
  }

  /// Creates, authorizes and saves a right; returns the persisted handle.
  func savedRight(_ identifier: String, requirement: JSONValue = "default", secret: [UInt8]? = nil)
    async -> String
  {
    let right = await createRight(requirement)
    await authorize(right)
    var params: JSONObject = ["right": .string(right), "identifier": .string(identifier)]
    if let secret { params["secret"] = .string(Base64.encode(secret)) }
    return await call(Method.rightStoreSave, params)?.object?["right"]?.stringValue ?? "none"
  }

  /// Loads a persisted right by identifier.
  func load(_ identifier: String) async -> Result<JSONValue, RPCError>? {
    await call(Method.rightStoreRight, ["identifier": .string(identifier)])
  }

  /// The `right.stateChanged` states sent for a right, in order.
  func stateChanges(_ right: String) -> [String] {
    recorder.notifications(Notification.rightStateChanged)
      .filter { $0["right"]?.stringValue == right }
      .compactMap { $0["state"]?.stringValue }
  }

  /// Disconnects this client.
  func disconnect() async { await harness.broker.disconnect(session) }
}

extension Result where Success == JSONValue, Failure == RPCError {
  /// The error, or nil on success.
  var error: RPCError? {
    if case .failure(let error) = self { return error }
    return nil
  }

  /// The error's `data.reason`.
  var reason: String? { error?.data["reason"]?.stringValue }

  /// A base64 member of the success object, decoded.
  func bytes(_ key: String) -> [UInt8]? { object?[key]?.stringValue.flatMap(Base64.decode) }
}
