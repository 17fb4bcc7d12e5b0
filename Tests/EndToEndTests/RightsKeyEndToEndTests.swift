import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// The client/daemon mismatches of docs/protocol.md, "Rights and keys", fixed in LocalAuthClient,
/// against the real daemon: saved rights start authorized, the public key is cached, state follows
/// `right.stateChanged`, every key exchange form, and `right.release` on deinit.
@Suite(.serialized)
struct RightsKeyEndToEndTests {
  /// A daemon whose face sensor matches at once, and a connection to it.
  func start() async throws -> (RunningDaemon, LocalAuthConnection) {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    return (daemon, daemon.connection())
  }

  /// Authorizes a new right and saves it.
  func save(
    _ identifier: String, _ requirement: LAAuthenticationRequirement = .default,
    on connection: LocalAuthConnection
  ) async throws -> LAPersistedRight {
    let right = LARight(requirement: requirement, connection: connection)
    try await right.authorize(localizedReason: "save \(identifier)")
    return try await LARightStore(connection: connection).saveRight(right, identifier: identifier)
  }

  @Test func aForgedSignatureThrowsAsApplesVerifyDoes() async throws {
    let (daemon, connection) = try await start()
    let saved = try await save("forged", on: connection)
    let message = Data("pay 5".utf8)
    let signature = try await saved.key.sign(message)
    try await saved.key.publicKey.verify(message, signature: signature)

    // Another message, a flipped byte, and another right's signature are all refused by throwing.
    let otherMessage = await #expect(throws: LAError.self) {
      try await saved.key.publicKey.verify(Data("pay 500".utf8), signature: signature)
    }
    #expect(otherMessage?.code == .authenticationFailed)
    #expect(otherMessage?.reason == "invalidSignature")
    var flipped = signature
    flipped[flipped.count - 1] ^= 0x01
    await #expect(throws: LAError.self) {
      try await saved.key.publicKey.verify(message, signature: flipped)
    }
    let other = try await save("other", on: connection)
    let foreign = try await other.key.sign(message)
    await #expect(throws: LAError.self) {
      try await saved.key.publicKey.verify(message, signature: foreign)
    }
    await #expect(throws: LAError.self) {
      try await saved.key.publicKey.verify(message, signature: Data())
    }
    withExtendedLifetime(daemon) {}
  }

  @Test func aSavedRightStartsAuthorizedAndItsPublicKeyIsCached() async throws {
    let (daemon, connection) = try await start()
    let saved = try await save("cached", on: connection)
    #expect(saved.state == .authorized)
    #expect(try await saved.refreshState() == .authorized)
    #expect(saved.hasCachedPublicKey)
    let message = Data("later, without a prompt".utf8)
    let signature = try await saved.key.sign(message)

    await saved.deauthorize()
    #expect(saved.state == .notAuthorized)
    let refused = await #expect(throws: LAError.self) { try await saved.key.sign(message) }
    #expect(refused?.code == .authenticationFailed)
    #expect(refused?.reason == "notAuthorized")
    // Encryption and verification use the cached public key: no authorization needed.
    try await saved.key.publicKey.verify(message, signature: signature)
    let ciphertext = try await saved.key.publicKey.encrypt(Data("sealed".utf8))

    // A loaded right exports and verifies with its public key before any authorization (as
    // Apple's), while its private key stays locked.
    let loaded = try await LARightStore(connection: connection).right(forIdentifier: "cached")
    #expect(loaded.state == .unknown)
    #expect(try await loaded.key.publicKey.exportBytes() == saved.key.publicKey.exportBytes())
    try await loaded.key.publicKey.verify(message, signature: signature)
    let locked = await #expect(throws: LAError.self) { try await loaded.key.decrypt(ciphertext) }
    #expect(locked?.code == .authenticationFailed)
    try await loaded.authorize(localizedReason: "load")
    #expect(loaded.state == .authorized)
    #expect(loaded.hasCachedPublicKey)
    #expect(try await loaded.key.decrypt(ciphertext) == Data("sealed".utf8))
    await loaded.deauthorize()
    #expect(try await loaded.key.publicKey.exportDER().count == 91)
    #expect(try await loaded.key.publicKey.exportBytes() == saved.key.publicKey.exportBytes())
    withExtendedLifetime(daemon) {}
  }

  @Test func aBiometryCurrentSetRightFollowsTheDaemonAfterAnEnrollmentChange() async throws {
    let (daemon, connection) = try await start()
    let saved = try await save("current-set", .biometryCurrentSet, on: connection)
    #expect(saved.state == .authorized)
    _ = try await saved.key.sign(Data("before".utf8))

    let admin = daemon.connection()
    defer { admin.disconnect() }
    try await LocalAuthDaemon(connection: admin).enroll(sensor: "face", identity: "eve")
    // The daemon notices on the next use: it sends right.stateChanged(notAuthorized), then the error.
    let error = await #expect(throws: LAError.self) { try await saved.key.sign(Data("after".utf8)) }
    #expect(error?.code == .invalidContext)
    #expect(error?.reason == "biometrySetChanged")
    #expect(saved.state == .notAuthorized, "set by the notification, without refreshState()")
    let again = await #expect(throws: LAError.self) {
      try await saved.authorize(localizedReason: "again")
    }
    #expect(again?.code == .invalidContext)
    #expect(saved.state == .notAuthorized)
  }

  @Test func everyKeyExchangeFormAgreesOnBothSides() async throws {
    let (daemon, connection) = try await start()
    let alice = try await save("alice", on: connection)
    let bob = try await save("bob", on: connection)
    let (alicePublic, bobPublic) = (
      try await alice.key.publicKey.exportBytes(), try await bob.key.publicKey.exportBytes()
    )
    let bobDER = try await bob.key.publicKey.exportDER()

    let raw = try await alice.key.exchangeKeys(publicKey: bobPublic)
    #expect(raw.count == 32)
    #expect(
      try await bob.key.exchangeKeys(publicKey: alicePublic, algorithm: .ecdhKeyExchangeCofactor)
        == raw)
    #expect(
      try await alice.key.exchangeKeys(publicKey: bobDER, algorithm: .ecdhKeyExchangeStandard)
        == raw)

    let info = Data("localauthd session".utf8)
    let derived = try await alice.key.exchangeKeys(
      publicKey: bobPublic, algorithm: .ecdhKeyExchangeStandardX963SHA256, requestedSize: 48,
      sharedInfo: info)
    #expect(derived.count == 48)
    #expect(derived.prefix(32) != raw)
    #expect(
      try await bob.key.exchangeKeys(
        publicKey: alicePublic, algorithm: .ecdhKeyExchangeCofactorX963SHA256, requestedSize: 48,
        sharedInfo: info)
        == derived)
    let otherInfo = try await alice.key.exchangeKeys(
      publicKey: bobPublic, algorithm: .ecdhKeyExchangeStandardX963SHA256, requestedSize: 48)
    #expect(otherInfo != derived)
    let missing = await #expect(throws: RPCError.self) {
      try await alice.key.exchangeKeys(
        publicKey: bobPublic, algorithm: .ecdhKeyExchangeStandardX963SHA256)
    }
    #expect(missing?.code == .invalidParams)
    for algorithm in [
      LAKeyAlgorithm.ecdhKeyExchangeStandard, .ecdhKeyExchangeCofactor,
      .ecdhKeyExchangeStandardX963SHA256,
    ] {
      #expect(alice.key.canExchangeKeys(using: algorithm))
    }
    #expect(!alice.key.canExchangeKeys(using: .ecdsaSignatureMessageX962SHA256))
    withExtendedLifetime(daemon) {}
  }

  @Test func theCofactorECIESNameDecrypts() async throws {
    let (daemon, connection) = try await start()
    let saved = try await save("ecies", on: connection)
    let cofactor = LAKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
    #expect(saved.key.canDecrypt(using: cofactor))
    #expect(saved.key.canDecrypt(using: .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
    #expect(!saved.key.canDecrypt(using: .ecdhKeyExchangeStandard))
    let ciphertext = try await saved.key.publicKey.encrypt(
      Data("cofactor".utf8), algorithm: cofactor)
    #expect(try await saved.key.decrypt(ciphertext, algorithm: cofactor) == Data("cofactor".utf8))
    #expect(try await saved.key.decrypt(ciphertext) == Data("cofactor".utf8))
    withExtendedLifetime(daemon) {}
  }

  @Test func deinitialisedRightsAreReleasedSoTheCapIsNeverReached() async throws {
    let (daemon, connection) = try await start()
    // The daemon holds at most 1024 rights per connection; each right below is released on deinit.
    for _ in 0..<1100 {
      let right = LARight(connection: connection)
      try await right.checkCanAuthorize()
    }
    let kept = LARight(connection: connection)
    try await kept.authorize(localizedReason: "still room")
    #expect(kept.state == .authorized)
    withExtendedLifetime(daemon) {}
  }

  @Test func rightsComeBackAfterTheDaemonRestarts() async throws {
    let (daemon, connection) = try await start()
    let right = LARight(connection: connection)
    try await right.authorize(localizedReason: "before")
    let saved = try await save("restart", on: connection)
    daemon.stop()
    #expect(
      await eventually {
        right.state == .notAuthorized && saved.state == .notAuthorized
      }, "the rights to lose their authorization")
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    #expect(try await right.refreshState() == .unknown)
    try await right.authorize(localizedReason: "after")
    #expect(right.state == .authorized)
    try await saved.authorize(localizedReason: "after")
    let message = Data("signed after a restart".utf8)
    try await saved.key.publicKey.verify(message, signature: try await saved.key.sign(message))
  }
}
