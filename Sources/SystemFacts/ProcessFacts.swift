import Glibc

/// What the kernel tells about a running process (`/proc/PID/…`): its executable, name, logind
/// session, owner and memory. Callable from any thread; each reads one small file.
public enum ProcessFacts {
  /// The executable of a process as the kernel names it (readlink of `/proc/PID/exe`), or nil.
  public static func executable(of pid: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/\(pid)/exe", &buffer, Int(PATH_MAX))
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The kernel's name of a process (`/proc/PID/comm`) without its newline, as the process chose it
  /// (unescaped: the caller sanitizes it before printing), or nil when it is gone.
  public static func name(of pid: Int32) -> String? {
    guard var bytes = SmallFile.bytes("/proc/\(pid)/comm", limit: 64), !bytes.isEmpty else {
      return nil
    }
    while bytes.last == 0x0A { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The logind session of `pid` (the `session-ID.scope` unit in its cgroup path, as
  /// `sd_pid_get_session` reads it), if it runs in one.
  public static func loginSession(of pid: Int32) -> String? {
    SmallFile.text("/proc/\(pid)/cgroup").flatMap(loginSession(inCgroups:))
  }

  /// The logind session named in the text of a `/proc/PID/cgroup` file, if any.
  public static func loginSession(inCgroups text: String) -> String? {
    for line in text.split(separator: "\n") {
      for component in line.split(separator: "/")
      where component.hasPrefix("session-") && component.hasSuffix(".scope") {
        let id = component.dropFirst("session-".count).dropLast(".scope".count)
        if !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
          return String(id)
        }
      }
    }
    return nil
  }

  /// The uid owning process `pid` (stat(2) of `/proc/PID`), if it runs.
  public static func owner(of pid: Int32) -> UInt32? {
    var status = stat()
    guard pid > 0, stat("/proc/\(pid)", &status) == 0 else { return nil }
    return status.st_uid
  }

  /// The resident set size of a process in KiB (`VmRSS` of `/proc/PID/status`), or nil when it is gone.
  public static func residentKiB(of pid: Int32) -> Int? {
    guard let text = SmallFile.text("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
  }
}
