import Foundation
import LocalAuthClient
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// SSHKeyStore against the real daemon: the Swift API of `localauthctl ssh-key`.
@Suite(.serialized)
struct SSHKeyStoreEndToEndTests {
  @Test func createListSignAndDelete() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let store = SSHKeyStore(connection: daemon.connection())
    let key = try await store.create(name: "swift", policy: .biometrics, reuseSeconds: 0)
    #expect(key.publicKeyLine.hasPrefix("ecdsa-sha2-nistp256 AAAA"))
    #expect(key.publicKeyLine.hasSuffix(" swift"))
    #expect(key.fingerprint.hasPrefix("SHA256:"))
    #expect(try await store.keys().map(\.name) == ["swift"])

    try await daemon.script("face", ["MATCH"])
    let message: [UInt8] = Array("commit".utf8)
    let signed = try await store.sign(message, with: "swift")
    #expect(signed.reason == "ssh: sign data with key swift")
    let publicKey = try P256PublicKey(x963: try #require(key.publicKeyX963))
    #expect(publicKey.isValidSignature(signed.signature, for: message))

    try await daemon.script("face", ["CANCEL"])
    let cancelled = await #expect(throws: LAError.self) {
      try await store.sign(message, with: "swift")
    }
    #expect(cancelled?.code == .userCancel)
    #expect(try await store.keys().first?.lastUsedAt != nil)

    try await store.delete(name: "swift")
    #expect(try await store.keys().isEmpty)
    await #expect(throws: RPCError.self) { try await store.delete(name: "swift") }
  }
}
