import Testing

@testable import Systemd

/// Entry layout only; delivery to a real journald is checked by Tests/systemd/journal.sh.
struct JournalTests {
  @Test func entryCarriesStandardFieldsThenCallerFields() {
    let entry = Journal.entry(
      message: "evaluation started", priority: 6,
      messageID: "07b31cac78114fedb2092ee82603c926",
      fields: [
        JournalField("REQUEST_ID", "r1"), JournalField("POLICY", "deviceOwnerAuthentication"),
      ],
      file: "LocalAuthServer/Connection.swift", line: 42, function: "start()")
    #expect(
      entry == [
        "MESSAGE=evaluation started",
        "PRIORITY=6",
        "MESSAGE_ID=07b31cac78114fedb2092ee82603c926",
        "SYSLOG_IDENTIFIER=localauthd",
        "CODE_FILE=LocalAuthServer/Connection.swift",
        "CODE_LINE=42",
        "CODE_FUNC=start()",
        "REQUEST_ID=r1",
        "POLICY=deviceOwnerAuthentication",
      ])
  }

  @Test func entryWithoutMessageIDOmitsIt() {
    let entry = Journal.entry(
      message: "m", priority: 3, messageID: nil, fields: [], file: "f", line: 1, function: "g")
    #expect(!entry.contains { $0.hasPrefix("MESSAGE_ID=") })
  }

  @Test func sendSucceedsWithOrWithoutJournald() {
    #expect(
      Journal.send(
        message: "SystemdTests probe\nsecond line", priority: 7, messageID: nil, fields: []))
  }
}
