import Glibc

/// The system's account database through NSS (`getpwuid_r`, `getpwnam_r`): names for uids and uids
/// for names. Callable from any thread; a lookup may block as long as an NSS module does (LDAP, sssd).
public enum AccountDatabase {
  /// The name of the account with this uid, if there is one.
  public static func name(ofUID uid: UInt32) -> String? {
    lookUp { entry, buffer, result in
      getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &result)
    }.map(\.name)
  }

  /// The uid of the account with this name, if there is one. Names that no account can have
  /// (empty, over 256 bytes, holding NUL) are refused without a lookup.
  public static func uid(ofName name: String) -> UInt32? {
    guard !name.isEmpty, name.utf8.count <= 256, !name.utf8.contains(0) else { return nil }
    return lookUp { entry, buffer, result in
      getpwnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
    }.map(\.uid)
  }

  /// Runs one `getpw*_r` call, with a larger buffer when the entry does not fit (ERANGE, up to 64 KiB).
  private static func lookUp(
    _ call: (inout passwd, UnsafeMutableBufferPointer<CChar>, inout UnsafeMutablePointer<passwd>?)
      -> Int32
  ) -> (uid: UInt32, name: String)? {
    var size = 4096
    while size <= 64 * 1024 {
      var entry = passwd()
      var result: UnsafeMutablePointer<passwd>?
      let found: (uid: UInt32, name: String)?? = withUnsafeTemporaryAllocation(
        of: CChar.self, capacity: size
      ) { buffer in
        let status = call(&entry, buffer, &result)
        if status == ERANGE { return nil }
        guard status == 0, result != nil, let name = entry.pw_name else { return .some(nil) }
        return .some((entry.pw_uid, String(cString: name)))
      }
      if let found { return found }
      size *= 4
    }
    return nil
  }
}
