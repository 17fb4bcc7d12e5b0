import LocalAuthClientCore
import LocalAuthProtocol

/// One localauthctl subcommand with its arguments, as parsed from the command line.
public enum Command: Sendable, Equatable {
  /// `help [SUBCOMMAND]`, `--help`: usage text.
  case help(subcommand: String?)
  /// `--version`: the release and protocol version.
  case version
  /// `socket`: the socket path it would connect to (nothing is sent).
  case socket
  /// `status`: broker.status.
  case status
  /// `can-evaluate POLICY`.
  case canEvaluate(LAPolicy)
  /// `evaluate POLICY --reason TEXT [--context-reuse SECONDS] [--non-interactive]`.
  case evaluate(LAPolicy, reason: String, reuseDuration: Double?, nonInteractive: Bool)
  /// `cancel REQUEST-ID`.
  case cancel(requestID: String)
  /// `monitor`: follow broker.monitor events.
  case monitor
  /// `sensors`: sensors.list.
  case sensors
  /// `sim SENSOR COMMAND... [--replace]`: sensors.script.
  case sim(sensor: String, commands: [String], replace: Bool)
  /// `enroll SENSOR IDENTITY [--user USER]`.
  case enroll(sensor: String, identity: String, user: String? = nil)
  /// `unenroll SENSOR IDENTITY [--user USER]`.
  case unenroll(sensor: String, identity: String, user: String? = nil)
  /// `passcode set DIGITS`, or `passcode clear` (nil), `[--old DIGITS] [--user USER]`.
  case passcode(String?, old: String? = nil, user: String? = nil)
  /// `agent [--session | --process PID]`: a terminal prompt agent.
  case agent(LAPromptAgent.Scope)
  /// `agent --list [--user USER]`: the registered prompt agents (agent.list).
  case agentList(user: String?)
  /// `reset-lockout`.
  case resetLockout(user: String? = nil)
  /// `rights ACTION ...`: persisted rights, their keys and secrets (docs/protocol.md, "Rights and
  /// keys").
  case rights(RightsCommand)
  /// `handoff ACTION ...`: deferred authorizations (docs/protocol.md, "Handoffs").
  case handoff(HandoffCommand)
  /// `ssh-key ACTION ...`: this user's SSH keys in the daemon.
  case sshKey(SSHKeyCommand)
  /// `ssh-agent [--listen PATH]`: the SSH agent, in the foreground.
  case sshAgent(SSHAgentOptions)
  /// `doctor [--app ID]`: the detectors' findings in plain words.
  case doctor(appID: String?)
  /// `trace [--app ID | --pid PID]`: a client's evaluations as a timeline (`--json`: a trace file).
  case trace(appID: String?, pid: Int?)
  /// `login drop-password USER`: drop the login password kept for USER (root; issue 33).
  case dropPassword(user: String)
  /// `replay TRACE [--passcode DIGITS]`: script the sensors to answer as in a trace file.
  case replay(path: String, passcode: String?)
}

/// Options every subcommand accepts.
public struct GlobalOptions: Sendable, Equatable {
  /// `--socket PATH`: the daemon's socket instead of the resolved default.
  public var socketPath: String?
  /// `--json`: machine-readable output, one JSON object per line.
  public var json: Bool
  /// `--app-id ID`: the app id declared in `session.hello`, which scopes persisted rights and
  /// handoff redemption (default: "localauthctl").
  public var appID: String?

  /// Options as given.
  public init(socketPath: String? = nil, json: Bool = false, appID: String? = nil) {
    self.socketPath = socketPath
    self.json = json
    self.appID = appID
  }
}

/// A parsed command line.
public struct Invocation: Sendable, Equatable {
  /// The global options.
  public var options: GlobalOptions
  /// The subcommand.
  public var command: Command

  /// An invocation.
  public init(options: GlobalOptions = GlobalOptions(), command: Command) {
    self.options = options
    self.command = command
  }
}

/// A command line that does not make sense (exit status 2), with the subcommand whose usage to show.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, for people.
  public var message: String
  /// The subcommand concerned, if known.
  public var subcommand: String?

  /// A usage error.
  public init(_ message: String, subcommand: String? = nil) {
    self.message = message
    self.subcommand = subcommand
  }

  /// The message.
  public var description: String { message }
}

/// localauthctl's exit statuses.
public enum ExitStatus: Int32, Sendable {
  /// The command succeeded.
  case success = 0
  /// LocalAuthentication (or the daemon) reported a failure; its name was printed.
  case failure = 1
  /// The command line was wrong.
  case usage = 2
  /// The daemon could not be reached.
  case cannotConnect = 3
}
