import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// LARight, LARightStore and LAPersistedRight against the real daemon (docs/protocol.md, "Rights
/// and keys"). A daemon without the rights methods answers methodNotFound, which is surfaced as is.
@Suite(.serialized)
struct RightsEndToEndTests {
  @Test func aRightIsAuthorizedSavedAndItsKeyAndSecretWork() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection()
    let right = LARight(requirement: .biometry(fallback: .devicePasscode), connection: connection)
    do {
      try await right.authorize(localizedReason: "unlock the vault")
    } catch let error as RPCError where error.code == .methodNotFound {
      return
    }
    #expect(try await right.refreshState() == .authorized)
    let store = LARightStore(connection: connection)
    let saved = try await store.saveRight(right, identifier: "vault", secret: Data("s3cret".utf8))
    #expect(saved.identifier == "vault")
    #expect(try await saved.secret.load() == Data("s3cret".utf8))

    let message = Data("pay 5".utf8)
    let signature = try await saved.key.sign(message)
    try await saved.key.publicKey.verify(message, signature: signature)
    let ciphertext = try await saved.key.publicKey.encrypt(Data("for the daemon only".utf8))
    #expect(try await saved.key.decrypt(ciphertext) == Data("for the daemon only".utf8))

    let loaded = try await store.right(forIdentifier: "vault")
    await #expect(throws: LAError.self) { try await loaded.secret.load() }
    try await store.removeRight(forIdentifier: "vault")
    let gone = await #expect(throws: LARightStoreError.self) {
      try await store.right(forIdentifier: "vault")
    }
    #expect(gone?.status == errSecItemNotFound && gone?.rpcError.code == .notFound)
  }

  /// Apple documents no codes for a missing or taken identifier; its rights live in the keychain,
  /// so an app's `catch` sees the keychain's documented codes in NSOSStatusErrorDomain.
  @Test func aMissingOrTakenIdentifierIsTheKeychainsItemNotFoundOrDuplicateItem() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let connection = daemon.connection()
    let store = LARightStore(connection: connection)
    do {
      _ = try await store.right(forIdentifier: "never-saved")
      Issue.record("a right never saved was found")
    } catch let error as NSError {
      #expect(error.domain == NSOSStatusErrorDomain)
      #expect(error.code == Int(errSecItemNotFound) && error.code == -25300)
      #expect(error.localizedDescription == "No persisted right with this identifier.")
    }
    await #expect(throws: LARightStoreError.self) {
      try await store.removeRight(forIdentifier: "never-saved")
    }
    _ = try await store.saveRight(LARight(connection: connection), identifier: "taken")
    do {
      _ = try await store.saveRight(LARight(connection: connection), identifier: "taken")
      Issue.record("a taken identifier was saved over")
    } catch let error as NSError {
      #expect(error.domain == NSOSStatusErrorDomain)
      #expect(error.code == Int(errSecDuplicateItem) && error.code == -25299)
      #expect(error.userInfo["name"] as? String == "alreadyExists")
    }
    // Any other daemon error stays an RPCError.
    let invalid = await #expect(throws: RPCError.self) {
      try await store.right(forIdentifier: "")
    }
    #expect(invalid?.code == .invalidParams)
  }

  @Test func cancellingAnAuthorizationEndsItWithAppCancel() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let connection = daemon.connection()
    let right = LARight(connection: connection)
    let task = Task { try await right.authorize(localizedReason: "cancelled") }
    do {
      #expect(
        try await eventually {
          try await LocalAuthDaemon(connection: connection).status().evaluating == 1
        }, "the authorization to run")
    }
    task.cancel()
    do {
      try await task.value
      Issue.record("the authorization succeeded")
    } catch let error as LAError {
      #expect(error.code == .appCancel)
      #expect(right.state == .notAuthorized)
    } catch let error as RPCError {
      #expect(error.code == .methodNotFound)
    }
  }
}
