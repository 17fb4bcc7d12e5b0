import LocalAuthProtocol

/// `localauthd-prompt`'s command line, parsed: which scope to register for and where the daemon is.
public struct PromptOptions: Sendable, Equatable {
  /// Which of the user's prompts the program asks for.
  public enum Scope: String, Sendable, Equatable {
    /// The logind session it runs in, else (no session) every prompt of the user.
    case session
    /// Every prompt of the user.
    case user
  }

  /// The scope asked for (`--scope`; `session` by default).
  public var scope: Scope = .session
  /// The daemon's socket (`--socket`; else `LOCALAUTHD_SOCKET`, else the system's).
  public var socketPath: String?
  /// `--help`: print the usage and exit.
  public var help = false
  /// `--version`: print the version and exit.
  public var version = false

  /// The defaults.
  public init() {}

  /// Parses the arguments (without the program name); throws the usage problem as text.
  public init(arguments: [String]) throws(PromptUsageError) {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--help", "-h": help = true
      case "--version": version = true
      case "--scope":
        guard let value = rest.popFirst(), let scope = Scope(rawValue: value) else {
          throw PromptUsageError("--scope takes 'session' or 'user'")
        }
        self.scope = scope
      case "--socket":
        guard let value = rest.popFirst(), !value.isEmpty else {
          throw PromptUsageError("--socket takes a path")
        }
        socketPath = value
      default:
        throw PromptUsageError("unknown argument '\(PromptText.sanitize(argument, limit: 64))'")
      }
    }
  }

  /// What `--help` prints.
  public static let usage = """
    Usage: localauthd-prompt [--scope session|user] [--socket PATH]

    The desktop prompt agent of localauthd: registers as your prompt agent and shows one window per
    prompt, naming who asks (client name, pid, app id) and the reason, with the sensor's live state,
    the fallback button once the broker offers it, a passcode or password field (echo off) and
    Cancel. Escape cancels; the window closes itself when the evaluation ends elsewhere. Runs under
    X11 and Wayland (GTK 4); started in your graphical session by localauthd-prompt.service.

      --scope session  Show the prompts of clients in this logind session (the default; without a
                       session, for example under a test's Xvfb, it falls back to user)
      --scope user     Show every prompt of your user
      --socket PATH    The daemon's socket (default: LOCALAUTHD_SOCKET, else the system's)
      --version        Print the version
      --help           Print this help

    One agent serves each scope: a second one exits with status 1, naming the pid of the first
    (localauthctl agent --list). See docs/owners-and-agents.md, "The desktop prompt".
    """

  /// What `--version` prints.
  public static let versionText =
    "localauthd-prompt \(localauthdVersion) (protocol \(protocolVersion))"
}

/// A problem with the command line, in words.
public struct PromptUsageError: Error, Sendable, Equatable {
  /// What is wrong.
  public var message: String

  /// A problem.
  public init(_ message: String) { self.message = message }
}
