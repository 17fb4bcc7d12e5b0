import Dispatch
import Glibc
import LocalAuthClientCore
import LocalAuthProtocol

/// `localauthctl agent`: a terminal prompt agent, like `pkttyagent`. It shows each of the user's prompts
/// (app, reason, sensor), reads the passcode with echo off, cancels on Esc or Ctrl-C, takes the fallback on
/// `f`, prints feedback lines, serves prompts one after another, and exits cleanly on SIGTERM (or Ctrl-C
/// with no prompt shown), restoring the terminal.
public struct TerminalAgent: Sendable {
  /// What the agent reacts to.
  enum Input: Sendable {
    case event(LAAgentEvent)
    case key(UInt8)
    case endOfInput
    case stop(Int32)
    case disconnected
  }

  /// The connection to register on.
  public var connection: LocalAuthConnection
  /// Which of the user's evaluations to show.
  public var scope: LAPromptAgent.Scope
  /// Writes text to the terminal.
  public var write: @Sendable (String) -> Void
  /// The terminal (or other input) to read keys from.
  public var inputDescriptor: Int32

  /// An agent.
  public init(
    connection: LocalAuthConnection, scope: LAPromptAgent.Scope,
    write: @escaping @Sendable (String) -> Void, inputDescriptor: Int32 = STDIN_FILENO
  ) {
    self.connection = connection
    self.scope = scope
    self.write = write
    self.inputDescriptor = inputDescriptor
  }

  /// The refusal of a second agent for a scope, naming the agent that serves it.
  static func agentExists(_ error: RPCError) -> RPCError { LAPromptAgent.agentExists(error) }

  /// Registers and serves prompts until SIGTERM, Ctrl-C without a prompt, end of input or a lost connection.
  public func run() async throws -> ExitStatus {
    let agent = LAPromptAgent(connection: connection)
    let registration: LAAgentRegistration
    let events: AsyncStream<LAAgentEvent>
    do {
      (registration, events) = try await agent.register(scope: scope)
    } catch let error as RPCError where AgentExistsRefusal(error) != nil {
      throw Self.agentExists(error)
    }
    let (inputs, sink) = AsyncStream<Input>.makeStream()
    let forwarder = Task {
      for await event in events { sink.yield(.event(event)) }
      sink.yield(.disconnected)
    }
    defer { forwarder.cancel() }
    let signals = [SIGTERM, SIGHUP, SIGINT].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number)
      source.setEventHandler { sink.yield(.stop(number)) }
      source.resume()
      return source
    }
    defer { for source in signals { source.cancel() } }
    let terminal = RawTerminal(descriptor: inputDescriptor)
    defer { terminal?.restore() }
    KeyReader.start(descriptor: inputDescriptor) { key in
      sink.yield(key.map(Input.key) ?? .endOfInput)
    }
    write(
      "localauthctl agent: showing prompts for \(TerminalText.sanitize(registration.user)) (\(registration.agent)). "
        + "Esc or Ctrl-C cancels a prompt, f takes the fallback once offered; Ctrl-C with no prompt or SIGTERM stops.\n"
    )
    var session = PromptSession(agent: agent, write: write)
    for await input in inputs {
      switch input {
      case .event(let event): session.handle(event)
      case .key(let key):
        if await session.press(key) == .stop {
          write("localauthctl agent: stopped\n")
          return .success
        }
      case .endOfInput:
        // Nobody can answer any more: cancel what is shown and stop.
        await session.cancelShown()
        write("localauthctl agent: end of input, stopped\n")
        return .success
      case .stop(let number):
        await session.cancelShown()
        write("localauthctl agent: stopped (signal \(number))\n")
        return .success
      case .disconnected:
        write("localauthctl agent: the connection to localauthd was lost\n")
        return .failure
      }
    }
    return .success
  }
}

/// The prompt on screen and what the person has typed so far.
struct PromptSession {
  enum KeyOutcome { case handled, stop }

  let agent: LAPromptAgent
  let write: @Sendable (String) -> Void
  var current: LAAgentPrompt?
  var askingPasscode = false
  var typed: [UInt8] = []
  /// Whether the broker offered the prompt's fallback (after a failed match), so `f` works.
  var fallbackOffered = false
  /// Whether keys typed before the passcode was asked for were reported as ignored.
  var toldKeysIgnored = false

  init(agent: LAPromptAgent, write: @escaping @Sendable (String) -> Void) {
    self.agent = agent
    self.write = write
  }

