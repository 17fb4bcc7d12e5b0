import LocalAuthProtocol
import Sensors
import Testing

@testable import ExternalDrivers

/// The protocol's lines, parsed and written, and the limits on what a driver sends.
@Suite struct DriverProtocolTests {
  private func parse(_ text: String) -> DriverMessage? { DriverMessage(line: Array(text.utf8)) }

  @Test func everyDriverLineParses() {
    #expect(parse("HELLO 1") == .hello(version: 1))
    #expect(parse("READY") == .ready)
    #expect(parse("ENROLLED 1000") == .enrolled(uid: 1000, identities: []))
    #expect(parse("ENROLLED 1000 a b") == .enrolled(uid: 1000, identities: ["a", "b"]))
    #expect(parse("MATCH 7 alice-face") == .match(capture: 7, identity: "alice-face"))
    #expect(parse("NOMATCH 7") == .noMatch(capture: 7))
    #expect(parse("RETRY 7 faceNotCentered") == .retry(capture: 7, reason: .faceNotCentered))
    #expect(parse("CANCEL 7") == .userCancel(capture: 7))
    #expect(parse("PONG 3") == .pong(3))
    #expect(parse("LOG \u{1B}x") == .log([0x1B, 0x78]))
  }

  @Test func anythingElseIsRefused() {
    for line in [
      "", "HELLO", "HELLO one", "READY now", "MATCH 7", "MATCH x alice", "MATCH 7 al ice",
      "MATCH 7 -alice", "NOMATCH", "NOMATCH 7 8", "RETRY 7 not\u{7}ok", "RETRY 7 lookAtMe",
      "RETRY 7 toofast", "ENROLLED -1 a",
      "ENROLLED 1000  a", "match 7 alice", "PONG", "CAPTURE 1 2 3 4",
      "MATCH 7 " + String(repeating: "a", count: 65),
    ] {
      #expect(parse(line) == nil, "\(line.debugDescription)")
    }
    #expect(DriverMessage(line: [0x4D, 0xFF]) == nil)
    let tooMany = "ENROLLED 1 " + (0...64).map { "i\($0)" }.joined(separator: " ")
    #expect(parse(tooMany) == nil)
  }

  @Test func daemonLinesAreOneLineEachAndNeverCarryAnUnsafeName() {
    #expect(
      DriverCommand.capture(id: 1, uid: 1000, user: "alice", attempt: 2).line
        == "CAPTURE 1 1000 alice 2\n")
    #expect(
      DriverCommand.capture(id: 1, uid: 1000, user: "evil\nREADY", attempt: 1).line
        == "CAPTURE 1 1000 - 1\n")
    #expect(DriverCommand.cancel(id: 9).line == "CANCEL 9\n")
    #expect(DriverCommand.ping(4).line == "PING 4\n")
    #expect(DriverCommand.enroll(uid: 5, identity: "f").line == "ENROLL 5 f\n")
    #expect(DriverCommand.unenroll(uid: 5, identity: "f").line == "UNENROLL 5 f\n")
  }

  @Test func linesAreSplitAndBoundedWithoutBufferingPastTheLimit() {
    var framer = LineFramer(limit: 4)
    #expect(framer.frames(Array("ab".utf8), count: 2).isEmpty)
    #expect(
      framer.frames(Array("c\nabcd\n".utf8), count: 7) == [
        .line(Array("abc".utf8)), .line(Array("abcd".utf8)),
      ])
    #expect(framer.frames(Array("abcdefgh".utf8), count: 8) == [.tooLarge])
    #expect(framer.pending.isEmpty)
    #expect(framer.frames(Array("ijk\nok\n".utf8), count: 7) == [.line(Array("ok".utf8))])
    // Only the first `count` bytes of the read buffer are the driver's.
    #expect(framer.frames(Array("x\ny\n".utf8), count: 2) == [.line(Array("x".utf8))])
  }

  @Test func aDriverLineOverTheLimitIsOneFrameHoweverTheBytesArrive() {
    let limit = ExecDriverSettings(command: ["/bin/true"]).lineLimit
    let bytes = Array(repeating: UInt8(ascii: "A"), count: limit + 1) + Array("\nREADY\n".utf8)
    var framer = LineFramer(limit: limit)
    var frames: [Frame] = []
    for byte in bytes {
      frames += framer.frames([byte], count: 1)
      #expect(framer.pending.count <= limit)
    }
    #expect(frames == [.tooLarge, .line(Array("READY".utf8))])
    var whole = LineFramer(limit: limit)
    let atLimit = Array(repeating: UInt8(ascii: "A"), count: limit) + [0x0A]
    #expect(whole.frames(atLimit, count: atLimit.count) == [.line(Array(atLimit.dropLast()))])
  }

  @Test func loggedDriverBytesArePrintableAndBounded() {
    #expect(
      LogSanitizer.sanitize([0x41, 0x1B, 0x0A, 0x5C, 0xC3, 0xA9]) == #"A\x1b\x0a\x5c\xc3\xa9"#)
    let long = LogSanitizer.sanitize(Array(repeating: UInt8(0x41), count: 500), limit: 10)
    #expect(long == "AAAAAAAAAA…")
  }

  @Test func theRestartDelayDoublesUpToItsCeiling() {
    var settings = ExecDriverSettings(command: ["/bin/true"])
    settings.restartDelay = .milliseconds(100)
    settings.restartMaxDelay = .milliseconds(1000)
    let delays = (1...6).map { settings.restartDelay(afterFailures: $0) }
    #expect(delays == [100, 200, 400, 800, 1000, 1000].map { Duration.milliseconds($0) })
  }

  @Test func enrolledSetsKeepSerialsOfKeptIdentitiesAndBoundTheOwners() {
    var state = ExecDriverState(phase: .ready)
    let first = state.setEnrolled(["a", "b"], for: 1)
    #expect(first)
    let serials = state.enrolled[1]!.map(\.serial)
    let second = state.setEnrolled(["b", "c"], for: 1)
    #expect(second)
    #expect(state.enrolled[1]!.first?.serial == serials[1])
    #expect(!serials.contains(state.enrolled[1]![1].serial))
    let emptied = state.setEnrolled([], for: 1)
    #expect(emptied)
    #expect(state.enrolled[1] == nil)
    for uid in 0..<UInt32(ExecDriverState.maxOwners) { _ = state.setEnrolled(["x"], for: uid + 10) }
    let overLimit = state.setEnrolled(["x"], for: 999_999)
    #expect(!overLimit)
  }
}
