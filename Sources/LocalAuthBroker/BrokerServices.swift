import LocalAuthConcurrency

/// What the broker is given at start and never replaces: the clock, the log, the directories of
/// accounts, processes and SSH host names, where ids come from, and the threads that write the
/// store and hash passcodes. The broker does no I/O and draws no randomness; it asks these. All
/// `let`s of `Sendable` values, so they may be read from any thread.
struct BrokerServices: Sendable {
  /// The clock (a test clock in tests).
  let time: any TimeSource
  /// Where evaluations, drops and notices are logged.
  let log: any EvaluationLog
  /// Names for uids and uids for names.
  let accounts: any AccountDirectory
  /// Who owns a running process.
  let processes: any ProcessDirectory
  /// Verified names of SSH host keys, for the sign-in prompt.
  let hostNames: any HostNameDirectory
  /// Where request, context and right ids come from.
  let random: any RandomSource
  /// The rights store's thread (the rights book's lane runs on it), drained at exit.
  let storeWorker: StoreWorker
  /// Where passcode hashes are computed, off the event loop.
  let hasher: PasscodeHasher
  /// The daemon's version, reported by session.hello and broker.status.
  let version: String
  /// When the broker started, on `time` (uptime, trace origins).
  let startedAt: Duration
}
