import LocalAuthCrypto
import Testing

@Suite("ECDH and the X9.63 KDF")
struct KeyExchangeTests {
  @Test("Both sides of ECDH compute the same secret, raw and through the KDF")
  func bothSidesAgree() throws {
    let alice = try P256PrivateKey.generate()
    let bob = try P256PrivateKey.generate()
    let secret = try alice.sharedSecret(with: bob.publicKey)
    #expect(secret.count == 32)
    #expect(secret == (try bob.sharedSecret(with: alice.publicKey)))
    let info = Array("localauthd".utf8)
    let derived = try alice.sharedSecret(with: bob.publicKey, requestedSize: 48, sharedInfo: info)
    #expect(derived.count == 48)
    #expect(
      derived == (try bob.sharedSecret(with: alice.publicKey, requestedSize: 48, sharedInfo: info)))
    #expect(
      derived != (try bob.sharedSecret(with: alice.publicKey, requestedSize: 48, sharedInfo: [])))
  }

  @Test("The X9.63 KDF matches a hand computation over SHA-256")
  func kdfMatchesDefinition() throws {
    let secret = SecureRandom.bytes(32)
    let info = SecureRandom.bytes(65)
    let expected =
      SHA256.hash(secret + [0, 0, 0, 1] + info) + SHA256.hash(secret + [0, 0, 0, 2] + info)
    #expect(
      try X963KDF.deriveSHA256(secret: secret, sharedInfo: info, count: 40)
        == Array(expected.prefix(40)))
  }

  @Test("The X9.63 KDF matches `openssl kdf … X963KDF`")
  func kdfMatchesOpenSSL() throws {
    let openssl = try OpenSSLCommand()
    defer { openssl.remove() }
    let secret = SecureRandom.bytes(32)
    let info = SecureRandom.bytes(65)
    let result = try openssl.run([
      "kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", "hexsecret:\(hex(secret))",
      "-kdfopt", "hexinfo:\(hex(info))", "X963KDF",
    ])
    #expect(result.status == 0, "\(result.output)")
    let cli = result.output.filter(\.isHexDigit).lowercased()
    #expect(cli == hex(try X963KDF.deriveSHA256(secret: secret, sharedInfo: info, count: 32)))
  }
}
