import LocalAuthCrypto
import Testing

@Suite("Sealing at rest")
struct SealerTests {
  @Test("Seal then open returns the plaintext; the blob is version, nonce, ciphertext, tag")
  func roundTrip() throws {
    let sealer = try AESGCMSealer(key: SecureRandom.bytes(32))
    let plaintext = SecureRandom.bytes(32)
    let blob = try sealer.seal(plaintext, authenticating: Array("row-1".utf8))
    #expect(blob.count == 61)
    #expect(blob[0] == 0x01)
    #expect(try sealer.open(blob, authenticating: Array("row-1".utf8)) == plaintext)
    #expect(try sealer.open(sealer.seal([], authenticating: []), authenticating: []) == [])
  }

  @Test("A different AAD, key or a flipped bit fails to open")
  func tamperingFails() throws {
    let sealer = try AESGCMSealer(key: SecureRandom.bytes(32))
    let blob = try sealer.seal([1, 2, 3], authenticating: [9])
    #expect(throws: CryptoError.authenticationFailed) { try sealer.open(blob, authenticating: [8]) }
    #expect(throws: CryptoError.authenticationFailed) {
      try AESGCMSealer(key: SecureRandom.bytes(32)).open(blob, authenticating: [9])
    }
    var flipped = blob
    flipped[14] ^= 1
    #expect(throws: CryptoError.authenticationFailed) {
      try sealer.open(flipped, authenticating: [9])
    }
    #expect(throws: CryptoError.self) { try AESGCMSealer(key: [1]) }
  }

  @Test("Nonces are fresh and SHA-256 matches a known answer")
  func freshness() throws {
    let sealer = try AESGCMSealer(key: SecureRandom.bytes(32))
    #expect(try sealer.seal([1], authenticating: []) != sealer.seal([1], authenticating: []))
    #expect(
      hex(SHA256.hash(Array("abc".utf8)))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
