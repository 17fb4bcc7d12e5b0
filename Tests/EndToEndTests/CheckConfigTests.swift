import Foundation
import LocalAuthServer
import LocalAuthTestSupport
import Testing

/// Runs `localauthd --check-config` on `text` (or on a path that does not exist when nil) and
/// returns the exit status and stderr.
func checkConfig(_ text: String?) throws -> (status: Int32, stderr: String, path: String) {
  let directory = NSTemporaryDirectory() + "localauthd-check-\(UUID().uuidString.prefix(8))"
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  let path = directory + "/localauthd.conf"
  if let text { try text.write(toFile: path, atomically: true, encoding: .utf8) }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try LocalAuthTestSupportBinary.daemon())
  process.arguments = ["--config", path, "--check-config"]
  let pipe = Pipe()
  process.standardError = pipe
  try process.run()
  process.waitUntilExit()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  return (process.terminationStatus, output, path)
}

/// `--check-config` as a newcomer meets it: every mistake in one run, an unknown SetupOwner
/// refused, a missing file named plainly.
@Suite struct CheckConfigTests {
  @Test func theDaemonRefusesABadConfigurationAtStart() throws {
    let (status, output, path) = try checkConfig("[Broker]\nLockoutThreshold=lots\n")
    #expect(status == 1)
    #expect(output.contains("\(path):2: LockoutThreshold=lots"))
  }

  @Test func everyMistakeIsReportedInOneRun() throws {
    let text = """
      [Broker]
      LockoutThreshold=lots
      Frobnicate=1
      [Nonsense]
      Ignored=because-the-section-is-bad
      [Broker]
      Overlap=sometimes
      SetupOwner=nosuchuser-localauthd-check
      PromptTimeoutSec=-3
      """
    let (status, stderr, path) = try checkConfig(text)
    #expect(status == 1)
    for fragment in [
      "\(path):2: LockoutThreshold=lots", "\(path):3: Frobnicate=1", "\(path):4: unknown section",
      "\(path):7: Overlap=sometimes",
      "\(path):8: SetupOwner=nosuchuser-localauthd-check: no such account",
      "\(path):9: PromptTimeoutSec=-3",
    ] {
      #expect(stderr.contains(fragment), "missing \(fragment) in:\n\(stderr)")
    }
    #expect(!stderr.contains("Ignored="), "a bad section's keys are skipped, not reported")
  }

  @Test func anUnknownSetupOwnerIsRefusedAndAKnownOnePasses() throws {
    let (bad, stderr, _) = try checkConfig("[Broker]\nSetupOwner=nosuchuser-localauthd-check\n")
    #expect(bad == 1 && stderr.contains("no such account"), "\(stderr)")
    let (good, goodError, _) = try checkConfig("[Broker]\nSetupOwner=root\n")
    #expect(good == 0, "\(goodError)")
    let (uid, uidError, _) = try checkConfig("[Broker]\nSetupOwner=0\n")
    #expect(uid == 0, "\(uidError)")
  }

  @Test func aMissingFileSaysSoPlainly() throws {
    let (status, stderr, path) = try checkConfig(nil)
    #expect(status == 1)
    #expect(stderr.contains("cannot read \(path): No such file or directory"), "\(stderr)")
    #expect(!stderr.contains(":0:"), "\(stderr)")
  }
}
