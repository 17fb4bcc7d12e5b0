import LocalAuthProtocol

/// The daemon's administration and observation methods (docs/protocol.md, "Administration and
/// observation") on a connection. Scripting, enrollment, passcode and lockout reset need root or
/// the admin group (`RPCError` permissionDenied otherwise). Value type; usable from any task.
public struct LocalAuthDaemon: Sendable {
  /// The connection the calls go over.
  public let connection: LocalAuthConnection

  /// Administration over the given connection (the shared one by default).
  public init(connection: LocalAuthConnection = .shared) { self.connection = connection }

  /// `broker.status`.
  public func status() async throws -> BrokerStatus {
    BrokerStatus(json: try await connection.call(Method.brokerStatus))
  }

  /// `sensors.list`.
  public func sensors() async throws -> [SensorStatus] {
    let result = try await connection.call(Method.sensorsList)
    return (result.objectValue?["sensors"]?.arrayValue ?? []).map(SensorStatus.init(json:))
  }

  /// `sensors.script`: queues commands of the script language (docs/protocol.md, "The script
  /// language"); returns how many are queued.
  @discardableResult
  public func script(sensor: String, commands: [String], replace: Bool = false) async throws -> Int
  {
    let params: JSONObject = [
      "sensor": .string(sensor), "commands": .array(commands.map(JSONValue.string)),
      "replace": .bool(replace),
    ]
    return try await connection.call(Method.sensorsScript, params).objectValue?["queued"]?.intValue
      ?? 0
  }

  /// `sensors.enroll`; returns the enrolled identities.
  @discardableResult
  public func enroll(sensor: String, identity: String) async throws -> [String] {
    try await enrollment(Method.sensorsEnroll, sensor: sensor, identity: identity)
  }

  /// `sensors.unenroll`; returns the enrolled identities.
  @discardableResult
  public func unenroll(sensor: String, identity: String) async throws -> [String] {
    try await enrollment(Method.sensorsUnenroll, sensor: sensor, identity: identity)
  }

  private func enrollment(_ method: String, sensor: String, identity: String) async throws
    -> [String]
  {
    let result = try await connection.call(
      method, ["sensor": .string(sensor), "identity": .string(identity)])
    return result.objectValue?["enrolled"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// `sensors.setPasscode`: sets the device passcode (4–16 digits), or clears it with nil.
  public func setPasscode(_ passcode: String?) async throws {
    _ = try await connection.call(
      Method.sensorsSetPasscode, ["passcode": passcode.map(JSONValue.string) ?? .null])
  }

  /// `sensors.resetLockout`.
  public func resetLockout() async throws {
    _ = try await connection.call(Method.sensorsResetLockout)
  }

  /// `evaluation.cancel {requestID}`: whether a queued or running evaluation was cancelled.
  public func cancel(requestID: String) async throws -> Bool {
    try await connection.call(Method.cancel, ["requestID": .string(requestID)]).objectValue?[
      "cancelled"]?.boolValue
      ?? false
  }

  /// `broker.monitor`: subscribes this connection to machine-wide evaluation events.
  /// The stream ends when the connection is lost; stop iterating to unsubscribe locally.
  public func monitor() async throws -> AsyncStream<MonitorEvent> {
    let (stream, sink) = AsyncStream.makeStream(of: MonitorEvent.self)
    let key = connection.addMonitor(sink)
    sink.onTermination = { [connection] _ in connection.removeMonitor(key) }
    do {
      _ = try await connection.call(Method.brokerMonitor)
    } catch {
      sink.finish()
      throw error
    }
    return stream
  }
}
