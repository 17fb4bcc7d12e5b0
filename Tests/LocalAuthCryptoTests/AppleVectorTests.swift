import Foundation
import LocalAuthCrypto
import Testing

/// Ciphertexts made by Apple's Security framework (jedda/ECIES test data, copied from
/// shared/vectors/apple-ecies-p256.json): the plaintext is the vector's name.
enum AppleVector {
  static let name = "P256-SHA256-VIV"
  static let sec1Key =
    "MHcCAQEEIHGhxnpu3kG/nW5ozDZJ+TTFQvL6MynCcQWD6jHV4p0UoAoGCCqGSM49AwEHoUQDQgAEzgFYw3Rqc72IIYHV7JH6M245n/nLnxyre1A7sc5nOt31ZyfJQLXGs4dY0cggne28ueXHID5lKz1JNChY49NHYg=="
  static let ciphertext =
    "BI6sBCGyf916GQSV3DHOvmFxOmzbV9pq08wcOdKaepP2/Qtepj9M71dYkzXf6OqIstDyyVIxfnAMfUpxZzoCHDbalYRzzwhqHwg7K6RNl1F29PVdLNtJH498yJSfloW/"

  static func key() throws -> P256PrivateKey {
    try P256PrivateKey(sec1DER: [UInt8](Data(base64Encoded: sec1Key)!))
  }

  static func ciphertextBytes() -> [UInt8] { [UInt8](Data(base64Encoded: ciphertext)!) }
}

@Suite("Apple ECIES interoperability")
struct AppleVectorTests {
  @Test("Apple's P256-SHA256-VIV ciphertext decrypts to its name")
  func appleCiphertextDecrypts() throws {
    let plaintext = try AppleVector.key().decrypt(AppleVector.ciphertextBytes())
    #expect(String(decoding: plaintext, as: UTF8.self) == AppleVector.name)
  }

  @Test("Flipping any one byte of Apple's ciphertext makes decryption fail")
  func tamperedAppleCiphertextFails() throws {
    let key = try AppleVector.key()
    let original = AppleVector.ciphertextBytes()
    for index in [0, 1, 40, 64, 65, 70, original.count - 17, original.count - 1] {
      var tampered = original
      tampered[index] ^= 0x01
      #expect(throws: (any Error).self) { try key.decrypt(tampered) }
    }
    #expect(throws: (any Error).self) { try key.decrypt(Array(original.dropLast())) }
    #expect(throws: (any Error).self) { try key.decrypt(Array(original.prefix(80))) }
  }

  @Test("A key re-imported from its raw scalar and point still decrypts Apple's ciphertext")
  func rawScalarImportDecrypts() throws {
    let key = try AppleVector.key()
    let reimported = try P256PrivateKey(rawScalar: key.rawScalar, publicX963: key.publicKey.x963)
    let plaintext = try reimported.decrypt(AppleVector.ciphertextBytes())
    #expect(String(decoding: plaintext, as: UTF8.self) == AppleVector.name)
  }
}
