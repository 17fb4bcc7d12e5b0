import ExternalDrivers
import Glibc
import LocalAuthBroker
import Sensors

/// A configuration that cannot be used: the file, line and reason of its first mistake, and every
/// other mistake found in the same reading (`--check-config` reports them all in one run).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
  /// The file read.
  public var file: String
  /// The 1-based line (0 for the whole file).
  public var line: Int
  /// What is wrong.
  public var reason: String
  /// The mistakes found after this one, in the order read.
  public var others: [ConfigurationError] = []

  /// A mistake in a file (at a line, or in the whole file with line 0).
  public init(file: String, line: Int, reason: String) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  /// A file that cannot be read: "cannot read /x.conf: No such file or directory".
  public static func unreadable(_ path: String, errno: Int32) -> ConfigurationError {
    ConfigurationError(
      file: path, line: 0, reason: "cannot read \(path): \(String(cString: strerror(errno)))")
  }

  /// The first mistake and the others, as one error (nil when there are none).
  public static func combined(_ errors: [ConfigurationError]) -> ConfigurationError? {
    guard var first = errors.first else { return nil }
    first.others = Array(errors.dropFirst())
    return first
  }

  /// Every mistake, one a line: "file:line: reason", or for a whole file "file: reason" (the
  /// reason of an unreadable file names it already).
  public var description: String {
    ([self] + others).map(\.single).joined(separator: "\n")
  }

  private var single: String {
    if line > 0 { return "\(file):\(line): \(reason)" }
    return reason.hasPrefix("cannot read ") ? reason : "\(file): \(reason)"
  }
}

/// Reads systemd-style INI (`[Broker]`, `[Sensor.NAME]`, `[AppID.ID]`, `Key=Value`, `#`/`;`
/// comments): one
/// file, or a main file and its drop-ins, each applied on top of the ones before.
public enum ConfigurationParser {
  /// Parses configuration text on top of the defaults (a `[Sensor.*]` section replaces the default sensors).
  public static func parse(_ text: String, file: String) throws(ConfigurationError)
    -> DaemonConfiguration
  {
    try parse(files: [(path: file, text: text)])
  }

  /// Parses files in order, each on top of the ones before, as systemd merges drop-ins: a later
  /// value of a key replaces an earlier one; a `[Sensor.NAME]` seen in an earlier file is
  /// reopened (its list keys `Enrolled=` and `Script=` append, and an empty value clears them);
  /// any `[Sensor.*]` section replaces the default sensors. An error names its own file and line.
  public static func parse(files: [(path: String, text: String)]) throws(ConfigurationError)
    -> DaemonConfiguration
  {
    var state = State()
    for file in files { state.apply(file.text, file: file.path) }
    for sensor in state.sensors where sensor.driver == .exec && sensor.exec.command.isEmpty {
      state.errors.append(
        ConfigurationError(
          file: files.last?.path ?? "", line: 0,
          reason: "[Sensor.\(sensor.name)] has Kind=exec but no Exec="))
    }
    if state.sawSensor { state.configuration.sensors = state.sensors }
    let store = state.configuration.broker.store
    if store.minHandoffTTLSeconds > store.maxHandoffTTLSeconds {
      state.errors.append(
        ConfigurationError(
          file: files.last?.path ?? "", line: 0,
          reason:
            "\(StoreLimits.Key.minHandoffTTL)=\(store.minHandoffTTLSeconds) is more than \(StoreLimits.Key.maxHandoffTTL)=\(store.maxHandoffTTLSeconds)"
        ))
    }
    if let error = ConfigurationError.combined(state.errors) { throw error }
    return state.configuration
  }

  /// What the files read so far say.
  private struct State {
    var configuration = DaemonConfiguration()
    var sensors: [SensorConfiguration] = []
    var sawSensor = false
    /// Every mistake so far: a bad line is reported and skipped, and reading goes on.
    var errors: [ConfigurationError] = []

    /// Where reading one file is: its section (nil after a bad header, whose keys are skipped).
    struct Cursor {
      var section: String?
      var skipping = false
      var sensorIndex = 0
      var sensorsInThisFile: Set<String> = []
    }

