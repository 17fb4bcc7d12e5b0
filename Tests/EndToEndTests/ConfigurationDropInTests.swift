import Foundation
import LocalAuthProtocol
import LocalAuthServer
import LocalAuthTestSupport
import Testing

/// `localauthd.conf.d/*.conf` drop-ins: merged in systemd's order, one key overridden, a bad
/// drop-in refused with its own path and line (at start, by --check-config, and on reload).
@Suite(.serialized) struct ConfigurationDropInTests {
  /// A fresh temporary directory, removed by the caller.
  func temporaryDirectory() throws -> String {
    let directory = NSTemporaryDirectory() + "localauthd-dropin-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
  }

  func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  @Test func dropInsSortByNameAcrossDirectoriesAndEtcHidesUsrLib() throws {
    let root = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let etc = root + "/etc/localauthd.conf.d"
    let lib = root + "/lib/localauthd.conf.d"
    try write("", to: lib + "/10-vendor.conf")
    try write("", to: lib + "/50-shared.conf")
    try write("", to: etc + "/50-shared.conf")
    try write("", to: etc + "/90-local.conf")
    try write("", to: etc + "/README")
    try write("", to: etc + "/.hidden.conf")
    let sources = ConfigurationSources(
      mainFile: root + "/none.conf", mainFileRequired: false,
      dropInDirectories: [etc, lib, root + "/missing.d"])
    #expect(
      sources.dropInFiles() == [
        lib + "/10-vendor.conf", etc + "/50-shared.conf", etc + "/90-local.conf",
      ])
  }

  @Test func theDefaultSourcesAreEtcThenUsrLibAndConfigUsesItsOwnDirectory() throws {
    let defaults = ConfigurationSources(options: DaemonOptions())
    #expect(defaults.mainFile == "/etc/localauthd/localauthd.conf" && !defaults.mainFileRequired)
    #expect(
      defaults.dropInDirectories == [
        "/etc/localauthd/localauthd.conf.d", "/usr/lib/localauthd/localauthd.conf.d",
      ])
    let custom = ConfigurationSources(options: try DaemonOptions.parse(["--config", "/x/a.conf"]))
    #expect(custom.mainFile == "/x/a.conf" && custom.mainFileRequired)
    #expect(custom.dropInDirectories == ["/x/a.conf.d"])
  }

  @Test func aLaterFileOverridesOneKeyAndKeepsTheRest() throws {
    let configuration = try ConfigurationParser.parse(files: [
      ("main.conf", "[Broker]\nMaxQueue=10\nPromptTimeoutSec=5\n"),
      ("10-a.conf", "[Broker]\nMaxQueue=20\n"),
    ])
    #expect(configuration.broker.maxQueue == 20)
    #expect(configuration.broker.promptTimeout == .seconds(5))
  }

  @Test func aDropInReopensASensorWhoseListsAppendOrClear() throws {
    let configuration = try ConfigurationParser.parse(files: [
      ("main.conf", "[Sensor.face]\nKind=faceID\nEnrolled=alice\nScript=NOMATCH\n"),
      (
        "10-a.conf",
        "[Sensor.face]\nEnrolled=bob\nScript=\nScript=MATCH\n[Sensor.pin]\nKind=passcode\n"
      ),
    ])
    #expect(configuration.sensors.map(\.name) == ["face", "pin"])
    #expect(configuration.sensors[0].kind == .faceID)
    #expect(configuration.sensors[0].enrolled == ["alice", "bob"])
    #expect(configuration.sensors[0].script == [.match(identity: nil)])
    let cleared = try ConfigurationParser.parse(files: [
      ("main.conf", "[Sensor.face]\nEnrolled=alice\n"), ("10.conf", "[Sensor.face]\nEnrolled=\n"),
    ])
    #expect(cleared.sensors[0].enrolled.isEmpty)
  }

  @Test func aSensorTwiceInOneFileIsStillAnError() {
    #expect(throws: ConfigurationError.self) {
      try ConfigurationParser.parse(files: [
        ("main.conf", "[Sensor.face]\n"), ("10.conf", "[Sensor.face]\n[Sensor.face]\n"),
      ])
    }
  }

  @Test func aBadDropInNamesItsOwnFileAndLine() {
    do {
      _ = try ConfigurationParser.parse(files: [
        ("/etc/localauthd/localauthd.conf", "[Broker]\nMaxQueue=10\n"),
        ("/etc/localauthd/localauthd.conf.d/50-bad.conf", "# comment\n[Broker]\nMaxQueue=none\n"),
      ])
      Issue.record("a bad drop-in was accepted")
    } catch {
      #expect(error.file == "/etc/localauthd/localauthd.conf.d/50-bad.conf" && error.line == 3)
      #expect(error.description.hasPrefix("/etc/localauthd/localauthd.conf.d/50-bad.conf:3: "))
    }
  }

  /// Runs `localauthd ARGUMENTS`; returns the exit status, standard output and standard error.
  func runDaemon(_ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try LocalAuthTestSupportBinary.daemon())
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, out, err)
  }

  @Test func checkConfigReadsTheDropInsAndRefusesABadOneByPathAndLine() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/localauthd.conf"
    try write("[Broker]\nMaxQueue=10\n", to: path)
    try write("[Broker]\nMaxQueue=20\n", to: path + ".d/10-good.conf")
    let (good, _, goodError) = try runDaemon(["--config", path, "--check-config"])
    #expect(good == 0, "\(goodError)")
    let bad = path + ".d/20-bad.conf"
    try write("[Broker]\n\nOverlap=sometimes\n", to: bad)
    let (status, _, error) = try runDaemon(["--config", path, "--check-config"])
    #expect(status == 1)
    #expect(error.contains("\(bad):3: Overlap=sometimes"), "\(error)")
  }

  @Test func reloadAppliesANewDropInAndRefusesABadOne() throws {
    let daemon = try RunningDaemon(arguments: [], config: DaemonEvaluationTests.instantConfig)
    let dropIns = daemon.directory + "/localauthd.conf.d"
    try daemon.start()
    defer { _ = daemon.stop() }
    let admin = try daemon.connect()
    let reloads = { daemon.log().components(separatedBy: "configuration reloaded").count }
    let before = reloads()
    try write("[Sensor.face]\nEnrolled=dave\n", to: dropIns + "/50-dave.conf")
    kill(daemon.pid!, SIGHUP)
    #expect(eventually(blocking: .milliseconds(20)) { reloads() != before }, "no reload")
    let sensors = try admin.call(Method.sensorsList)?.object?["sensors"]?.arrayValue
    let face = sensors?.first { $0.objectValue?["name"] == "face" }?.objectValue
    #expect(face?["enrolled"]?.arrayValue?.compactMap(\.stringValue) == ["alice", "dave"])

    let bad = dropIns + "/60-bad.conf"
    try write("[Broker]\nFrameLimit=tiny\n", to: bad)
    kill(daemon.pid!, SIGHUP)
    #expect(daemon.waitForLog(containing: "configuration rejected"))
    #expect(daemon.log().contains("\(bad):2: FrameLimit=tiny"), "\(daemon.log())")
  }
}

