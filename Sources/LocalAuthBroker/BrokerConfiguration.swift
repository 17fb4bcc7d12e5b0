/// How the broker treats a new evaluation while another one runs (docs/protocol.md, "Evaluation
/// semantics").
public enum OverlapMode: String, Sendable {
  /// One prompt at a time; the rest wait in a FIFO queue.
  case queue
  /// As iOS does: the newer evaluation ends the running one with systemCancel.
  case preempt
}

/// The broker's policy settings (the `[Broker]` section), every one with a default.
public struct BrokerConfiguration: Sendable, Equatable {
  /// Queue or preempt.
  public var overlap: OverlapMode = .queue
  /// Evaluations waiting in total before queueFull.
  public var maxQueue = 1024
  /// Evaluations one client may have waiting before queueFull.
  public var maxQueuePerClient = 64
  /// Evaluations all clients of one uid may have waiting before queueFull, so that no uid can take
  /// the whole queue (root is not bounded by it).
  public var maxQueuePerUID = 128
  /// Explicit contexts one connection may hold.
  public var maxContextsPerClient = 256
  /// Right handles one connection may hold.
  public var maxRightsPerClient = 256
  /// The longest client-supplied text (reasons, titles, names, app ids), in UTF-8 bytes.
  public var maxTextBytes = 1024
  /// App ids bound to executables: a client may claim such an app id only from one of them.
  public var appIDBindings: [String: [String]] = [:]
  /// Whether every app id a client claims must be bound (else an unbound claim is refused).
  public var requireAppIDBinding = false
  /// A prompt nobody answers ends with systemCancel after this long.
  public var promptTimeout: Duration = .seconds(60)
  /// Failed biometric matches allowed in one evaluation.
  public var maxBiometricAttempts = 3
  /// Consecutive failed matches of one owner that lock that owner's biometry out (a system
  /// evaluation asked by another uid counts them against the requester).
  public var lockoutThreshold = 5
  /// The consecutive failed passcode from which on each further try waits (the 6th, as on iOS).
  public var passcodeDelayFromFailure = 6
  /// The escalating waits once past that many failures.
  public var passcodeDelays: [Duration] = [
    .seconds(60), .seconds(300), .seconds(900), .seconds(3600),
  ]
  /// Whether a lock of the owner's session, a suspend or a logout ends app contexts' reuse windows
  /// (`CloseGrantsOnLock=`; SSH keys choose for themselves).
  public var closeGrantsOnLock = true
  /// Per-user owners (the default) or one device owner.
  public var ownerMode: OwnerMode = .perUser
  /// The account that start-up enrollments, `Passcode=` and script ENROLL belong to; in device mode, the one owner.
  public var setupOwner: UInt32 = 0
  /// Prompt agents one uid may register at a time.
  public var maxAgentsPerUser = 8
  /// What clients may make the rights store hold or do.
  public var store = StoreLimits()
  /// The group whose members may administer sensors (besides root); nil for root only.
  public var adminGroupID: UInt32? = nil
  /// The evaluation detectors and traces (the `[Diagnostics]` section).
  public var diagnostics = DiagnosticsConfiguration()
  /// A user who may administer sensors (besides root): the daemon's own user when it is not
  /// root (a `make run` daemon belongs to whoever started it); nil otherwise.
  public var adminUserID: UInt32? = nil

  /// The `[Login]` settings: keeping login passwords for a login by presence.
  public var login = LoginPasswordConfiguration()
  /// The defaults.
  public init() {}
}
