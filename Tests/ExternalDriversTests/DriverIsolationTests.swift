import ExternalDrivers
import Foundation
import Glibc
import LocalAuthTestSupport
import Testing

/// A driver is a separate, less trusted program: it gets its stdin, stdout and stderr and nothing
/// else the daemon has open, even what was opened without O_CLOEXEC.
@Suite struct DriverIsolationTests {
  @Test func aDriverInheritsOnlyItsThreeStandardDescriptors() async throws {
    let harness = try DriverHarness()
    let leaky = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, as a careless library would
    try #require(leaky > 2)
    defer { close(leaky) }
    let listing = harness.directory + "/fds"
    let driver = try harness.script(
      "driver.sh",
      """
      ls /proc/$$/fd > "\(listing).tmp" && mv "\(listing).tmp" "\(listing)"
      echo "HELLO 1"
      echo READY
      while read -r verb a rest; do [ "$verb" = PING ] && echo "PONG $a"; done
      """)
    let sensor = harness.sensor([driver])
    defer { sensor.stop() }
    #expect(await eventually { FileManager.default.fileExists(atPath: listing) })
    let descriptors = try String(contentsOfFile: listing, encoding: .utf8)
      .split(separator: "\n").compactMap { Int32($0) }
    #expect(descriptors.contains(0) && descriptors.contains(1) && descriptors.contains(2))
    #expect(
      !descriptors.contains(leaky), "the driver holds the daemon's fd \(leaky): \(descriptors)")
  }
}
