import LocalAuthClientCore
import LocalAuthProtocol

/// Parses localauthctl's arguments (without the program name). Global options and `--help`
/// may appear anywhere; `--opt=value` and `--opt value` are both accepted; `--` ends options.
public enum CommandParser {
  /// The subcommand names, in the order `help` lists them.
  public static let subcommands = [
    "status", "can-evaluate", "evaluate", "cancel", "monitor", "sensors", "sim", "enroll",
    "unenroll", "passcode",
    "reset-lockout", "rights", "handoff", "ssh-key", "ssh-agent", "doctor", "trace", "replay",
    "agent", "login", "socket", "help",
  ]

  /// The options that take a value (`--opt value` or `--opt=value`).
  public static let valuedOptions = [
    "--socket", "--app-id", "--reason", "--context-reuse", "--requirement", "--secret",
    "--secret-file",
    "--data", "--file", "--out", "--payload", "--ttl", "--policy", "--app", "--pid", "--passcode",
    "--user", "--old", "--process", "--reuse", "--listen",
  ]

  /// The options of one subcommand that take no value.
  public static let switchOptions = [
    "--non-interactive", "--replace", "--session", "--list", "--keep-on-lock",
  ]

  /// Every long option, global or of a subcommand (what completion and the manual list).
  public static var longOptions: [String] {
    ["--json", "--help"] + valuedOptions + switchOptions
  }

  /// Parses the arguments.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var options = GlobalOptions()
    var positional: [String] = []
    var flags: [String: String?] = [:]
    var wantsHelp = false
    var wantsVersion = false
    var index = 0
    var optionsEnded = false
    let valued = Set(valuedOptions)
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String? = nil
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "--help", "-h":
        wantsHelp = true
      case "--version":
        wantsVersion = true
      case "--json":
        options.json = true
      case _ where switchOptions.contains(name):
        guard inlineValue == nil else {
          throw UsageError("\(name) takes no value", subcommand: positional.first)
        }
        flags[name] = .some(nil)
      case _ where valued.contains(name):
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else {
            throw UsageError("\(name) needs a value", subcommand: positional.first)
          }
          value = arguments[index]
          index += 1
        }
        if name == "--socket" {
          guard !value.isEmpty else { throw UsageError("--socket needs a path") }
          options.socketPath = value
        } else if name == "--app-id" {
          guard !value.isEmpty else { throw UsageError("--app-id needs a non-empty id") }
          options.appID = value
        } else {
          flags[name] = .some(value)
        }
      default:
        throw UsageError("unknown option \(name)", subcommand: positional.first)
      }
    }
    if wantsVersion && !wantsHelp { return Invocation(options: options, command: .version) }
    guard let name = positional.first else {
      if wantsHelp { return Invocation(options: options, command: .help(subcommand: nil)) }
      throw UsageError("missing subcommand")
    }
    guard subcommands.contains(name) else {
      throw UsageError(NextSteps.unknownSubcommand(name))
    }
    if wantsHelp {
      return Invocation(options: options, command: .help(subcommand: name == "help" ? nil : name))
    }
    var arguments = Arguments(subcommand: name, values: Array(positional.dropFirst()), flags: flags)
    let command = try arguments.command()
    try arguments.finish()
    return Invocation(options: options, command: command)
  }
}

/// The positional arguments and flags of one subcommand, consumed as the command is built.
struct Arguments {
  let subcommand: String
  var values: [String]
  var flags: [String: String?]

