import LocalAuthCrypto
import LocalAuthProtocol

extension RightsBook {
  /// One use of a persisted right's private key (`key.sign`, `key.decrypt`, `key.exchangeKeys`),
  /// its params checked before the key is unsealed, then performed with the unsealed key. Pure:
  /// the key comes in as a value, the bytes or the wire's error go out.
  enum KeyUse {
    /// The largest `data` a key call accepts, in bytes.
    static let maxDataBytes = 48 * 1024

    /// A signature of the data (ecdsaSignatureMessageX962SHA256, DER).
    case sign([UInt8])
    /// The plaintext of ECIES ciphertext (eciesEncryptionStandardVariableIVX963SHA256AESGCM).
    case decrypt([UInt8])
    /// The ECDH shared secret with `peer`, derived with X9.63 SHA-256 when `derivation` is given.
    case exchange(peer: P256PublicKey, derivation: (size: Int, sharedInfo: [UInt8])?)

    /// `key.sign {data, algorithm?}`.
    init(signing params: KeyDataParams) throws(RPCError) {
      let data = try params.data(maxBytes: Self.maxDataBytes)
      _ = try Self.algorithm(
        params, supported: KeyAlgorithm.signing,
        default: KeyAlgorithm.ecdsaSignatureMessageX962SHA256)
      self = .sign(data)
    }

    /// `key.decrypt {data, algorithm?}`.
    init(decrypting params: KeyDataParams) throws(RPCError) {
      let data = try params.data(maxBytes: Self.maxDataBytes)
      _ = try Self.algorithm(
        params, supported: KeyAlgorithm.decryption, default: KeyAlgorithm.eciesStandard)
      self = .decrypt(data)
    }

    /// `key.exchangeKeys {publicKey, algorithm?, requestedSize?, sharedInfo?}`: the X9.63
    /// variants need `requestedSize`.
    init(exchanging params: KeyExchangeRequest.Params) throws(RPCError) {
      let algorithm = try Self.algorithm(
        params, supported: KeyAlgorithm.keyExchange, default: KeyAlgorithm.ecdhStandard)
      let peerBytes = try params.publicKey(maxBytes: 1024)
      let peer: P256PublicKey
      do {
        peer =
          peerBytes.count == 65
          ? try P256PublicKey(x963: peerBytes) : try P256PublicKey(der: peerBytes)
      } catch {
        throw .invalidParams(
          "publicKey", "must be a P-256 public key, X9.63 (65 bytes) or DER SubjectPublicKeyInfo")
      }
      let derived =
        algorithm == KeyAlgorithm.ecdhStandardX963SHA256
        || algorithm == KeyAlgorithm.ecdhCofactorX963SHA256
      let requestedSize = try params.requestedSize()
      let sharedInfo = try params.sharedInfo(maxBytes: 4096) ?? []
      guard derived else {
        self = .exchange(peer: peer, derivation: nil)
        return
      }
      guard let requestedSize else {
        throw .invalidParams("requestedSize", "is required (in bytes, 1…4096) with \(algorithm)")
      }
      self = .exchange(peer: peer, derivation: (requestedSize, sharedInfo))
    }

    /// The `algorithm` param: one of `supported`, or `fallback` when absent.
    private static func algorithm(
      _ params: some KeyParams, supported: [String], default fallback: String
    ) throws(RPCError) -> String {
      let algorithm = try params.algorithm() ?? fallback
      guard supported.contains(algorithm) else {
        throw RPCError(
          .invalidParams,
          "Invalid params: 'algorithm' \(algorithm) is not supported; use \(supported.joined(separator: " or ")).",
          data: ["field": "algorithm", "supported": .array(supported.map(JSONValue.string))])
      }
      return algorithm
    }

    /// Performs the use with the unsealed key: ciphertext this key cannot open is invalidParams;
    /// a failing signature or exchange is internalError.
    func perform(with key: P256PrivateKey) throws(RPCError) -> [UInt8] {
      switch self {
      case .sign(let data):
        do { return try key.signature(for: data) } catch {
          throw RPCError(.internalError, "Signing failed: \(error)")
        }
      case .decrypt(let data):
        do { return try key.decrypt(data) } catch {
          throw RPCError(
            .invalidParams,
            "Invalid params: 'data' cannot be decrypted with this right's key (\(error)).",
            data: ["field": "data", "reason": "decryptionFailed"])
        }
      case .exchange(let peer, let derivation):
        do {
          guard let derivation else { return try key.sharedSecret(with: peer) }
          return try key.sharedSecret(
            with: peer, requestedSize: derivation.size, sharedInfo: derivation.sharedInfo)
        } catch {
          throw RPCError(.internalError, "Key exchange failed: \(error)")
        }
      }
    }
  }
}
