import CLocalAuthSystem

/// Makes a test socket non-blocking so a burst can be written without waiting for the reader.
func las_set_nonblocking_for_test(_ fd: Int32) -> Int32 { las_set_nonblocking(fd, 1) }

import LocalAuthTestSupport

/// The daemon binary for tests that start it themselves.
enum LocalAuthTestSupportBinary {
    static func daemon() throws -> String { try RunningDaemon.binaryPath() }
}
