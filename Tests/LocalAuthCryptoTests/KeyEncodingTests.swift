import Foundation
import LocalAuthCrypto
import Testing

@Suite("P-256 key encodings and validation")
struct KeyEncodingTests {
  @Test("SPKI is the constant prefix plus the point, and matches openssl's DER export")
  func spkiEncoding() throws {
    let key = try P256PrivateKey.generate()
    let der = key.publicKey.der
    #expect(der.count == 91)
    #expect(hex(Array(der.prefix(26))) == "3059301306072a8648ce3d020106082a8648ce3d030107034200")
    #expect(Array(der.suffix(65)) == key.publicKey.x963)
    #expect(try P256PublicKey(der: der) == key.publicKey)

    let openssl = try OpenSSLCommand()
    defer { openssl.remove() }
    let input = try openssl.write(der, to: "in.der")
    let result = try openssl.run([
      "pkey", "-pubin", "-inform", "DER", "-in", input, "-outform", "DER", "-out", "out.der",
    ])
    #expect(result.status == 0, "\(result.output)")
    let exported = try Data(contentsOf: openssl.directory.appendingPathComponent("out.der"))
    #expect([UInt8](exported) == der)
  }

  @Test("Raw scalar and point round-trip; a mismatched point is rejected")
  func rawImport() throws {
    let key = try P256PrivateKey.generate()
    let scalar = try key.rawScalar
    #expect(scalar.count == 32)
    let imported = try P256PrivateKey(rawScalar: scalar, publicX963: key.publicKey.x963)
    #expect(imported.publicKey == key.publicKey)
    #expect(key.publicKey.isValidSignature(try imported.signature(for: [7]), for: [7]))
    let other = try P256PrivateKey.generate().publicKey.x963
    #expect(throws: CryptoError.self) { try P256PrivateKey(rawScalar: scalar, publicX963: other) }
    #expect(throws: CryptoError.self) {
      try P256PrivateKey(rawScalar: Array(scalar.prefix(31)), publicX963: other)
    }
  }

  @Test("Invalid points are rejected")
  func invalidPoints() throws {
    var point = try P256PrivateKey.generate().publicKey.x963
    #expect(throws: CryptoError.self) { try P256PublicKey(x963: Array(point.prefix(64))) }
    #expect(throws: CryptoError.self) {
      try P256PublicKey(x963: [0x04] + [UInt8](repeating: 0, count: 64))
    }
    point[64] ^= 0x01
    #expect(throws: CryptoError.self) { try P256PublicKey(x963: point) }
    point[64] ^= 0x01
    point[0] = 0x02
    #expect(throws: CryptoError.self) { try P256PublicKey(x963: point) }
    #expect(throws: CryptoError.self) { try P256PublicKey(der: [0x30, 0x03, 0x02, 0x01, 0x00]) }
    #expect(throws: CryptoError.self) { try P256PrivateKey(sec1DER: [1, 2, 3]) }
  }

  @Test("Errors explain themselves and carry OpenSSL's reason")
  func errorMessages() {
    do {
      _ = try P256PublicKey(x963: [0x04] + [UInt8](repeating: 0x11, count: 64))
      Issue.record("an off-curve point was accepted")
    } catch {
      #expect("\(error)".contains("invalid key"))
    }
  }
}
