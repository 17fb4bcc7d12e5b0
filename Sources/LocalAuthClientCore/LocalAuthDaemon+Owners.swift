import LocalAuthProtocol

extension LocalAuthDaemon {
  /// `sensors.setPasscode` for an owner: admins set anyone's (`user`: an account name or uid); a user sets
  /// their own, proving the current one with `oldPasscode` once one is set. nil clears it.
  public func setPasscode(_ passcode: String?, user: String?, oldPasscode: String?) async throws {
    var params: JSONObject = ["passcode": passcode.map(JSONValue.string) ?? .null]
    if let user { params["user"] = .string(user) }
    if let oldPasscode { params["oldPasscode"] = .string(oldPasscode) }
    _ = try await connection.call(Method.sensorsSetPasscode, params)
  }

  /// `sensors.resetLockout` for an owner (admins only; nil: the caller's own).
  public func resetLockout(user: String?) async throws {
    _ = try await connection.call(
      Method.sensorsResetLockout, user.map { ["user": .string($0)] } ?? [:])
  }

  /// `sensors.enroll` / `sensors.unenroll` for an owner (admins only); returns that owner's identities.
  @discardableResult
  public func changeEnrollment(sensor: String, identity: String, user: String?, enroll: Bool)
    async throws -> [String]
  {
    var params: JSONObject = ["sensor": .string(sensor), "identity": .string(identity)]
    if let user { params["user"] = .string(user) }
    let method = enroll ? Method.sensorsEnroll : Method.sensorsUnenroll
    let result = try await connection.call(method, params)
    return result.objectValue?["enrolled"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }
}
