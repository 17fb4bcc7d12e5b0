import LocalAuthServer
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
}
