import LocalAuthServer
import Synchronization
import Testing

/// The daemon's account directory: NSS behind a cache with a bound (issue 20).
@Suite struct SystemAccountsTests {
  @Test func rootIsFoundByUIDAndByNameAndAMissingNameIsNotKept() {
    let accounts = SystemAccounts()
    #expect(accounts.account(uid: 0)?.name == "root")
    #expect(accounts.account(named: "root")?.uid == 0)
    #expect(accounts.account(uid: 0)?.name == "root")
    #expect(accounts.account(named: "no-such-account-house-io") == nil)
    #expect(accounts.cachedCount.uids == 1)
    #expect(accounts.cachedCount.names == 1)
  }

  /// At its capacity the cache starts over; lookups are still answered.
  @Test func atItsCapacityTheCacheStartsOver() throws {
    let existing = (0..<70_000).lazy.map { UInt32($0) }.filter {
      SystemAccounts(capacity: 1).account(uid: $0) != nil
    }.prefix(3)
    let uids = Array(existing)
    try #require(uids.count == 3, "this host has fewer than three accounts")
    let accounts = SystemAccounts(capacity: 2)
    #expect(accounts.account(uid: uids[0]) != nil)
    #expect(accounts.account(uid: uids[1]) != nil)
    #expect(accounts.cachedCount.uids == 2)
    #expect(accounts.account(uid: uids[2]) != nil)
    #expect(accounts.cachedCount.uids == 1)
    #expect(accounts.account(uid: uids[0])?.uid == uids[0])
    #expect(accounts.cachedCount.uids == 2)
  }

  /// An account removed since it was cached is gone from the cache at its next lookup: the broker
  /// never reads its stale answer (a removed name's uid may belong to someone else by then).
  @Test func aRemovedAccountLeavesTheCacheAtItsNextLookup() {
    let removed = Atomic<Bool>(false)
    let accounts = SystemAccounts(
      freshFor: .zero,
      lookUp: AccountLookup(
        nameOfUID: { removed.load(ordering: .relaxed) ? nil : "alice-\($0)" },
        uidOfName: { removed.load(ordering: .relaxed) ? nil : ($0 == "alice" ? 4242 : nil) }))
    #expect(accounts.account(named: "alice")?.uid == 4242)
    #expect(accounts.account(uid: 4242)?.name == "alice-4242")
    #expect(accounts.cacheOnly.account(named: "alice")?.uid == 4242)
    removed.store(true, ordering: .relaxed)
    #expect(accounts.account(named: "alice") == nil)
    #expect(accounts.account(uid: 4242) == nil)
    #expect(accounts.cacheOnly.account(named: "alice") == nil, "the stale answer is still read")
    #expect(accounts.cacheOnly.account(uid: 4242) == nil, "the stale answer is still read")
  }
}
