import Glibc

/// The memory a process holds, as the kernel reports it, for tests that bound a daemon's growth.
public enum ProcessMemory {
  /// The resident set size of a process in KiB (/proc/PID/status VmRSS), or nil when it is gone.
  public static func residentKiB(pid: pid_t) -> Int? {
    let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 8192)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n")
    where line.hasPrefix("VmRSS:") {
      return Int(line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
  }
}
