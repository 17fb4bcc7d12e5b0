/// The `[Login]` settings: whether login passwords are kept, to whom a kept password is released
/// and for how long it is kept (docs/configuration.md, "[Login]").
public struct LoginPasswordConfiguration: Sendable, Equatable {
  /// KeepPasswords=: whether login.keepPassword keeps anything (default yes; nothing is kept unless
  /// pam_localauthd's `keep_password` option asks).
  public var keepPasswords = true
  /// ReleasePasswordTo=: the PAM services a kept password is released to after a login by
  /// presence: login managers and screen lockers run by root. Never sudo, su or polkit-1, whatever
  /// this says.
  public var releaseTo: Set<String> = [
    "login", "gdm-password", "gdm-fingerprint", "lightdm", "gnome-screensaver", "xscreensaver",
  ]
  /// KeptPasswordMaxAge=: how long after it was kept a password is dropped.
  public var maxAge: Duration = .seconds(12 * 3600)
  /// DropPasswordAtLogout=: whether a kept password is dropped when the user's last logind session
  /// ends (default no: a login by presence after a logout is what the kept password is for).
  public var dropAtLastLogout = false
  /// The services a password is never released to.
  public static let neverReleasedTo: Set<String> = [
    "sudo", "sudo-i", "su", "su-l", "polkit-1", "sshd", "runuser", "runuser-l", "pkexec",
  ]
  /// The defaults.
  public init() {}
}
