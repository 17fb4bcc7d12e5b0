/// One command of the simulated sensors' script language (docs/protocol.md, "The script language").
public enum ScriptCommand: Sendable, Equatable, CustomStringConvertible {
  /// The next capture matches (optionally a named identity, which must be enrolled to match).
  case match(identity: String?)
  /// The next capture is presented but does not match.
  case noMatch
  /// A retryable read with a reason.
  case retry(reason: RetryReason)
  /// The user presses Cancel.
  case cancel
  /// The user presses the fallback button.
  case fallback
  /// The user types a passcode.
  case passcode(String)
  /// The user takes this long before the next step.
  case sleep(milliseconds: Int)
  /// A removable sensor goes away.
  case disconnect
  /// A removable sensor comes back.
  case connect
  /// Enroll an identity.
  case enroll(String)
  /// Remove an identity.
  case unenroll(String)
  /// What happens when the script is empty.
  case setDefault(DefaultBehavior)

  /// What a sensor does when its script is empty.
  public enum DefaultBehavior: String, Sendable, Equatable {
    /// Matches the first enrolled identity.
    case match = "MATCH"
    /// Presents a non-matching face/finger.
    case noMatch = "NOMATCH"
    /// Waits until the script gets a command (or the evaluation ends).
    case wait = "WAIT"
  }

  /// Whether the command changes sensor state rather than answering a capture; such commands
  /// take effect as soon as they reach the head of the queue.
  public var isStateChange: Bool {
    switch self {
    case .disconnect, .connect, .enroll, .unenroll, .setDefault: true
    default: false
    }
  }

  /// The command as a script line.
  public var description: String {
    switch self {
    case .match(let identity): identity.map { "MATCH \($0)" } ?? "MATCH"
    case .noMatch: "NOMATCH"
    case .retry(let reason): "RETRY \(reason.rawValue)"
    case .cancel: "CANCEL"
    case .fallback: "FALLBACK"
    case .passcode(let digits): "PASSCODE \(digits)"
    case .sleep(let ms): "SLEEP \(ms)"
    case .disconnect: "DISCONNECT"
    case .connect: "CONNECT"
    case .enroll(let identity): "ENROLL \(identity)"
    case .unenroll(let identity): "UNENROLL \(identity)"
    case .setDefault(let behavior): "DEFAULT \(behavior.rawValue)"
    }
  }
}

/// A script line that could not be read; nothing of its script is applied.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line number.
  public var line: Int
  /// The offending text.
  public var text: String
  /// What is wrong.
  public var reason: String

  /// "line 2 ("FOO"): unknown command".
  public var description: String { "line \(line) (\"\(text)\"): \(reason)" }
}

extension ScriptCommand {
  /// The longest SLEEP accepted, in milliseconds (one hour).
  public static let maximumSleep = 3_600_000

  /// Parses a whole script; throws for the first bad line, so a script is applied whole or not at all.
  public static func parse(lines: [String]) throws(ScriptError) -> [ScriptCommand] {
    var commands: [ScriptCommand] = []
    for (index, line) in lines.enumerated() {
      let trimmed =
        line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(
        String.init)
      if words.isEmpty { continue }
      do throws(ScriptLineProblem) {
        commands.append(try parse(words: words))
      } catch {
        throw ScriptError(line: index + 1, text: line, reason: error.text)
      }
    }
    return commands
  }

  private static func parse(words: [String]) throws(ScriptLineProblem) -> ScriptCommand {
    let verb = words[0].uppercased()
    let arguments = Array(words.dropFirst())
    func argumentCount(_ range: ClosedRange<Int>) throws(ScriptLineProblem) {
      guard range.contains(arguments.count) else {
        let expected =
          range.lowerBound == range.upperBound
          ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
        throw ScriptLineProblem(
          text: "\(verb) takes \(expected) argument(s), got \(arguments.count)")
      }
    }
    func identity() throws(ScriptLineProblem) -> String {
      let name = arguments[0]
      guard ScriptCommand.isSaneIdentity(name) else {
        throw ScriptLineProblem(text: "identity \(ScriptCommand.identityRule)")
      }
      return name
    }
    switch verb {
    case "MATCH":
      try argumentCount(0...1)
      return .match(identity: arguments.isEmpty ? nil : try identity())
    case "NOMATCH":
      try argumentCount(0...0)
      return .noMatch
    case "RETRY":
      try argumentCount(1...1)
      guard let reason = RetryReason(rawValue: arguments[0]) else {
        throw ScriptLineProblem(text: "RETRY takes one of \(RetryReason.wordList)")
      }
      return .retry(reason: reason)
    case "CANCEL":
      try argumentCount(0...0)
      return .cancel
    case "FALLBACK":
      try argumentCount(0...0)
      return .fallback
    case "PASSCODE":
      try argumentCount(1...1)
      guard (1...64).contains(arguments[0].count),
        arguments[0].allSatisfy({ $0.isASCII && $0.isNumber })
      else {
        throw ScriptLineProblem(text: "PASSCODE takes digits")
      }
      return .passcode(arguments[0])
    case "SLEEP":
      try argumentCount(1...1)
      guard let ms = Int(arguments[0]), (0...maximumSleep).contains(ms) else {
        throw ScriptLineProblem(text: "SLEEP takes milliseconds from 0 to \(maximumSleep)")
      }
      return .sleep(milliseconds: ms)
    case "DISCONNECT":
      try argumentCount(0...0)
      return .disconnect
    case "CONNECT":
      try argumentCount(0...0)
      return .connect
    case "ENROLL":
      try argumentCount(1...1)
      return .enroll(try identity())
    case "UNENROLL":
      try argumentCount(1...1)
      return .unenroll(try identity())
    case "DEFAULT":
      try argumentCount(1...1)
      guard let behavior = DefaultBehavior(rawValue: arguments[0].uppercased()) else {
        throw ScriptLineProblem(text: "DEFAULT takes MATCH, NOMATCH or WAIT")
      }
      return .setDefault(behavior)
    default:
      throw ScriptLineProblem(text: "unknown command \(words[0])")
    }
  }
}

/// Why one line failed, before the line number is attached.
struct ScriptLineProblem: Error {
  let text: String
}

extension ScriptCommand {
  /// The rule every enrolled identity follows, in words.
  public static let identityRule =
    "must be 1–64 ASCII letters, digits, '-', '_', '.' or '@', starting with a letter or digit"

  /// Whether `identity` is a sane identifier: 1–64 ASCII letters, digits, '-', '_', '.', '@', starting
  /// with a letter or digit (no control characters, spaces, escapes, look-alike letters or NUL).
  public static func isSaneIdentity(_ identity: String) -> Bool {
    let bytes = Array(identity.utf8)
    guard (1...64).contains(bytes.count) else { return false }
    func alphanumeric(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
    return alphanumeric(bytes[0])
      && bytes.allSatisfy {
        alphanumeric($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E || $0 == 0x40
      }
  }
}
