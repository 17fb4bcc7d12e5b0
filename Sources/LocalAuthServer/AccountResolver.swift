import CLocalAuthSystem
import Dispatch
import LocalAuthConcurrency
import LocalAuthProtocol
import Sensors

/// Looks accounts up off the event loop (issue 20). NSS may block for seconds (LDAP, sssd), so what
/// the cache does not hold freshly is looked up on one worker queue, and whoever needed it (a
/// connection at accept, a request naming a user) waits, on the loop, until the answer is in the
/// `SystemAccounts` cache; the loop itself only ever reads the cache. At most `lookupLimit`
/// distinct lookups and `waiterLimit` waiters are held at once for uids other than root; past them
/// the caller gets a clear error (`PendingAccountLookups`). Root's are not counted and never
/// refused: sudo's PAM module and the administrators act as root, and no other uid's connections
/// may turn them away (docs/limits-and-threat-model.md). Loop thread only, apart from the worker.
final class AccountResolver: Sendable {
  /// The cache the worker fills and the loop reads.
  let accounts: SystemAccounts
  /// The most distinct lookups waiting or running at once.
  let lookupLimit: Int
  /// The most connections and requests waiting for them at once.
  let waiterLimit: Int
  private let worker = DispatchQueue(label: "localauthd.accounts", attributes: .concurrent)
  /// Per key being looked up, what runs once it is answered (loop thread only, checked).
  private let waiting: LoopBound<Waiting>
  /// The keys the worker has answered, for the loop to take (a lock), and the eventfd that wakes
  /// the loop for them: no task or other thread is needed to get back to the loop.
  private let answered = StateLock<[AccountReference]>([])
  private let wakeFD: Int32

  private struct Waiting {
    /// Per key, what runs once it is answered, and whether it counts against `waiterLimit`.
    var byKey: [AccountReference: [(then: () -> Void, counted: Bool)]] = [:]
    /// The waiters of uids other than root.
    var count = 0
  }

  /// A resolver filling `accounts`, answering on `loop` (created on the loop's thread).
  init(
    accounts: SystemAccounts, loop: EventLoop, lookupLimit: Int = 64, waiterLimit: Int = 1024
  ) throws(SystemError) {
    self.accounts = accounts
    self.lookupLimit = lookupLimit
    self.waiterLimit = waiterLimit
    waiting = LoopBound(Waiting(), loop: loop)
    wakeFD = try SystemError.check(las_eventfd(), "eventfd")
    loop.register(wakeFD, events: UInt32(LAS_EPOLLIN), handler: AnswerHandler(resolver: self))
  }

  /// Runs `then` on the loop once `key` has been looked up (a lookup already under way for it is
  /// shared) for a connection or request of `requester`. Returns the error to answer instead when
  /// the limits are reached (`then` never runs); root is never refused.
  func whenResolved(_ key: AccountReference, for requester: UInt32, then: @escaping () -> Void)
    -> RPCError?
  {
    let counted = requester != 0
    if counted {
      if waiting.value.byKey[key] == nil && waiting.value.byKey.count >= lookupLimit {
        return .limit("PendingAccountLookups", lookupLimit, "too many account lookups waiting")
      }
      guard waiting.value.count < waiterLimit else {
        return .limit(
          "PendingAccountLookups", waiterLimit, "too many requests waiting for accounts")
      }
      waiting.value.count += 1
    }
    if waiting.value.byKey[key] != nil {
      waiting.value.byKey[key]?.append((then, counted))
      return nil
    }
    waiting.value.byKey[key] = [(then, counted)]
    let (accounts, answered, wakeFD) = (self.accounts, self.answered, self.wakeFD)
    worker.async {
      accounts.resolve(key)
      answered.withLock { $0.append(key) }
      _ = las_eventfd_signal(wakeFD)
    }
    return nil
  }

  /// The worker answered: each answered key's waiters go on, in the order they came (loop thread).
  fileprivate func takeAnswers() {
    _ = las_eventfd_drain(wakeFD)
    let keys = answered.withLock { keys -> [AccountReference] in
      defer { keys.removeAll() }
      return keys
    }
    for key in keys {
      let waiters = waiting.value.byKey.removeValue(forKey: key) ?? []
      waiting.value.count -= waiters.count(where: \.counted)
      for waiter in waiters { waiter.then() }
    }
  }
}

/// Wakes the resolver on the loop when the worker has answers.
private final class AnswerHandler: LoopHandler {
  weak var resolver: AccountResolver?
  init(resolver: AccountResolver) { self.resolver = resolver }
  func handle(events: UInt32) { resolver?.takeAnswers() }
}
