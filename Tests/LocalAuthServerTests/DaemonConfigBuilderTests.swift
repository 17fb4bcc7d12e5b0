import LocalAuthServer
import LocalAuthTestSupport
import Sensors
import Testing

/// The tests' configuration builder (`DaemonConfig`, LocalAuthTestSupport) writes files the
/// daemon's own parser reads back as meant, so a key the end-to-end tests set is never a typo the
/// daemon refuses at start.
@Suite struct DaemonConfigBuilderTests {
  @Test func whatTheBuilderWritesTheParserReadsBack() throws {
    let config = DaemonConfig().broker("MaxQueue", 1000).broker("PromptTimeoutSec", 30)
      .diagnostics("RepromptWindowMs", 600_000)
      .face(enrolled: ["alice", "bob"], answer: .match, delayMs: 25).passcode("1234")
      .sensor("finger", kind: "exec", ["Biometry": "touchID", "Exec": "/bin/true a b"])
    let parsed = try ConfigurationParser.parse(config.text, file: "built.conf")
    #expect(parsed.broker.maxQueue == 1000)
    #expect(parsed.broker.promptTimeout == .seconds(30))
    #expect(parsed.broker.diagnostics.repromptWindow == .milliseconds(600_000))
    #expect(parsed.sensors.map(\.name) == ["face", "passcode", "finger"])
    let face = try #require(parsed.sensors.first)
    #expect(face.kind == .faceID && face.enrolled == ["alice", "bob"])
    #expect(face.defaultBehavior == .match && face.defaultDelayMilliseconds == 25)
    #expect(parsed.sensors[1].passcode == "1234")
    #expect(parsed.sensors[2].exec.command == ["/bin/true", "a", "b"])
  }

  @Test func aKeySetAgainKeepsItsPlaceAndTakesTheNewValue() {
    let config = DaemonConfig().face(enrolled: ["alice"], answer: .wait).passcode()
      .face(enrolled: ["carol"])
    #expect(
      config.text
        == "[Sensor.face]\nKind=faceID\nEnrolled=carol\nDefault=WAIT\n[Sensor.passcode]\nKind=passcode\n"
    )
  }
}
