import LocalAuthCrypto
import Testing

@Suite("ECDSA signatures")
struct SignatureTests {
  @Test("Signatures verify with our verifier and not for another message or key")
  func signAndVerify() throws {
    let key = try P256PrivateKey.generate()
    let message = Array("transfer 10 EUR".utf8)
    let signature = try key.signature(for: message)
    // DER: SEQUENCE { INTEGER r, INTEGER s }, 72 bytes at most; r or s one byte shorter than usual
    // (about 1 in 128 each) makes it 69 or less, so only the bound and the shape are fixed.
    #expect(
      signature.count <= 72 && signature.first == 0x30 && Int(signature[1]) == signature.count - 2)
    #expect(key.publicKey.isValidSignature(signature, for: message))
    #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
    #expect(!(try P256PrivateKey.generate().publicKey.isValidSignature(signature, for: message)))
    #expect(!key.publicKey.isValidSignature([0x30, 0x00], for: message))
    #expect(key.publicKey.isValidSignature(try key.signature(for: []), for: []))
  }

  @Test("Signatures verify with the openssl command-line tool")
  func opensslVerifies() throws {
    let openssl = try OpenSSLCommand()
    defer { openssl.remove() }
    let key = try P256PrivateKey.generate()
    let message = SecureRandom.bytes(333)
    let publicDER = try openssl.write(key.publicKey.der, to: "pub.der")
    let conversion = try openssl.run([
      "pkey", "-pubin", "-inform", "DER", "-in", publicDER, "-out", "pub.pem",
    ])
    #expect(conversion.status == 0, "\(conversion.output)")
    _ = try openssl.write(try key.signature(for: message), to: "sig.der")
    _ = try openssl.write(message, to: "msg.bin")
    let verify = try openssl.run([
      "dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "msg.bin",
    ])
    #expect(verify.status == 0)
    #expect(verify.output.contains("Verified OK"))

    _ = try openssl.write(message + [1], to: "other.bin")
    let mismatch = try openssl.run([
      "dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "other.bin",
    ])
    #expect(mismatch.status != 0)
  }
}