/// `ConfigurationKeys` is the parser's own list: every key listed is read, none other is.
@Suite struct ConfigurationKeysTests {
  @Test(arguments: ConfigurationKeys.broker)
  func everyListedBrokerKeyIsRead(key: String) {
    do {
      _ = try ConfigurationParser.parse("[Broker]\n\(key)=\u{7F}", file: "k.conf")
    } catch {
      #expect(!error.reason.contains("unknown key"), "\(error)")
    }
  }

  @Test(arguments: ConfigurationKeys.sensor)
  func everyListedSensorKeyIsRead(key: String) {
    do {
      _ = try ConfigurationParser.parse("[Sensor.s]\n\(key)=\u{7F}", file: "k.conf")
    } catch {
      #expect(!error.reason.contains("unknown key"), "\(error)")
    }
  }

  @Test func aKeyNotListedIsRefused() {
    #expect(throws: ConfigurationError.self) {
      try ConfigurationParser.parse("[Broker]\nMaxQueues=1", file: "k.conf")
    }
    #expect(throws: ConfigurationError.self) {
      try ConfigurationParser.parse("[Sensor.s]\nKinds=faceID", file: "k.conf")
    }
  }
}

/// `[AppID.ID]` across drop-ins: reopened, executables added; an empty `Executable=` clears.
@Suite struct AppIDDropInTests {
  @Test func aDropInAddsExecutablesAndAnEmptyValueClears() throws {
    let added = try ConfigurationParser.parse(files: [
      ("main.conf", "[AppID.vault]\nExecutable=/usr/bin/vault\n"),
      ("10.conf", "[AppID.vault]\nExecutable=/usr/local/bin/vault\n"),
    ])
    #expect(added.broker.appIDBindings["vault"] == ["/usr/bin/vault", "/usr/local/bin/vault"])
    let cleared = try ConfigurationParser.parse(files: [
      ("main.conf", "[AppID.vault]\nExecutable=/usr/bin/vault\n"),
      ("10.conf", "[AppID.vault]\nExecutable=\nExecutable=/opt/vault\n"),
    ])
    #expect(cleared.broker.appIDBindings["vault"] == ["/opt/vault"])
  }
}
