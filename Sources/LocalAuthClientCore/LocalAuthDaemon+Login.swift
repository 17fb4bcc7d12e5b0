import LocalAuthProtocol

extension LocalAuthDaemon {
  /// `login.dropPassword {uid, reason: "admin"}` (root only): whether a password was kept.
  public func dropLoginPassword(uid: UInt32) async throws -> Bool {
    try await connection.call(DropPasswordRequest.self, .init(uid: uid, reason: .admin)).dropped
  }
}
