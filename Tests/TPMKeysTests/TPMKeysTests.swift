import LocalAuthCrypto
import LocalAuthTestSupport
import TPMKeys
import Testing

/// The ESAPI wrapper against a real software TPM (swtpm): keys made inside, signatures and ECDH
/// by the TPM, sealing, wrong auth values, another TPM, and nothing left loaded afterwards.
@Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "needs swtpm (make test-deps)"))
struct TPMKeysTests {
  let auth = Array("an auth value only the daemon has".utf8.prefix(32))

  @Test func aSigningKeyMadeInTheTPMSignsAndOpenSSLVerifies() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let key = try tpm.create(.signingKey, auth: auth)
    #expect(key.publicPoint.count == 65)
    #expect(TPM.publicPoint(of: key.blobs) == key.publicPoint)
    let message = Array("a message the TPM signs".utf8)
    let (r, s) = try tpm.sign(digest: SHA256.hash(message), with: key.blobs, auth: auth)
    let publicKey = try P256PublicKey(x963: key.publicPoint)
    #expect(publicKey.isValidSignature(ECDSASignature.der(r: r, s: s), for: message))
    #expect(!publicKey.isValidSignature(ECDSASignature.der(r: r, s: s), for: message + [0]))
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func anExchangeKeyGivesTheSameSecretAsTheOtherSide() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let key = try tpm.create(.signingAndExchangeKey, auth: auth)
    let peer = try P256PrivateKey.generate()
    let secret = try tpm.sharedSecret(with: peer.publicKey.x963, using: key.blobs, auth: auth)
    #expect(secret == (try peer.sharedSecret(with: P256PublicKey(x963: key.publicPoint))))
    let (r, s) = try tpm.sign(digest: SHA256.hash([1, 2, 3]), with: key.blobs, auth: auth)
    #expect(
      try P256PublicKey(x963: key.publicPoint).isValidSignature(
        ECDSASignature.der(r: r, s: s), for: [1, 2, 3]))
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func sealedBytesUnsealOnlyHere() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let secret = SecureRandom.bytes(32)
    let sealed = try tpm.create(.sealedData(secret), auth: [])
    #expect(try tpm.unseal(sealed.blobs) == secret)
    let other = try SoftwareTPM()
    let otherTPM = try TPM(tcti: other.tcti)
    #expect(throws: TPMError.self) { try otherTPM.unseal(sealed.blobs) }
    do {
      _ = try otherTPM.unseal(sealed.blobs)
    } catch {
      #expect(error.kind == .otherTPM, "\(error)")
    }
    #expect(try software.transientHandles().isEmpty)
    #expect(try other.transientHandles().isEmpty)
  }

  @Test func aWrongAuthValueIsRefusedAndNothingStaysLoaded() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let key = try tpm.create(.signingKey, auth: auth)
    for wrong in [[], Array(auth.dropLast()), auth.map { $0 ^ 1 }] {
      do {
        _ = try tpm.sign(digest: [UInt8](repeating: 7, count: 32), with: key.blobs, auth: wrong)
        Issue.record("signed with a wrong auth value")
      } catch {
        #expect(error.kind == .authFailed, "\(error)")
      }
    }
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func manyKeysAndManySignaturesInARowLeaveNoTransientObject() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let keys = try (0..<10).map { _ in try tpm.create(.signingKey, auth: auth) }
    for round in 0..<100 {
      let key = keys[round % keys.count]
      let digest = SHA256.hash([UInt8(round & 0xff)])
      let (r, s) = try tpm.sign(digest: digest, with: key.blobs, auth: auth)
      #expect(
        try P256PublicKey(x963: key.publicPoint).isValidSignature(
          ECDSASignature.der(r: r, s: s), for: [UInt8(round & 0xff)]))
    }
    #expect(try software.transientHandles().isEmpty)
  }

  @Test func aTPMThatGoesAwayIsUnreachableAndNoNewConnectionOpens() throws {
    let software = try SoftwareTPM()
    let tpm = try TPM(tcti: software.tcti)
    let key = try tpm.create(.signingKey, auth: auth)
    software.stop()
    do {
      _ = try tpm.sign(digest: [UInt8](repeating: 1, count: 32), with: key.blobs, auth: auth)
      Issue.record("signed with the TPM gone")
    } catch {
      #expect(error.kind == .unreachable, "\(error)")
    }
    #expect(throws: TPMError.self) { try TPM(tcti: software.tcti) }
  }

  @Test func noTPMAtTheTCTIIsUnreachable() {
    do {
      _ = try TPM(tcti: "swtpm:host=127.0.0.1,port=9")
      Issue.record("a TPM answered on port 9")
    } catch {
      #expect(error.kind == .unreachable, "\(error)")
      #expect("\(error)".contains("port=9"))
    }
  }
}
