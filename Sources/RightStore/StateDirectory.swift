import Glibc
import RightsStorage

/// The checks a state directory must pass before the store trusts anything in it.
enum StateDirectory {
  /// Throws `.unsafeStateDirectory` unless `path` (links followed) is a directory owned by this process's
  /// effective uid that neither group nor others may write: anyone else who could write there could swap the
  /// database or the device key.
  static func check(_ path: String) throws {
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw RightStoreError.unsafeStateDirectory("cannot stat \(path): \(systemError())")
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw RightStoreError.unsafeStateDirectory("\(path) is not a directory")
    }
    guard status.st_uid == geteuid() else {
      throw RightStoreError.unsafeStateDirectory(
        "\(path) is owned by uid \(status.st_uid), not by the daemon's uid \(geteuid()); "
          + "chown it to the daemon's user (systemd's StateDirectory= does this)")
    }
    let permissions = status.st_mode & 0o777
    guard permissions & 0o022 == 0 else {
      throw RightStoreError.unsafeStateDirectory(
        "\(path) has mode 0\(String(permissions, radix: 8)), writable by group or others; "
          + "use 0700 (chmod 0700 \(path))")
    }
  }
}
