import Glibc
import SystemFacts

/// The memory a process holds, as the kernel reports it, for tests that bound a daemon's growth.
public enum ProcessMemory {
  /// The resident set size of a process in KiB (/proc/PID/status VmRSS), or nil when it is gone.
  public static func residentKiB(pid: pid_t) -> Int? { ProcessFacts.residentKiB(of: pid) }
}
