import ExternalDrivers
import Foundation
import LocalAuthTestSupport
import Sensors
import Testing

/// Crashes, hangs, garbage and slow starts become `SensorFailure`s for the capture in flight, are logged
/// with why, and the driver is restarted (the second run of each script behaves).
@Suite struct DriverFaultTests {
  /// A script whose first run misbehaves with `firstRun` and whose later runs answer every capture with
  /// a match and every ping with a pong.
  private func flaky(_ harness: DriverHarness, _ firstRun: String, beforeHello: String = "") throws
    -> String
  {
    try harness.script(
      "driver.sh",
      """
      first=no
      [ -e "\(harness.directory)/ran" ] || { first=yes; touch "\(harness.directory)/ran"; }
      [ $first = yes ] && { \(beforeHello.isEmpty ? ":" : beforeHello); }
      echo "HELLO 1"
      echo "ENROLLED 1000 alice-face"
      echo READY
      while read -r verb a rest; do
        echo "$verb $a $rest" >> "\(harness.directory)/received"
        case $verb in
          PING) echo "PONG $a" ;;
          CAPTURE) if [ $first = yes ]; then \(firstRun); else echo "MATCH $a alice-face"; fi ;;
        esac
      done
      """)
  }

  @Test func aCrashFailsTheCaptureAndTheDriverComesBack() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([try flaky(harness, "exit 3")])
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let crash = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(crash?.reason == .driverCrashed)
    #expect(
      harness.journal.contains {
        $0.contains("exited with status 3") && $0.contains("restarting in")
      })
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 2)) == .match(identity: "alice-face"))
  }

  /// First runs that stop answering: one sleeps (pings unanswered), one closes its input and sleeps
  /// (writes to it fail with EPIPE while it runs). Both are killed as hung at the ping deadline.
  @Test(arguments: [
    ("exec sleep 1000", ""),
    (":", "echo 'HELLO 1'; echo READY; exec sleep 1000 0<&-"),
  ])
  func aDriverThatStopsAnsweringPingsIsKilledAsHung(firstRun: String, beforeHello: String)
    async throws
  {
    let harness = try DriverHarness()
    let sensor = harness.sensor(
      [try flaky(harness, firstRun, beforeHello: beforeHello)], hangTimeoutMs: 200)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let hang = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(hang?.reason == .driverHung)
    #expect(
      harness.journal.contains {
        $0.contains("did not answer PING") && $0.contains("killed by signal 9")
      })
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 2)) == .match(identity: "alice-face"))
  }

  @Test func aWaitingDriverThatAnswersPingsIsNotHung() async throws {
    let harness = try DriverHarness()
    // First run: never answers the capture, but keeps answering pings (a person who has not looked yet).
    let sensor = harness.sensor([try flaky(harness, ":")], hangTimeoutMs: 200)
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let waiting = Task { try await sensor.capture(DriverHarness.request()) }
    #expect(
      await eventually {
        let received =
          (try? String(contentsOfFile: harness.directory + "/received", encoding: .utf8)) ?? ""
        return received.components(separatedBy: "PING").count > 10
      })
    waiting.cancel()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(!harness.journal.contains { $0.contains("did not answer PING") })
    #expect(
      await eventually {
        let received =
          (try? String(contentsOfFile: harness.directory + "/received", encoding: .utf8)) ?? ""
        return received.contains("CANCEL 1")
      })
  }

  @Test func garbageIsAProtocolErrorAndIsLoggedSanitized() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([try flaky(harness, #"printf 'EVIL \033[31m\007\n'"#)])
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let garbage = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(garbage?.reason == .driverProtocolError)
    let line = try #require(harness.journal.first { $0.contains("not the protocol") })
    #expect(line.contains(#"EVIL \x1b[31m\x07"#))
    #expect(!line.utf8.contains(0x1B) && !line.utf8.contains(0x07))
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 2)) == .match(identity: "alice-face"))
  }

  @Test func anOverlongLineIsAProtocolError() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([
      try flaky(harness, "head -c 5000 /dev/zero | tr '\\\\0' A; echo")
    ])
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let overlong = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(overlong?.reason == .driverProtocolError)
    #expect(harness.journal.contains { $0.contains("a line over 1024 bytes") })
  }

  @Test func aRetryReasonOutsideTheVocabularyIsAProtocolError() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([try flaky(harness, #"echo "RETRY $a lookAtMe""#)])
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let unknown = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(unknown?.reason == .driverProtocolError)
    #expect(harness.journal.contains { $0.contains("lookAtMe") && $0.contains("not the protocol") })
  }

  @Test func aMatchOfAnotherOwnersIdentityIsAProtocolError() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([try flaky(harness, #"echo "MATCH $a bob-face""#)])
    defer { sensor.stop() }
    #expect(await eventually { sensor.state(for: 1000).available })
    let wrong = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(wrong?.reason == .driverProtocolError)
    #expect(
      harness.journal.contains { $0.contains("MATCH of bob-face, not enrolled for uid 1000") })
  }

  @Test func aSlowStartIsKilledAndRetriedAndTheSensorIsUnavailableMeanwhile() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor(
      [try flaky(harness, ":", beforeHello: "exec sleep 1000")], startTimeoutMs: 200)
    defer { sensor.stop() }
    #expect(!sensor.state(for: 1000).available)
    let early = await DriverHarness.failure { try await sensor.capture(DriverHarness.request()) }
    #expect(early?.reason == .driverNotReady)
    #expect(await eventually { sensor.state(for: 1000).available })
    #expect(harness.journal.contains { $0.contains("did not say READY within") })
    #expect(
      try await sensor.capture(DriverHarness.request(attempt: 2)) == .match(identity: "alice-face"))
  }

  @Test func aMissingProgramIsLoggedAndNeverAvailable() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([harness.directory + "/no-such-driver"])
    defer { sensor.stop() }
    #expect(await eventually { harness.journal.count >= 2 })
    #expect(harness.journal.allSatisfy { $0.contains("cannot be started") })
    #expect(!sensor.state(for: 1000).available)
  }

  @Test func stopKillsTheDriverAndFailsTheWaitingCapture() async throws {
    let harness = try DriverHarness()
    let sensor = harness.sensor([try flaky(harness, ":")])
    #expect(await eventually { sensor.state(for: 1000).available })
    let waiting = Task { try await sensor.capture(DriverHarness.request()) }
    #expect(
      await eventually {
        ((try? String(contentsOfFile: harness.directory + "/received", encoding: .utf8)) ?? "")
          .contains("CAPTURE 1 1000 alice 1")
      })
    sensor.stop()
    let stopped = await DriverHarness.failure { try await waiting.value }
    #expect(stopped?.reason == .driverNotReady)
    #expect(!sensor.state(for: 1000).available)
    #expect(harness.journal.contains { $0.contains("stopped") })
  }
}
