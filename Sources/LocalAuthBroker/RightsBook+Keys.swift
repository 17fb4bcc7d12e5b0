import LocalAuthCrypto
import LocalAuthProtocol

extension RightsBook {
  /// One use of a persisted right's private key (`key.sign`, `key.decrypt`, `key.exchangeKeys`),
  /// its params checked before the key is used, then split around the one step that needs the
  /// private key (`keyStep`, done by the store, in the TPM for a TPM-resident key) and what follows
  /// from its answer (`finish`). Pure: bytes come in as values, the bytes or the wire's error go
  /// out.
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

    /// The one thing the use asks of the right's private key, done where the key lives (by the
    /// store: in the TPM for a TPM-resident key, else with the unsealed key): a signature, or the
    /// raw ECDH shared secret with a peer. Ciphertext whose ephemeral key is not a P-256 point is
    /// refused here, before the key is used.
    enum KeyStep: Sendable {
      /// A DER ECDSA signature of SHA-256(data).
      case sign([UInt8])
      /// The raw ECDH shared secret (x-coordinate) with the point.
      case sharedSecret(with: P256PublicKey)
    }

    /// What the use asks of the key: `.sign` for a signature; for decryption, the ECDH with the
    /// ciphertext's ephemeral key (invalidParams, decryptionFailed, when it has none); for an
    /// exchange, the ECDH with the peer.
    func keyStep() throws(RPCError) -> KeyStep {
      switch self {
      case .sign(let data): return .sign(data)
      case .decrypt(let data):
        do { return .sharedSecret(with: try ECIES.ephemeralKey(of: data)) } catch {
          throw Self.undecryptable(error)
        }
      case .exchange(let peer, _): return .sharedSecret(with: peer)
      }
    }

    /// The use's answer from the key step's bytes: the signature as is; the plaintext of the
    /// ciphertext under the shared secret (invalidParams when it does not open: another key's
    /// ciphertext); the shared secret, derived with X9.63 SHA-256 when asked (internalError when
    /// that fails).
    func finish(keyAnswer: [UInt8]) throws(RPCError) -> [UInt8] {
      switch self {
      case .sign: return keyAnswer
      case .decrypt(let data):
        do { return try ECIES.open(data, sharedSecret: keyAnswer) } catch {
          throw Self.undecryptable(error)
        }
      case .exchange(_, let derivation):
        guard let derivation else { return keyAnswer }
        do {
          return try X963KDF.deriveSHA256(
            secret: keyAnswer, sharedInfo: derivation.sharedInfo, count: derivation.size)
        } catch {
          throw RPCError(.internalError, "Key exchange failed: \(error)")
        }
      }
    }

    /// Performs the whole use with an unsealed key in process (the key step by OpenSSL, then
    /// `finish`): a failing signature or exchange is internalError.
    func perform(with key: P256PrivateKey) throws(RPCError) -> [UInt8] {
      let answer: [UInt8]
      switch try keyStep() {
      case .sign(let data):
        do { answer = try key.signature(for: data) } catch {
          throw RPCError(.internalError, "Signing failed: \(error)")
        }
      case .sharedSecret(let peer):
        do { answer = try key.sharedSecret(with: peer) } catch {
          throw RPCError(.internalError, "Key exchange failed: \(error)")
        }
      }
      return try finish(keyAnswer: answer)
    }

    /// The answer to ciphertext this key cannot open.
    private static func undecryptable(_ error: any Error) -> RPCError {
      RPCError(
        .invalidParams,
        "Invalid params: 'data' cannot be decrypted with this right's key (\(error)).",
        data: ["field": "data", "reason": "decryptionFailed"])
    }
  }
}
