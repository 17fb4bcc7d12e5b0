import Glibc
import LocalAuthClientCore
import LocalAuthProtocol

/// Runs `login drop-password USER`.
extension CommandRunner {
  func dropPassword(_ user: String, broker: LocalAuthDaemon, output: OutputFormatter)
    async throws
  {
    guard let uid = Self.uid(of: user) else {
      throw RPCError(.invalidParams, "No such user: \(PrintableText.escaped(user)).")
    }
    let dropped = try await broker.dropLoginPassword(uid: uid)
    standardOutput(
      output.done(
        dropped ? "kept login password dropped" : "no login password was kept",
        ["dropped": .bool(dropped), "uid": .int(Int(uid))]))
  }

  /// USER's uid: a number as it is, a name through NSS.
  static func uid(of user: String) -> UInt32? {
    if let number = UInt32(user) { return number }
    guard let entry = getpwnam(user) else { return nil }
    return entry.pointee.pw_uid
  }
}
