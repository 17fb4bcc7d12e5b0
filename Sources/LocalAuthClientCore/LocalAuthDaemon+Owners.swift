import LocalAuthProtocol

extension LocalAuthDaemon {
  /// `sensors.setPasscode` for an owner: admins set anyone's (`user`: an account name or uid); a user sets
  /// their own, proving the current one with `oldPasscode` once one is set. nil clears it.
  public func setPasscode(_ passcode: String?, user: String?, oldPasscode: String?) async throws {
    let params = SetPasscodeRequest.Params(passcode: passcode, oldPasscode: oldPasscode, user: user)
    _ = try await connection.call(SetPasscodeRequest.self, params)
  }

  /// `sensors.resetLockout` for an owner (admins only; nil: the caller's own).
  public func resetLockout(user: String?) async throws {
    _ = try await connection.call(ResetLockoutRequest.self, .init(user: user))
  }

  /// `sensors.enroll` / `sensors.unenroll` for an owner (admins only); returns that owner's identities.
  @discardableResult
  public func changeEnrollment(sensor: String, identity: String, user: String?, enroll: Bool)
    async throws -> [String]
  {
    let params = EnrollmentParams(sensor: sensor, identity: identity, user: user)
    let result =
      try await enroll
      ? connection.call(EnrollRequest.self, params) : connection.call(UnenrollRequest.self, params)
    return result.enrolled
  }
}