    mutating func apply(_ text: String, file: String) {
      var cursor = Cursor()
      for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = rawLine.trimmingWhitespace()
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
        do throws(ConfigurationError) {
          try apply(line: line, number: index + 1, file: file, &cursor)
        } catch {
          errors.append(error)
          if line.hasPrefix("[") {
            cursor.section = nil
            cursor.skipping = true
          }
        }
      }
    }

    private mutating func apply(line: String, number: Int, file: String, _ cursor: inout Cursor)
      throws(ConfigurationError)
    {
      func fail(_ reason: String) -> ConfigurationError {
        ConfigurationError(file: file, line: number, reason: reason)
      }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]") else { throw fail("section header must end with ']'") }
        let name = String(line.dropFirst().dropLast())
        if name == "Broker" || name == "Diagnostics" || name == "Keys" || name == "Login" {
          cursor.section = name
        } else if name.hasPrefix("Sensor.") {
          let sensorName = String(name.dropFirst("Sensor.".count))
          guard !sensorName.isEmpty,
            sensorName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
          else { throw fail("sensor name must be letters, digits, '-' or '_'") }
          guard cursor.sensorsInThisFile.insert(sensorName).inserted else {
            throw fail("sensor \(sensorName) is defined twice")
          }
          sawSensor = true
          if let existing = sensors.firstIndex(where: { $0.name == sensorName }) {
            cursor.sensorIndex = existing
          } else {
            sensors.append(SensorConfiguration(name: sensorName, kind: .faceID))
            cursor.sensorIndex = sensors.count - 1
          }
          cursor.section = name
        } else if name.hasPrefix("AppID.") {
          let appID = String(name.dropFirst("AppID.".count))
          guard !appID.isEmpty, !appID.contains(where: { $0.isWhitespace || $0.asciiValue == 0 })
          else { throw fail("app id must be non-empty, without spaces") }
          // A drop-in reopening [AppID.ID] adds executables; an empty Executable= clears them.
          if configuration.broker.appIDBindings[appID] == nil {
            configuration.broker.appIDBindings[appID] = []
          }
          cursor.section = name
        } else {
          throw fail(
            "unknown section [\(name)] (expected [Broker], [Diagnostics], [Keys], [Login], [Sensor.NAME] or [AppID.ID])"
          )
        }
        cursor.skipping = false
        return
      }
      if cursor.skipping { return }
      guard let equals = line.firstIndex(of: "=") else { throw fail("expected Key=Value") }
      let key = String(line[..<equals]).trimmingWhitespace()
      let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
      guard let section = cursor.section else { throw fail("\(key)= must be inside a section") }
      do throws(ConfigurationValueError) {
        if section == "Broker" {
          guard ConfigurationKeys.broker.contains(key) else {
            throw .init("unknown key in [Broker]")
          }
          try applyBroker(key, value, to: &configuration)
        } else if section == "Diagnostics" {
          guard ConfigurationKeys.diagnostics.contains(key) else {
            throw .init("unknown key in [Diagnostics]")
          }
          try applyDiagnostics(key, value, to: &configuration.broker.diagnostics)
        } else if section == "Login" {
          guard ConfigurationKeys.login.contains(key) else { throw .init("unknown key in [Login]") }
          try applyLogin(key, value, to: &configuration)
        } else if section == "Keys" {
          guard ConfigurationKeys.keys.contains(key) else { throw .init("unknown key in [Keys]") }
          try applyKeys(key, value, to: &configuration.keys)
        } else if section.hasPrefix("AppID.") {
          guard ConfigurationKeys.appID.contains(key) else {
            throw .init("unknown key in [AppID.ID]")
          }
          let appID = String(section.dropFirst("AppID.".count))
          if value.isEmpty {
            configuration.broker.appIDBindings[appID] = []
          } else {
            guard value.hasPrefix("/") else { throw .init("must be an absolute path") }
            configuration.broker.appIDBindings[appID, default: []].append(value)
          }
        } else {
          guard ConfigurationKeys.sensor.contains(key) else {
            throw .init("unknown key in [Sensor.NAME]")
          }
          try applySensor(key, value, to: &sensors[cursor.sensorIndex])
        }
      } catch {
        throw fail("\(key)=\(value): \(error.reason)")
      }
    }
  }

  fileprivate static func applyBroker(
    _ key: String, _ value: String, to c: inout DaemonConfiguration
  )
    throws(ConfigurationValueError)
  {
    switch key {
    case "Overlap":
      guard let mode = OverlapMode(rawValue: value) else { throw .init("must be queue or preempt") }
      c.broker.overlap = mode
    case "MaxQueue": c.broker.maxQueue = try integer(value, 1...100_000)
    case "MaxQueuePerClient": c.broker.maxQueuePerClient = try integer(value, 1...100_000)
    case "MaxQueuePerUID": c.broker.maxQueuePerUID = try integer(value, 1...100_000)
    case "MaxContextsPerConnection": c.broker.maxContextsPerClient = try integer(value, 1...100_000)
    case "MaxRightsPerConnection": c.broker.maxRightsPerClient = try integer(value, 1...100_000)
    case "MaxTextBytes": c.broker.maxTextBytes = try integer(value, 16...65_536)
    case "MaxPendingPerConnection":
      c.limits.maxPendingPerConnection = try integer(value, 1...100_000)
    case "MaxConnectionsPerUID": c.limits.maxConnectionsPerUID = try integer(value, 1...100_000)
    case "RequireAppIDBinding": c.broker.requireAppIDBinding = try boolean(value)
    case "CloseGrantsOnLock": c.broker.closeGrantsOnLock = try boolean(value)
    case "PromptTimeoutSec": c.broker.promptTimeout = .seconds(try integer(value, 1...86_400))
    case "MaxBiometricAttempts": c.broker.maxBiometricAttempts = try integer(value, 1...100)
    case "LockoutThreshold": c.broker.lockoutThreshold = try integer(value, 1...100)
    case "PasscodeDelayFromFailure": c.broker.passcodeDelayFromFailure = try integer(value, 1...100)
    case StoreLimits.Key.maxRequestsPerUID:
      c.broker.store.maxRequestsPerUID = try integer(value, 1...100_000)
    case StoreLimits.Key.maxRequests: c.broker.store.maxRequests = try integer(value, 1...1_000_000)
    case StoreLimits.Key.maxHandoffsPerUID:
      c.broker.store.maxHandoffsPerUID = try integer(value, 0...1_000_000)
    case StoreLimits.Key.maxHandoffPayloadBytes:
      c.broker.store.maxHandoffPayloadBytes = try integer(value, 0...(1 << 20))
    case StoreLimits.Key.minHandoffTTL:
      c.broker.store.minHandoffTTLSeconds = try integer(value, 1...86_400)
    case StoreLimits.Key.maxHandoffTTL:
      c.broker.store.maxHandoffTTLSeconds = try integer(value, 1...(30 * 86_400))
    case StoreLimits.Key.maxSavedRightsPerUID:
      c.broker.store.maxSavedRightsPerUID = try integer(value, 0...1_000_000)
    case StoreLimits.Key.maxSecretBytes:
      c.broker.store.maxSecretBytes = try integer(value, 0...(1 << 20))
    case StoreLimits.Key.maxSSHKeysPerUID:
      c.broker.store.maxSSHKeysPerUID = try integer(value, 0...100_000)
    case "FrameLimit": c.limits.frameLimit = try integer(value, 256...(16 << 20))
    case "OutputHighWater": c.limits.outputHighWater = try integer(value, 4096...(1 << 30))
    case "OutputLimit": c.limits.outputHardLimit = try integer(value, 4096...(1 << 30))
    case "AdminGroup": c.adminGroup = value.isEmpty ? nil : value
    case "MaxAgentsPerUser": c.broker.maxAgentsPerUser = try integer(value, 1...1024)
    case "Owners":
      guard let mode = OwnerMode(rawValue: value) else { throw .init("must be user or device") }
      c.broker.ownerMode = mode
    case "SetupOwner":
      guard !value.isEmpty, value.utf8.count <= 64, !value.contains(" ") else {
        throw .init("must be an account name or a uid")
      }
      // An unknown account is a mistake, never a silent fall-back to the daemon's own account.
      guard UInt32(value) != nil || getpwnam(value) != nil else {
        throw .init("no such account (use an account name from /etc/passwd, or a uid)")
      }
      c.setupOwner = value
    case "ExitOnIdleSec": c.exitOnIdleSeconds = try integer(value, 0...86_400)
    case "SSHKnownHostsFile":
      guard value.hasPrefix("/"), value.utf8.count <= 4096 else {
        throw .init("must be an absolute path")
      }
      c.sshKnownHostsFile = value
    default: throw .init("unknown key in [Broker]")
    }
  }

  fileprivate static func applyKeys(
    _ key: String, _ value: String, to keys: inout KeysConfiguration
  ) throws(ConfigurationValueError) {
    switch key {
    case "Store":
      guard let store = KeysConfiguration.Store(rawValue: value) else {
        throw .init("must be auto, tpm or file")
      }
      keys.store = store
    case "TCTI":
      guard !value.isEmpty, value.utf8.count <= 1024, !value.utf8.contains(0) else {
        throw .init("must be a tss2 TCTI string, such as device:/dev/tpmrm0")
      }
      keys.tcti = value
    default: throw .init("unknown key in [Keys]")
    }
  }

  fileprivate static func applySensor(
    _ key: String, _ value: String, to s: inout SensorConfiguration
  )
    throws(ConfigurationValueError)
  {
    switch key {
    case "Kind":
      if value == "exec" {
        s.driver = .exec
        return
      }
      if value == "fprintd" {
        s.driver = .fprintd
        s.kind = .touchID
        return
      }
      if value == "password" {
        s.driver = .password
        s.kind = .passcode
        return
      }
      guard let kind = SensorKind(rawValue: value) else {
        throw .init(
          "must be exec, fprintd, password or one of \(SensorKind.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      s.kind = kind
    case "Biometry":
      guard let kind = SensorKind(rawValue: value), kind.isBiometric else {
        throw .init("must be faceID, touchID or opticID")
      }
      s.kind = kind
    case "Exec":
      let words = value.split(separator: " ").map(String.init)
      guard let program = words.first, program.hasPrefix("/"), words.count <= 64,
        value.utf8.count <= 4096
      else {
        throw .init("must be an absolute path, then arguments separated by spaces")
      }
      s.exec.command = words
    case "StartTimeoutMs": s.exec.startTimeout = .milliseconds(try integer(value, 10...600_000))
    case "PingIntervalMs": s.exec.pingInterval = .milliseconds(try integer(value, 10...600_000))
    case "HangTimeoutMs": s.exec.hangTimeout = .milliseconds(try integer(value, 10...600_000))
    case "RestartDelayMs": s.exec.restartDelay = .milliseconds(try integer(value, 1...600_000))
    case "RestartMaxDelayMs":
      s.exec.restartMaxDelay = .milliseconds(try integer(value, 1...3_600_000))
    case "Socket":
      guard value.hasPrefix("/"), value.utf8.count < 108 else {
        throw .init("must be an absolute path shorter than 108 bytes")
      }
      s.passwordSocket = value
    case "Available": s.available = try boolean(value)
    case "Removable": s.removable = try boolean(value)
    case "Enrolled" where value.isEmpty: s.enrolled = []
    case "Enrolled":
      let names = value.split(separator: " ").map(String.init)
      for name in names where !ScriptCommand.isSaneIdentity(name) {
        throw .init("bad identity: \(ScriptCommand.identityRule)")
      }
      s.enrolled.append(contentsOf: names)
    case "Script" where value.isEmpty: s.script = []
    case "Script":
      do {
        s.script.append(contentsOf: try ScriptCommand.parse(lines: [value]))
      } catch {
        throw .init(error.reason)
      }
    case "Default":
      guard let behavior = ScriptCommand.DefaultBehavior(rawValue: value.uppercased()) else {
        throw .init("must be MATCH, NOMATCH or WAIT")
      }
      s.defaultBehavior = behavior
    case "DefaultDelayMs": s.defaultDelayMilliseconds = try integer(value, 0...3_600_000)
    case "Passcode":
      guard (4...16).contains(value.count), value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        throw .init("must be 4–16 digits")
      }
      s.passcode = value
    default: throw .init("unknown key in [Sensor.NAME]")
    }
  }
}
