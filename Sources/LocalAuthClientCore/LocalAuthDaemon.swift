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
    try await connection.call(BrokerStatusRequest.self, NoParams())
  }

  /// `sensors.list`.
  public func sensors() async throws -> [SensorStatus] {
    try await connection.call(ListSensorsRequest.self, .init()).sensors
  }

  /// `sensors.script`: queues commands of the script language (docs/protocol.md, "The script
  /// language"); returns how many are queued.
  @discardableResult
  public func script(sensor: String, commands: [String], replace: Bool = false) async throws -> Int
  {
    let params = ScriptSensorRequest.Params(sensor: sensor, commands: commands, replace: replace)
    return try await connection.call(ScriptSensorRequest.self, params).queued
  }

  /// `sensors.enroll`; returns the enrolled identities.
  @discardableResult
  public func enroll(sensor: String, identity: String) async throws -> [String] {
    try await enrollment(EnrollRequest.self, sensor: sensor, identity: identity)
  }

  /// `sensors.unenroll`; returns the enrolled identities.
  @discardableResult
  public func unenroll(sensor: String, identity: String) async throws -> [String] {
    try await enrollment(UnenrollRequest.self, sensor: sensor, identity: identity)
  }

  private func enrollment<R: RequestType>(_ method: R.Type, sensor: String, identity: String)
    async throws -> [String] where R.Params == EnrollmentParams, R.Result == EnrolledResult
  {
    let result = try await connection.call(
      method, EnrollmentParams(sensor: sensor, identity: identity))
    return result.enrolled
  }

  /// `sensors.setPasscode`: sets the device passcode (4–16 digits), or clears it with nil.
  public func setPasscode(_ passcode: String?) async throws {
    _ = try await connection.call(SetPasscodeRequest.self, .init(passcode: passcode))
  }

  /// `sensors.resetLockout`.
  public func resetLockout() async throws {
    _ = try await connection.call(ResetLockoutRequest.self, .init())
  }

  /// `evaluation.cancel {requestID}`: whether a queued or running evaluation was cancelled.
  public func cancel(requestID: String) async throws -> Bool {
    try await connection.call(CancelEvaluationRequest.self, .init(requestID: requestID))
      .cancelled
  }

  /// `broker.monitor`: subscribes this connection to machine-wide evaluation events.
  /// The stream ends when the connection is lost; stop iterating to unsubscribe locally.
  public func monitor() async throws -> AsyncStream<MonitorEvent> {
    let (stream, sink) = AsyncStream.makeStream(of: MonitorEvent.self)
    let key = connection.addMonitor(sink)
    sink.onTermination = { [connection] _ in connection.removeMonitor(key) }
    do {
      _ = try await connection.call(MonitorRequest.self, NoParams())
    } catch {
      sink.finish()
      throw error
    }
    return stream
  }
}
