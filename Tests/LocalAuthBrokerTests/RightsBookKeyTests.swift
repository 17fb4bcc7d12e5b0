import LocalAuthCrypto
import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// A persisted right's key uses, with values: the params checked at their limits before any key is
/// unsealed, then each use performed with a real key.
@Suite struct RightsBookKeyTests {
  typealias KeyUse = RightsBook.KeyUse

  @Test func dataUpToTheLimitAndOnlySupportedAlgorithms() throws {
    let largest = [UInt8](repeating: 1, count: KeyUse.maxDataBytes)
    #expect(throws: Never.self) {
      try KeyUse(signing: KeyDataParams(right: "r", data: largest, algorithm: nil))
    }
    let large = #expect(throws: RPCError.self) {
      try KeyUse(signing: KeyDataParams(right: "r", data: largest + [1], algorithm: nil))
    }
    #expect(large?.data["field"] == "data")
    let other = #expect(throws: RPCError.self) {
      try KeyUse(
        decrypting: KeyDataParams(
          right: "r", data: [1], algorithm: KeyAlgorithm.ecdsaSignatureMessageX962SHA256))
    }
    #expect(other?.data["field"] == "algorithm")
    #expect(other?.data["supported"] == .array(KeyAlgorithm.decryption.map(JSONValue.string)))
  }

  @Test func aSignatureVerifiesAndForeignCiphertextIsRefused() throws {
    let key = try P256PrivateKey.generate()
    let message: [UInt8] = Array("pay Bob".utf8)
    let sign = try KeyUse(signing: KeyDataParams(right: "r", data: message, algorithm: nil))
    #expect(key.publicKey.isValidSignature(try sign.perform(with: key), for: message))
    let decrypt = try KeyUse(
      decrypting: KeyDataParams(right: "r", data: [1, 2, 3], algorithm: nil))
    let refused = #expect(throws: RPCError.self) { try decrypt.perform(with: key) }
    #expect(refused?.code == .invalidParams && refused?.data["reason"] == "decryptionFailed")
  }

  @Test func bothSidesOfAnExchangeAgree() throws {
    let (mine, theirs) = (try P256PrivateKey.generate(), try P256PrivateKey.generate())
    func exchange(_ algorithm: String, size: Int?, peer: [UInt8]) throws(RPCError) -> KeyUse {
      try KeyUse(
        exchanging: KeyExchangeRequest.Params(
          right: "r", publicKey: peer, algorithm: algorithm, requestedSize: size, sharedInfo: [5]))
    }
    let plain = try exchange(KeyAlgorithm.ecdhStandard, size: nil, peer: theirs.publicKey.x963)
    #expect(try plain.perform(with: mine) == theirs.sharedSecret(with: mine.publicKey))
    let derived = try exchange(
      KeyAlgorithm.ecdhStandardX963SHA256, size: 32, peer: theirs.publicKey.der)
    let secret = try derived.perform(with: mine)
    #expect(secret.count == 32)
    #expect(
      secret == (try theirs.sharedSecret(with: mine.publicKey, requestedSize: 32, sharedInfo: [5])))

    let sizeless = #expect(throws: RPCError.self) {
      try exchange(KeyAlgorithm.ecdhCofactorX963SHA256, size: nil, peer: theirs.publicKey.x963)
    }
    #expect(sizeless?.data["field"] == "requestedSize")
    let notAKey = #expect(throws: RPCError.self) {
      try exchange(
        KeyAlgorithm.ecdhStandard, size: nil, peer: [4] + [UInt8](repeating: 0, count: 64))
    }
    #expect(notAKey?.data["field"] == "publicKey")
  }
}
