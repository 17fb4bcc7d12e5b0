import LocalAuthBroker

extension ConfigurationParser {
  /// One key of the `[Login]` section: whether login passwords are kept, to which PAM services one
  /// is released, for how long, and the password helper's socket.
  static func applyLogin(_ key: String, _ value: String, to c: inout DaemonConfiguration)
    throws(ConfigurationValueError)
  {
    switch key {
    case "KeepPasswords": c.broker.login.keepPasswords = try boolean(value)
    case "DropPasswordAtLogout": c.broker.login.dropAtLastLogout = try boolean(value)
    case "KeptPasswordMaxAgeSec":
      c.broker.login.maxAge = .seconds(try integer(value, 60...2_592_000))
    case "ReleasePasswordTo":
      let names = Set(value.split(separator: " ").map(String.init))
      let never = names.intersection(LoginPasswordConfiguration.neverReleasedTo)
      guard never.isEmpty else {
        throw .init("a password is never released to \(never.sorted().joined(separator: ", "))")
      }
      guard names.allSatisfy({ $0.utf8.count <= 128 }) else {
        throw .init("PAM service names must be at most 128 bytes")
      }
      c.broker.login.releaseTo = names
    case "PasswordSocket":
      guard value.hasPrefix("/") else { throw .init("must be an absolute path") }
      c.loginPasswordSocket = value
    default: throw .init("unknown key in [Login]")
    }
  }
}
