import Foundation
import LocalAuthCrypto
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Testing

@Suite("Persisted rights")
struct RightStoreTests {
  @Test("Save, read and remove a right")
  func saveReadRemove() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let saved = try store.saveRight(
      owner: alice, identifier: "payments", requirement: "biometryCurrentSet",
      domainStateHash: "abc123",
      secret: Array("hunter2".utf8))
    let loaded = try #require(try store.right(owner: alice, identifier: "payments"))
    #expect(loaded == saved)
    #expect(loaded.requirement == "biometryCurrentSet")
    #expect(loaded.domainStateHash == "abc123")
    #expect(loaded.publicKey.x963.count == 65)
    #expect(abs(loaded.createdAt.timeIntervalSinceNow) < 60)
    #expect(try store.secret(for: loaded) == Array("hunter2".utf8))
    #expect(try store.privateKey(for: loaded).publicKey == loaded.publicKey)

    #expect(try store.removeRight(owner: alice, identifier: "payments"))
    #expect(!(try store.removeRight(owner: alice, identifier: "payments")))
    #expect(try store.right(owner: alice, identifier: "payments") == nil)
    #expect(throws: RightStoreError.notFound) { try store.privateKey(for: loaded) }
  }

  @Test("Saving an existing identifier throws alreadyExists; a right without a secret has none")
  func duplicateIdentifier() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let first = try store.saveRight(
      owner: alice, identifier: "id", requirement: "default", domainStateHash: nil, secret: nil)
    #expect(throws: RightStoreError.alreadyExists) {
      try store.saveRight(
        owner: alice, identifier: "id", requirement: "default", domainStateHash: nil, secret: nil)
    }
    #expect(try store.secret(for: first) == nil)
    _ = try store.saveRight(
      owner: mallory, identifier: "id", requirement: "default", domainStateHash: nil, secret: nil)
    _ = try store.saveRight(
      owner: alice, identifier: "other", requirement: "default", domainStateHash: nil, secret: nil)
    #expect(try store.removeAllRights(owner: alice) == 2)
    #expect(try store.right(owner: mallory, identifier: "id") != nil)
  }

  @Test("Another uid or app sees nothing, exactly as for a missing right")
  func foreignOwnerSeesNothing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let saved = try store.saveRight(
      owner: alice, identifier: "k", requirement: "default", domainStateHash: nil, secret: [1])
    #expect(try store.right(owner: mallory, identifier: "k") == nil)
    #expect(
      try store.right(owner: Owner(uid: 1000, appID: "com.example.other"), identifier: "k") == nil)
    #expect(!(try store.removeRight(owner: mallory, identifier: "k")))
    #expect(try store.removeAllRights(owner: mallory) == 0)
    var forged = saved
    forged.owner = mallory
    #expect(throws: RightStoreError.notFound) { try store.privateKey(for: forged) }
    #expect(throws: RightStoreError.notFound) { try store.secret(for: forged) }
  }

  @Test("A reopened store loads the secret and signs with the unsealed key")
  func survivesReopen() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let saved = try directory.openStore().saveRight(
      owner: alice, identifier: "login", requirement: "default", domainStateHash: nil,
      secret: [9, 8, 7])
    let reopened = try directory.openStore()
    let record = try #require(try reopened.right(owner: alice, identifier: "login"))
    #expect(record.publicKey == saved.publicKey)
    #expect(try reopened.secret(for: record) == [9, 8, 7])
    let message = Array("challenge".utf8)
    let signature = try reopened.privateKey(for: record).signature(for: message)
    #expect(record.publicKey.isValidSignature(signature, for: message))
    let ciphertext = try ECIES.encrypt([42], to: record.publicKey)
    #expect(try reopened.privateKey(for: record).decrypt(ciphertext) == [42])
  }

  @Test("Sealed columns swapped between rows no longer open")
  func swappedSealedColumnsFail() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    let first = try store.saveRight(
      owner: alice, identifier: "a", requirement: "default", domainStateHash: nil, secret: [1])
    let second = try store.saveRight(
      owner: alice, identifier: "b", requirement: "default", domainStateHash: nil, secret: [2])
    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    try raw.query(
      "CREATE TEMP TABLE original AS SELECT identifier, sealed_private_key, sealed_secret FROM rights"
    )
    try raw.query(
      """
      UPDATE rights SET
        sealed_private_key = (SELECT sealed_private_key FROM original WHERE original.identifier <> rights.identifier),
        sealed_secret = (SELECT sealed_secret FROM original WHERE original.identifier <> rights.identifier)
      WHERE identifier IN ('a', 'b')
      """)
    for record in [first, second] {
      #expect(throws: RightStoreError.self) { try store.privateKey(for: record) }
      #expect(throws: RightStoreError.self) { try store.secret(for: record) }
    }
    do {
      _ = try store.privateKey(for: first)
    } catch let error as RightStoreError {
      guard case .corrupt = error else {
        Issue.record("expected .corrupt, got \(error)")
        return
      }
    }
  }

  @Test("A store opened with another device key cannot unseal")
  func otherDeviceKeyFails() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let saved = try directory.openStore().saveRight(
      owner: alice, identifier: "x", requirement: "default", domainStateHash: nil, secret: [1])
    // Another valid key in place of the original (a deleted key is refused: StateDirectoryTests).
    let keyPath = directory.path + "/device.key"
    try FileManager.default.removeItem(atPath: keyPath)
    let other = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
    #expect(
      FileManager.default.createFile(
        atPath: keyPath, contents: other, attributes: [.posixPermissions: 0o600]))
    let rekeyed = try directory.openStore()
    #expect(throws: RightStoreError.self) { try rekeyed.privateKey(for: saved) }
    #expect(throws: RightStoreError.self) { try rekeyed.secret(for: saved) }
  }

  @Test("The database files are private to the daemon's user even in a world-readable directory")
  func databaseFilesArePrivate() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
    let store = try directory.openStore()
    _ = try store.saveRight(
      owner: alice, identifier: "p", requirement: "default", domainStateHash: nil, secret: nil)
    for name in ["rights.sqlite3", "rights.sqlite3-wal", "rights.sqlite3-shm", "device.key"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/" + name)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
    }
  }

  @Test("Concurrent saves from many threads all land")
  func concurrentSaves() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = try directory.openStore()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        group.addTask {
          _ = try store.saveRight(
            owner: alice, identifier: "r\(index)", requirement: "default", domainStateHash: nil,
            secret: [UInt8(index)])
        }
      }
      try await group.waitForAll()
    }
    for index in 0..<40 {
      let record = try #require(try store.right(owner: alice, identifier: "r\(index)"))
      #expect(try store.secret(for: record) == [UInt8(index)])
    }
  }
}
