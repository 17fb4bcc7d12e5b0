import LocalAuthCrypto
import Testing

@Suite("ECIES round trips")
struct ECIESTests {
  @Test("Encrypt then decrypt returns the plaintext", arguments: [0, 1, 15, 16, 17, 1000])
  func roundTrip(length: Int) throws {
    let key = try P256PrivateKey.generate()
    let plaintext = SecureRandom.bytes(length)
    let ciphertext = try ECIES.encrypt(plaintext, to: key.publicKey)
    #expect(ciphertext.count == length + ECIES.overhead)
    #expect(ciphertext.first == 0x04)
    #expect(try key.decrypt(ciphertext) == plaintext)
  }

  @Test("Tampered ciphertext, tag or ephemeral point is rejected")
  func tamperingFails() throws {
    let key = try P256PrivateKey.generate()
    let ciphertext = try ECIES.encrypt(Array("attack at dawn".utf8), to: key.publicKey)
    for index in [10, 66, ciphertext.count - 1] {
      var tampered = ciphertext
      tampered[index] ^= 0x80
      #expect(throws: (any Error).self) { try key.decrypt(tampered) }
    }
  }

  @Test("Another key cannot decrypt")
  func wrongKeyFails() throws {
    let ciphertext = try ECIES.encrypt([1, 2, 3], to: P256PrivateKey.generate().publicKey)
    #expect(throws: CryptoError.authenticationFailed) {
      try P256PrivateKey.generate().decrypt(ciphertext)
    }
  }
}