  mutating func command() throws(UsageError) -> Command {
    switch subcommand {
    case "help":
      let topic = values.isEmpty ? nil : values.removeFirst()
      if let topic, !CommandParser.subcommands.contains(topic) {
        throw usage(NextSteps.unknownSubcommand(topic))
      }
      return .help(subcommand: topic)
    case "status": return .status
    case "socket": return .socket
    case "monitor": return .monitor
    case "sensors": return .sensors
    case "reset-lockout": return .resetLockout(user: try optionalFlag("--user"))
    case "login":
      guard values.count == 2, values[0] == "drop-password", !values[1].isEmpty else {
        throw usage("login takes drop-password USER")
      }
      let user = values[1]
      values.removeAll()
      return .dropPassword(user: user)
    case "can-evaluate": return .canEvaluate(try policy())
    case "evaluate":
      let policy = try policy()
      guard case let reason?? = flags.removeValue(forKey: "--reason"), !reason.isEmpty else {
        throw usage("evaluate needs --reason TEXT (a non-empty localized reason)")
      }
      var reuse: Double? = nil
      if case let text?? = flags.removeValue(forKey: "--context-reuse") {
        guard let seconds = Double(text), seconds.isFinite,
          (0...ContextOptions.maximumReuseDuration).contains(seconds)
        else {
          throw usage("--context-reuse must be a number of seconds from 0 to 300, not '\(text)'")
        }
        reuse = seconds
      }
      let nonInteractive = flags.removeValue(forKey: "--non-interactive") != nil
      return .evaluate(policy, reason: reason, reuseDuration: reuse, nonInteractive: nonInteractive)
    case "cancel": return .cancel(requestID: try value("REQUEST-ID"))
    case "sim":
      let sensor = try value("SENSOR")
      guard !values.isEmpty else {
        throw usage("sim needs at least one COMMAND (e.g. MATCH, NOMATCH, CANCEL)")
      }
      let commands = ScriptArguments.group(values)
      values.removeAll()
      return .sim(
        sensor: sensor, commands: commands, replace: flags.removeValue(forKey: "--replace") != nil)
    case "enroll", "unenroll":
      let sensor = try value("SENSOR")
      let identity = try value("IDENTITY")
      let user = try optionalFlag("--user")
      return subcommand == "enroll"
        ? .enroll(sensor: sensor, identity: identity, user: user)
        : .unenroll(sensor: sensor, identity: identity, user: user)
    case "passcode":
      switch try value("set|clear") {
      case "set":
        let digits = try value("DIGITS")
        guard (4...16).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
          throw usage("the passcode must be 4 to 16 digits")
        }
        return .passcode(digits, old: try optionalFlag("--old"), user: try optionalFlag("--user"))
      case "clear":
        return .passcode(nil, old: try optionalFlag("--old"), user: try optionalFlag("--user"))
      case let other: throw usage("passcode takes 'set DIGITS' or 'clear', not '\(other)'")
      }
    case "agent":
      let session = flags.removeValue(forKey: "--session") != nil
      if flags.removeValue(forKey: "--list") != nil {
        guard !session, flags["--process"] == nil else {
          throw usage("agent --list takes only --user USER")
        }
        return .agentList(user: try optionalFlag("--user"))
      }
      if let text = try optionalFlag("--process") {
        guard !session, let pid = Int32(text), pid > 0 else {
          throw usage("agent takes --session or --process PID (a positive pid), not both")
        }
        return .agent(.process(pid: pid))
      }
      return .agent(session ? .session : .user)
    case "rights": return .rights(try rightsCommand())
    case "handoff": return .handoff(try handoffCommand())
    case "ssh-key": return .sshKey(try sshKeyCommand())
    case "ssh-agent": return .sshAgent(try sshAgentOptions())
    case "doctor", "trace", "replay": return try diagnosticsCommand()
    default:
      throw usage(NextSteps.unknownSubcommand(subcommand))
    }
  }

  /// A valued flag's value, if given (removed from the flags).
  mutating func optionalFlag(_ name: String) throws(UsageError) -> String? {
    guard let entry = flags.removeValue(forKey: name) else { return nil }
    guard let value = entry, !value.isEmpty else { throw usage("\(name) needs a value") }
    return value
  }

  mutating func policy() throws(UsageError) -> LAPolicy {
    let text = try value("POLICY")
    if let policy = Policy(name: text) ?? PolicyNames.policy(forShortName: text) { return policy }
    throw usage("unknown policy '\(text)'; use one of: \(PolicyNames.all)")
  }

  mutating func value(_ what: String) throws(UsageError) -> String {
    guard !values.isEmpty else { throw usage("\(subcommand) needs \(what)") }
    return values.removeFirst()
  }

  func finish() throws(UsageError) {
    if let extra = values.first { throw usage("unexpected argument '\(extra)'") }
    if let flag = flags.keys.sorted().first {
      throw usage("\(flag) does not apply to \(subcommand)")
    }
  }

  func usage(_ message: String) -> UsageError { UsageError(message, subcommand: subcommand) }
}

/// Short policy names for the command line ("biometrics", "owner", …) next to Apple's full names and raw values.
public enum PolicyNames {
  /// Short name → policy.
  public static let short: [(String, Policy)] = [
    ("biometrics", .deviceOwnerAuthenticationWithBiometrics), ("owner", .deviceOwnerAuthentication),
    ("companion", .deviceOwnerAuthenticationWithCompanion),
    ("biometrics-or-companion", .deviceOwnerAuthenticationWithBiometricsOrCompanion),
    ("wrist", .deviceOwnerAuthenticationWithWristDetection),
  ]

  /// The policy for a short name.
  public static func policy(forShortName name: String) -> Policy? {
    short.first { $0.0 == name }?.1
  }

  /// Every accepted spelling, for messages.
  public static var all: String {
    short.map(\.0).joined(separator: ", ") + ", the LAPolicy names, or 1…5"
  }
}

/// Groups `sim` arguments into script commands: an argument with a space is a whole command
/// ("SLEEP 500"); otherwise an upper-case keyword starts a command and the words after it are
/// its arguments (`MATCH alice`, `SLEEP 500`); `DEFAULT` takes exactly one word.
public enum ScriptArguments {
  /// The script language's keywords (docs/protocol.md, "The script language").
  public static let keywords: Set<String> = [
    "MATCH", "NOMATCH", "RETRY", "CANCEL", "FALLBACK", "PASSCODE", "SLEEP", "DISCONNECT", "CONNECT",
    "ENROLL",
    "UNENROLL", "DEFAULT",
  ]

  /// The commands the arguments spell.
  public static func group(_ arguments: [String]) -> [String] {
    var commands: [String] = []
    var takesOne = false
    for argument in arguments {
      if argument.contains(" ") {
        commands.append(argument)
        takesOne = false
      } else if !takesOne && (commands.isEmpty || keywords.contains(argument)) {
        commands.append(argument)
        takesOne = argument == "DEFAULT"
      } else {
        commands[commands.count - 1] += " " + argument
        takesOne = false
      }
    }
    return commands
  }
}