  mutating func handle(_ event: LAAgentEvent) {
    switch event {
    case .prompt(let prompt):
      current = prompt
      askingPasscode = false
      typed = []
      fallbackOffered = false
      toldKeysIgnored = false
      func clean(_ text: String, _ limit: Int) -> String {
        TerminalText.sanitize(text, limit: limit)
      }
      // `f` is shown once the broker offers the fallback (after a failed match), not before.
      let keys = "Esc or Ctrl-C: \(clean(prompt.cancelTitle, 40))"
      write(
        """

        Authentication requested by \(clean(prompt.clientName, 128)) (pid \(prompt.clientPID), uid \(prompt.clientUID))
        \(Self.appIDLine(prompt))  User:   \(clean(prompt.user, 64))
          Reason: \(clean(prompt.localizedReason, 512))
          Sensor: \(clean(prompt.sensor ?? "none", 64))   [\(keys)]

        """)
    case .passcodeRequested(let requestID):
      guard requestID == current?.requestID else { return }
      askingPasscode = true
      wipeTyped()
      write("  \(secretTitle): ")
    case .feedback(
      let requestID, let feedback, let attempt, let retryAfter, let lockedOut, let offered):
      guard requestID == current?.requestID else { return }
      if lockedOut {
        write("  Not recognized. Too many failed attempts: biometry is locked out.\n")
        return
      }
      write(
        Self.describe(
          feedback, attempt: attempt, retryAfter: retryAfter, secret: current?.secret ?? .passcode)
          + "\n")
      if offered, !fallbackOffered, let title = current?.fallbackTitle {
        fallbackOffered = true
        write("  f: \(TerminalText.sanitize(title, limit: 40))\n")
      }
      if feedback == "wrongPasscode" && askingPasscode { write("  \(secretTitle): ") }
    case .ended(let requestID, let result):
      guard requestID == current?.requestID else { return }
      write("  Result: \(TerminalText.sanitize(result, limit: 64))\n")
      current = nil
      askingPasscode = false
      wipeTyped()
    }
  }

  /// "Password" or "Passcode": what the prompt on screen asks for.
  var secretTitle: String { (current?.secret ?? .passcode).title }

  /// Zeroes what was typed and empties it.
  mutating func wipeTyped() {
    SecretWipe.wipe(&typed)
  }

  /// The prompt's "App:" line (with its newline), or "" when the client declared no app id: a
  /// bound app id is "verified", any other is the client's word, "declared, not verified".
  static func appIDLine(_ prompt: LAAgentPrompt) -> String {
    guard let appID = prompt.appID else { return "" }
    let how = prompt.appIDBound ? "verified: bound to its executable" : "declared, not verified"
    return "  App:    \(TerminalText.sanitize(appID, limit: 128)) (\(how))\n"
  }

  static func describe(
    _ feedback: String, attempt: Int?, retryAfter: Int?, secret: LAPasscodeSecret = .passcode
  ) -> String {
    let attemptText = attempt.map { " (attempt \($0))" } ?? ""
    let word = secret.rawValue
    switch feedback {
    case "noMatch": return "  Not recognized\(attemptText). Try again."
    case "wrongPasscode": return "  Wrong \(word)\(attemptText)."
    case "passcodeDelay":
      return "  Too many wrong \(word)s: the next try waits \(retryAfter ?? 0) s."
    case "fallback": return "  Switching to the \(word)."
    case "awaitingChoice":
      return "  No more tries on this sensor: f takes the fallback, Esc or Ctrl-C cancels."
    case "fallbackNotOffered":
      return "  The fallback is not offered yet: it comes after a failed match."
    default: return "  \(TerminalText.sanitize(feedback, limit: 64))\(attemptText)."
    }
  }

