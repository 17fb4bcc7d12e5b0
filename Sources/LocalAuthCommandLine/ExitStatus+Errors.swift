import LocalAuthClientCore
import LocalAuthProtocol

extension ExitStatus {
  /// The exit status `--help` defines for an error a command ended with: 3 when the daemon cannot
  /// be reached; 2 for a command line the tool or the daemon refuses as wrong (bad params such as
  /// an unknown `sim` command, a name the daemon does not know such as `cancel not-a-uuid`, an
  /// action refused by design, an `ssh-agent --listen` path that cannot be used); 1 for what
  /// LocalAuthentication or the daemon reports as the request's outcome (an `LAError`, a busy or
  /// full queue, a denied permission, a limit).
  public init(for error: any Error) {
    switch error {
    case is ConnectionError: self = .cannotConnect
    case is UsageError, is SSHAgentListenError: self = .usage
    case let error as RPCError:
      self = Self.usageCodes.contains(error.code) ? .usage : .failure
    default: self = .failure
    }
  }

  /// The daemon's codes that mean the request itself was wrong, not that it failed.
  static let usageCodes: [ErrorCode] = [
    .invalidParams, .notFound, .methodNotFound, .invalidRequest, .parseError,
  ]
}
