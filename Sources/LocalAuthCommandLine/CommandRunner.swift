import Dispatch
import FoundationEssentials
import LocalAuthClientCore
import LocalAuthProtocol

/// Runs a localauthctl command line against the daemon and returns its exit status.
/// Output goes through the given sinks, so tests can capture it. Usable from any task.
public struct CommandRunner: Sendable {
  /// Receives each line for standard output.
  public var standardOutput: @Sendable (String) -> Void
  /// Receives each line for standard error.
  public var standardError: @Sendable (String) -> Void
  /// Writes raw text to the terminal (the progress indicator); nil when standard error is not a terminal.
  public var terminal: (@Sendable (String) -> Void)?
  /// Whether Ctrl-C during `evaluate` cancels the evaluation (the real binary), rather than killing it.
  public var cancelsOnInterrupt: Bool

  /// A runner with the given sinks.
  public init(
    standardOutput: @escaping @Sendable (String) -> Void,
    standardError: @escaping @Sendable (String) -> Void,
    terminal: (@Sendable (String) -> Void)? = nil, cancelsOnInterrupt: Bool = false
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.terminal = terminal
    self.cancelsOnInterrupt = cancelsOnInterrupt
  }

  /// Parses and runs the arguments (without the program name).
  public func run(_ arguments: [String]) async -> ExitStatus {
    let invocation: Invocation
    do {
      invocation = try CommandParser.parse(arguments)
    } catch {
      return reportUsage(error)
    }
    return await run(invocation)
  }

  private func reportUsage(_ error: UsageError) -> ExitStatus {
    standardError("localauthctl: \(error.message)")
    standardError(
      "Try 'localauthctl \(error.subcommand.map { "\($0) " } ?? "")--help' for more information.")
    return .usage
  }

  /// Runs a parsed command line.
  public func run(_ invocation: Invocation) async -> ExitStatus {
    let output = OutputFormatter(json: invocation.options.json)
    if case .help(let subcommand) = invocation.command {
      standardOutput(subcommand.map(Usage.help(for:)) ?? Usage.overview)
      return .success
    }
    if invocation.command == .version {
      standardOutput(Usage.version)
      return .success
    }
    var identity = ClientIdentity(name: "localauthctl", appID: invocation.options.appID)
    if case .evaluate(_, _, _, let nonInteractive) = invocation.command {
      identity.interactive = !nonInteractive
    }
    let connection = LocalAuthConnection(
      socketPath: invocation.options.socketPath, identity: identity)
    if invocation.command == .socket {
      standardOutput(connection.socketPath)
      return .success
    }
    defer { connection.disconnect() }
    do {
      try await perform(invocation.command, on: connection, output: output)
      return .success
    } catch let error as UsageError {
      return reportUsage(error)
    } catch {
      report(error, output)
      return ExitStatus(for: error)
    }
  }

  private func report(_ error: any Error, _ output: OutputFormatter) {
    if output.json {
      standardOutput(output.failure(error))
    } else {
      standardError(output.failure(error))
    }
  }

  private func perform(
    _ command: Command, on connection: LocalAuthConnection, output: OutputFormatter
  ) async throws {
    let broker = LocalAuthDaemon(connection: connection)
    switch command {
    case .help, .version, .socket: break
    case .status:
      standardOutput(output.status(try await broker.status()))
    case .canEvaluate(let policy):
      try connection.connect()
      let context = LocalAuthContext(connection: connection)
      try context.canEvaluatePolicy(policy)
      standardOutput(output.canEvaluate(policy, biometryType: context.biometryType))
    case .evaluate(let policy, let reason, let reuse, _):
      try connection.connect()
      let context = LocalAuthContext(connection: connection)
      if let reuse { context.touchIDAuthenticationAllowableReuseDuration = reuse }
      let success = try await EvaluationProgress(runner: self, output: output).evaluate(
        context, policy, reason: reason)
      standardOutput(output.success(success))
    case .cancel(let requestID):
      guard try await broker.cancel(requestID: requestID) else {
        throw RPCError(
          .notFound, "No queued or running evaluation \(requestID) (it may have ended).")
      }
      standardOutput(
        output.done("cancelled \(requestID)", ["cancelled": true, "requestID": .string(requestID)]))
    case .monitor:
      let events = try await broker.monitor()
      // A first line at once (on stderr, so --json output stays one event per line).
      standardError(
        "localauthctl monitor: following localauthd at \(PrintableText.escaped(connection.socketPath)); one line per event from now on (Ctrl-C stops)."
      )
      for await event in events { standardOutput(output.monitor(event)) }
      throw LAError(
        .systemCancel, message: "The connection to localauthd was lost.", reason: "connectionLost")
    case .sensors:
      standardOutput(output.sensors(try await broker.sensors()))
    case .sim(let sensor, let commands, let replace):
      let queued = try await broker.script(sensor: sensor, commands: commands, replace: replace)
      standardOutput(
        output.done(
          "\(sensor): \(queued) command\(queued == 1 ? "" : "s") queued",
          ["sensor": .string(sensor), "queued": .int(queued)]))
    case .enroll(let sensor, let identity, let user), .unenroll(let sensor, let identity, let user):
      let isEnroll = if case .enroll = command { true } else { false }
      let enrolled = try await broker.changeEnrollment(
        sensor: sensor, identity: identity, user: user, enroll: isEnroll)
      let list = enrolled.isEmpty ? "none" : enrolled.joined(separator: ", ")
      standardOutput(
        output.done(
          "\(sensor): enrolled \(list)",
          ["sensor": .string(sensor), "enrolled": .array(enrolled.map(JSONValue.string))]))
    case .agent(let scope):
      let agent = TerminalAgent(
        connection: connection, scope: scope,
        write: TerminalOutput.write)
      if try await agent.run() != .success {
        throw LAError(
          .systemCancel, message: "The connection to localauthd was lost.", reason: "connectionLost"
        )
      }
    case .agentList(let user):
      try connection.connect()
      standardOutput(output.agents(try await connection.agents(user: user)))
    case .passcode(let passcode, let old, let user):
      try await broker.setPasscode(passcode, user: user, oldPasscode: old)
      standardOutput(
        output.done(
          passcode == nil ? "passcode cleared" : "passcode set",
          ["passcodeSet": .bool(passcode != nil)]))
    case .resetLockout(let user):
      try await broker.resetLockout(user: user)
      standardOutput(output.done("lockout reset", ["lockoutReset": true]))
    case .rights(let command):
      try await perform(command, on: connection, output: output)
    case .handoff(let command):
      try await perform(command, on: connection, output: output)
    case .sshKey(let command):
      try await perform(command, on: connection, output: output)
    case .sshAgent(let options):
      try SSHAgentServer(
        options: options, keys: SSHKeyStore(connection: connection), log: standardError
      ).run()
    case .doctor, .trace, .replay:
      try await performDiagnostics(command, broker: broker, output: output)
    case .dropPassword(let user):
      try await dropPassword(user, broker: broker, output: output)
    }
  }
}