  mutating func press(_ key: UInt8) async -> KeyOutcome {
    guard let prompt = current else { return key == 0x03 ? .stop : .handled }
    let agent = self.agent
    switch key {
    case 0x1B, 0x03:
      write(askingPasscode ? "\n  Cancelled.\n" : "  Cancelled.\n")
      await send { try await agent.cancel(prompt.requestID) }
    case UInt8(ascii: "f"),
      UInt8(ascii: "F") where !askingPasscode:
      guard fallbackOffered else {
        write(Self.describe("fallbackNotOffered", attempt: nil, retryAfter: nil) + "\n")
        return .handled
      }
      await send { try await agent.fallback(prompt.requestID) }
    case 0x7F,
      0x08 where askingPasscode:
      // The erased byte is zeroed, not only forgotten (the buffer keeps its capacity).
      if !typed.isEmpty {
        typed[typed.count - 1] = 0
        typed.removeLast()
      }
    case 0x0D,
      0x0A where askingPasscode:
      // Built straight from the typed bytes (no copy besides), sent once, then both are zeroed.
      let passcode = typed.withUnsafeBufferPointer { typedBytes in
        // At least 32 bytes of capacity: a native string even when short, so the wipe below
        // reaches its only bytes (a small string's would be inline in every copy).
        String(unsafeUninitializedCapacity: max(typedBytes.count, 32)) { target in
          _ = target.initialize(from: typedBytes)
          return typedBytes.count
        }
      }
      wipeTyped()
      write("\n")
      guard !passcode.isEmpty else {
        write("  \(secretTitle): ")
        return .handled
      }
      await send { try await agent.submitPasscode(passcode, for: prompt.requestID) }
      SecretWipe.wipe(passcode)
    case 0x20...0x7E where askingPasscode:
      // Room for the longest at once: appending never moves the typed bytes to a new buffer.
      if typed.capacity < 512 { typed.reserveCapacity(512) }
      if typed.count < (prompt.secret == .password ? 512 : 64) { typed.append(key) }
    case 0x20...0x7E where !toldKeysIgnored:
      // Never drop keys silently: a passcode typed before it is asked for is not kept.
      toldKeysIgnored = true
      write("  (Keys typed now are ignored: the passcode is asked for after the fallback.)\n")
    default: break
    }
    return .handled
  }

  /// Cancels the prompt on screen (the agent is going away).
  func cancelShown() async {
    guard let prompt = current else { return }
    let agent = self.agent
    await send { try await agent.cancel(prompt.requestID) }
  }

  private func send(_ body: @Sendable () async throws -> Void) async {
    do {
      try await body()
    } catch {
      write("  (\(TerminalText.sanitize(String(describing: error), limit: 200)))\n")
    }
  }
}

/// The terminal in raw mode (no canonical input, no echo, no signals from keys), restored at the end.
final class RawTerminal: Sendable {
  private let descriptor: Int32
  private let saved: termios

  /// Switches `descriptor` to raw input; nil when it is not a terminal.
  init?(descriptor: Int32) {
    guard isatty(descriptor) == 1 else { return nil }
    var original = termios()
    guard tcgetattr(descriptor, &original) == 0 else { return nil }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    self.descriptor = descriptor
    saved = original
  }

  /// Puts the terminal back as it was.
  func restore() {
    var original = saved
    _ = tcsetattr(descriptor, TCSANOW, &original)
  }
}

/// Reads keys one byte at a time on a thread of its own (blocking reads never touch the task pool).
/// An escape sequence (an arrow or function key: ESC then `[` or `O` within 50 ms, as terminals send
/// them) is swallowed whole; a lone ESC is the Esc key.
enum KeyReader {
  /// Calls `deliver` with each key byte, then with nil at end of input.
  static func start(descriptor: Int32, deliver: @escaping @Sendable (UInt8?) -> Void) {
    ReaderThread.start {
      while let byte = readByte(descriptor) {
        guard byte == 0x1B, let next = readByte(descriptor, waitingMilliseconds: 50) else {
          deliver(byte)
          continue
        }
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          deliver(byte)
          deliver(next)
          continue
        }
        // The rest of the sequence: parameter bytes up to a final byte (0x40-0x7E).
        while let part = readByte(descriptor, waitingMilliseconds: 50),
          !(0x40...0x7E).contains(part)
        {}
      }
      deliver(nil)
    }
  }

  /// One byte, or nil at end of input (or, with a wait, when nothing arrives in time).
  static func readByte(_ descriptor: Int32, waitingMilliseconds: Int32? = nil) -> UInt8? {
    if let waitingMilliseconds {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, waitingMilliseconds) == 1 else { return nil }
    }
    var byte: UInt8 = 0
    while true {
      let count = read(descriptor, &byte, 1)
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }
}

/// Writes text to standard output (write(2), retrying EINTR and short writes): the agent's terminal.
public enum TerminalOutput {
  /// Writes all of `text`.
  public static func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0, errno == EINTR { continue }
      if written <= 0 { return }
      offset += written
    }
  }
}
