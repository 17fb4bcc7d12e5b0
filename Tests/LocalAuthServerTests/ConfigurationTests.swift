import Foundation
import LocalAuthServer
import Sensors
import Testing

/// systemd-style INI configuration: defaults without a file, every key read, errors with file:line.
@Suite struct ConfigurationTests {
  @Test func noFileMeansDefaultsWithNothingEnrolledAndNoPasscode() {
    let configuration = DaemonConfiguration()
    #expect(configuration.sensors.map(\.name) == ["face", "passcode"])
    #expect(configuration.sensors.allSatisfy { $0.enrolled.isEmpty })
    #expect(configuration.passcode == nil)
  }

  @Test func everyKeyIsRead() throws {
    let text = """
      # comment
      [Broker]
      Overlap=preempt
      MaxQueue=10
      MaxQueuePerClient=2
      PromptTimeoutSec=5
      MaxBiometricAttempts=4
      LockoutThreshold=6
      FrameLimit=1024
      AdminGroup=wheel
      ExitOnIdleSec=60
      CloseGrantsOnLock=no

      [Sensor.thumb]
      Kind=touchID
      Removable=yes
      Enrolled=alice bob
      Script=NOMATCH
      Script=MATCH alice
      Default=NOMATCH
      DefaultDelayMs=250
      [Sensor.keypad]
      Kind=passcode
      Passcode=987654
      """
    let c = try ConfigurationParser.parse(text, file: "test.conf")
    #expect(c.broker.overlap == .preempt)
    #expect(c.broker.maxQueue == 10 && c.broker.maxQueuePerClient == 2)
    #expect(c.broker.promptTimeout == .seconds(5))
    #expect(c.broker.maxBiometricAttempts == 4 && c.broker.lockoutThreshold == 6)
    #expect(c.limits.frameLimit == 1024 && c.adminGroup == "wheel" && c.exitOnIdleSeconds == 60)
    #expect(c.sensors.map(\.name) == ["thumb", "keypad"])
    #expect(c.sensors[0].kind == .touchID && c.sensors[0].removable)
    #expect(c.sensors[0].enrolled == ["alice", "bob"])
    #expect(c.sensors[0].script == [.noMatch, .match(identity: "alice")])
    #expect(
      c.sensors[0].defaultBehavior == .noMatch && c.sensors[0].defaultDelayMilliseconds == 250)
    #expect(c.passcode == "987654")
    #expect(!c.broker.closeGrantsOnLock)
    #expect(
      DaemonConfiguration().broker.closeGrantsOnLock, "reuse windows close on lock by default")
  }

  @Test(arguments: [
    ("[Broker]\nOverlap=sometimes", 2, "Overlap=sometimes"),
    ("[Broker]\nMaxQueue=0", 2, "MaxQueue"),
    ("[Nope]", 1, "unknown section"),
    ("Key=Value", 1, "inside a section"),
    ("[Sensor.face]\nKind=retina", 2, "Kind"),
    ("[Sensor.face]\nScript=WIBBLE", 2, "unknown command"),
    ("[Sensor.face]\n\n[Sensor.face]", 3, "twice"),
    ("[Broker]\nnonsense", 2, "Key=Value"),
    ("[Sensor.pin]\nKind=passcode\nPasscode=12", 3, "digits"),
  ])
  func badConfigurationNamesFileLineAndReason(text: String, line: Int, fragment: String) {
    do {
      _ = try ConfigurationParser.parse(text, file: "/etc/localauthd/localauthd.conf")
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.line == line)
      #expect(error.description.hasPrefix("/etc/localauthd/localauthd.conf:\(line): "))
      #expect(error.description.contains(fragment), "\(error)")
    }
  }

  @Test func optionsParseAndRejectUnknownArguments() throws {
    let options = try DaemonOptions.parse([
      "--socket", "/tmp/x.sock", "--demo", "--state-dir", "/tmp/s",
    ])
    #expect(
      options.socketPath == "/tmp/x.sock" && options.demo && options.stateDirectory == "/tmp/s")
    #expect(throws: UsageError.self) { try DaemonOptions.parse(["--frobnicate"]) }
    #expect(throws: UsageError.self) { try DaemonOptions.parse(["--socket"]) }
  }
}
