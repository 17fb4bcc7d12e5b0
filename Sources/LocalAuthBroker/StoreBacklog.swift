/// The store requests admitted and not yet answered, per uid and in total. Each holds at most one job in
/// the store worker's queue, so these counts bound that queue (and the tasks waiting on it). A value owned by
/// the broker, used on its executor only.
struct StoreBacklog {
  /// Requests admitted and not yet answered, of everyone.
  private(set) var total = 0
  /// Requests admitted and not yet answered, per uid (no entry for zero).
  private(set) var perUID: [UInt32: Int] = [:]

  /// Which limit a refused request hit: its configuration key and value.
  struct Refusal: Equatable {
    /// The configuration key (`MaxStoreRequestsPerUID` or `MaxStoreRequests`).
    let key: String
    /// Its value.
    let limit: Int
  }

  /// Admits one request of `uid`, or returns the limit it would pass. `force` admits anyway (the last step of
  /// work already admitted, such as marking a handoff authorized after its prompt), still counting it.
  mutating func admit(uid: UInt32, limits: StoreLimits, force: Bool = false) -> Refusal? {
    let mine = perUID[uid, default: 0]
    if !force {
      if mine >= limits.maxRequestsPerUID {
        return Refusal(key: StoreLimits.Key.maxRequestsPerUID, limit: limits.maxRequestsPerUID)
      }
      if total >= limits.maxRequests {
        return Refusal(key: StoreLimits.Key.maxRequests, limit: limits.maxRequests)
      }
    }
    perUID[uid] = mine + 1
    total += 1
    return nil
  }

  /// Ends one admitted request of `uid`.
  mutating func release(uid: UInt32) {
    guard let mine = perUID[uid] else { return }
    perUID[uid] = mine > 1 ? mine - 1 : nil
    total -= 1
  }
}
