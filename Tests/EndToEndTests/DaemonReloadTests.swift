import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// SIGHUP (systemctl reload): the configuration is read again, a bad one is refused and the old one
/// kept, unchanged sensors keep what they gathered at run time, changed ones start afresh.
@Suite(.serialized) struct DaemonReloadTests {
  func enrolled(_ client: LineClient) throws -> [String] {
    let sensors = try client.call(Method.sensorsList)?.object?["sensors"]?.arrayValue
    let face = sensors?.first { $0.objectValue?["name"] == "face" }?.objectValue
    return face?["enrolled"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  func reload(_ daemon: RunningDaemon, expecting line: String) throws {
    kill(daemon.pid!, SIGHUP)
    #expect(daemon.waitForLog(containing: line), "no \(line) line")
  }

  @Test func reloadKeepsRuntimeStateOfUnchangedSensorsAndRefusesABadFile() throws {
    let daemon = try RunningDaemon(arguments: [], config: DaemonEvaluationTests.instantConfig)
    try daemon.start()
    let admin = try daemon.connect()
    _ = try admin.call(Method.sensorsEnroll, ["sensor": "face", "identity": "bob"])
    _ = try admin.call(Method.sensorsSetPasscode, ["passcode": "2468"])
    try reload(daemon, expecting: "configuration reloaded")
    #expect(try enrolled(admin) == ["alice", "bob"])
    _ = try admin.call(Method.sensorsScript, ["sensor": "passcode", "commands": ["PASSCODE 2468"]])
    _ = try admin.call(
      Method.sensorsScript, ["sensor": "face", "commands": ["NOMATCH", "NOMATCH"]])
    let passcode = try admin.call(
      Method.evaluatePolicy, ["policy": 2, "localizedReason": "after reload"])
    #expect(passcode?.object?["sensor"] != nil, "the run-time passcode survived the reload")

    let path = daemon.directory + "/localauthd.conf"
    try "[Broker]\nLockoutThreshold=lots\n".write(toFile: path, atomically: true, encoding: .utf8)
    try reload(daemon, expecting: "configuration rejected")
    #expect(try enrolled(admin) == ["alice", "bob"])

    let changed = DaemonEvaluationTests.instantConfig.face(enrolled: ["carol"]).text
    try changed.write(toFile: path, atomically: true, encoding: .utf8)
    let reloads = daemon.log().components(separatedBy: "configuration reloaded").count
    kill(daemon.pid!, SIGHUP)
    #expect(
      eventually(blocking: .milliseconds(20)) {
        daemon.log().components(separatedBy: "configuration reloaded").count != reloads
      }, "no reload")
    #expect(try enrolled(admin) == ["carol"])
    #expect(daemon.stop() == 0)
  }
}
