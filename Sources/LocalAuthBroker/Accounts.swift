import Glibc
import Sensors

/// The account database (NSS through `getpwnam_r` / `getpwuid_r`): names for uids and uids for names.
enum Accounts {
  /// The owner with this uid; its name is `uid-N` when the account database has none.
  static func owner(uid: UInt32) -> SensorOwner {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    if getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil,
      let name = entry.pw_name
    {
      return SensorOwner(uid: uid, name: String(cString: name))
    }
    return SensorOwner(uid: uid, name: "uid-\(uid)")
  }

  /// The owner with this account name, if the account exists.
  static func owner(name: String) -> SensorOwner? {
    guard !name.isEmpty, name.utf8.count <= 256, !name.utf8.contains(0) else { return nil }
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else {
      return nil
    }
    return SensorOwner(uid: entry.pw_uid, name: name)
  }

  /// Milliseconds since 1970 (CLOCK_REALTIME), for state that must outlive the process.
  static func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
