import CLocalAuthSystem
import LocalAuthTestSupport

/// Makes a test socket non-blocking so a burst can be written without waiting for the reader.
func setNonBlockingForTest(_ fd: Int32) -> Int32 { las_set_nonblocking(fd, 1) }

/// The daemon binary for tests that start it themselves.
enum LocalAuthTestSupportBinary {
  static func daemon() throws -> String { try RunningDaemon.binaryPath() }
}
