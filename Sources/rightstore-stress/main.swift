import Glibc
import RightStore
import RightsStorage

/// rightstore-stress DIRECTORY: saves rights in DIRECTORY's store in an endless loop and prints each identifier on
/// its own line (write(2) to stdout, unbuffered) only after its transaction committed. The crash test kills it with
/// SIGKILL at random moments and then checks that every printed identifier is present and loads.
func saveForever(directory: String) throws -> Never {
  let store = try RightStore(directory: directory)
  let owner = Owner(uid: 4242, appID: "com.example.stress")
  var counter = 0
  while true {
    let identifier = "right-\(getpid())-\(counter)"
    _ = try store.saveRight(
      owner: owner, identifier: identifier, requirement: "default", domainStateHash: nil,
      secret: Array(identifier.utf8))
    let line = Array((identifier + "\n").utf8)
    var offset = 0
    while offset < line.count {
      let written = line[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
      guard written > 0 else { exit(3) }
      offset += written
    }
    counter += 1
  }
}

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
  let bytes = Array((message + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(status)
}

guard CommandLine.arguments.count == 2 else {
  fail("usage: rightstore-stress DIRECTORY", status: 64)
}
do {
  try saveForever(directory: CommandLine.arguments[1])
} catch {
  fail("rightstore-stress: \(error)", status: 1)
}
