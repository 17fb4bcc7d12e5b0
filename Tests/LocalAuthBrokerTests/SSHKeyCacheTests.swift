import FoundationEssentials
import LocalAuthCrypto
import LocalAuthServer
import RightsStorage
import Testing

@testable import LocalAuthBroker
@testable import RightStore

/// `SSHKeyCache` on its own: records by uid and name, one context per key while it is free, and a
/// deleted key's grant never reaching a key made again under its name.
@Suite struct SSHKeyCacheTests {
  static func record(uid: UInt32, name: String, reuse: Int = 60) throws -> SSHKeyRecord {
    SSHKeyRecord(
      name: name, uid: uid, policy: "biometrics", reuseSeconds: reuse,
      publicKey: try P256PrivateKey.generate().publicKey, createdAt: Date(), lastUsedAt: nil)
  }

  @Test func recordsAreKeptByUidAndName() throws {
    var cache = SSHKeyCache()
    let key = try Self.record(uid: 1000, name: "work")
    cache.remember(key)
    #expect(cache.record(uid: 1000, name: "work") == key)
    #expect(cache.record(uid: 2000, name: "work") == nil)
    let now = Date()
    cache.used(uid: 1000, name: "work", at: now)
    #expect(cache.record(uid: 1000, name: "work")?.lastUsedAt == now)
    cache.forgetRecord(uid: 1000, name: "work")
    #expect(cache.record(uid: 1000, name: "work") == nil)
  }

  @Test func aKeyKeepsItsContextUntilDeleted() throws {
    var cache = SSHKeyCache()
    let key = try Self.record(uid: 1000, name: "work", reuse: 90)
    let context = cache.context(for: key, random: SystemRandomSource())
    #expect(context.options.reuseDuration == 90)
    #expect(cache.context(for: key, random: SystemRandomSource()) === context)
    // Deleted: a new context, without the old one's grant.
    cache.forget(uid: 1000, name: "work")
    #expect(cache.context(for: key, random: SystemRandomSource()) !== context)
    // The same name with a new key never shares the old key's context.
    let remade = try Self.record(uid: 1000, name: "work")
    #expect(
      cache.context(for: remade, random: SystemRandomSource())
        !== cache.context(for: key, random: SystemRandomSource()))
  }
}
