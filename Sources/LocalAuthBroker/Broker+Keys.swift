import LocalAuthCrypto
import LocalAuthProtocol
import RightStore

extension Broker {
  /// The largest `data` a key call accepts, in bytes.
  static let maxKeyDataBytes = 48 * 1024

  /// The store row of the client's persisted right named by `right`, authorized now; never
  /// prompts.
  private func authorizedPersistedRight(_ params: some RightParams, client: ClientSession)
    throws(RPCError) -> PersistedRightRecord
  {
    let right = try right(params, of: client)
    let record = try rights.persisted(right)
    revalidate(right, of: client)
    try rights.checkAuthorized(right) { currentSet(of: client) }
    return record
  }

  /// Unseals the right's private key; notFound when the right was removed (or replaced) since it was loaded.
  private func privateKey(of record: PersistedRightRecord) async throws(RPCError) -> P256PrivateKey
  {
    try await rights.lane.run(notFound: StoreFailure.removedRight) { store in
      try store.privateKey(for: record)
    }
  }

  /// The `algorithm` param: one of `supported`, or `fallback` when absent.
  private func algorithm(_ params: some KeyParams, supported: [String], default fallback: String)
    throws(RPCError) -> String
  {
    let algorithm = try params.algorithm() ?? fallback
    guard supported.contains(algorithm) else {
      throw RPCError(
        .invalidParams,
        "Invalid params: 'algorithm' \(algorithm) is not supported; use \(supported.joined(separator: " or ")).",
        data: ["field": "algorithm", "supported": .array(supported.map(JSONValue.string))])
    }
    return algorithm
  }

  // MARK: key.* and secret.*

  /// The public key needs no authorization (as Apple's LAPublicKey): only this client's handle.
  func publicKey(_ params: RightHandleParams, client: ClientSession) throws(RPCError) -> JSONValue {
    let record = try rights.persisted(right(params, of: client))
    return [
      "x963": .string(Base64.encode(record.publicKey.x963)),
      "der": .string(Base64.encode(record.publicKey.der)),
    ]
  }

  func sign(_ params: KeyDataParams, client: ClientSession) async throws(RPCError) -> JSONValue {
    let record = try authorizedPersistedRight(params, client: client)
    let data = try params.data(maxBytes: Self.maxKeyDataBytes)
    _ = try algorithm(
      params, supported: KeyAlgorithm.signing, default: KeyAlgorithm.ecdsaSignatureMessageX962SHA256
    )
    let key = try await privateKey(of: record)
    do {
      return ["signature": .string(Base64.encode(try key.signature(for: data)))]
    } catch {
      throw RPCError(.internalError, "Signing failed: \(error)")
    }
  }

  func decrypt(_ params: KeyDataParams, client: ClientSession) async throws(RPCError) -> JSONValue {
    let record = try authorizedPersistedRight(params, client: client)
    let data = try params.data(maxBytes: Self.maxKeyDataBytes)
    _ = try algorithm(
      params, supported: KeyAlgorithm.decryption, default: KeyAlgorithm.eciesStandard)
    let key = try await privateKey(of: record)
    do {
      return ["plaintext": .string(Base64.encode(try key.decrypt(data)))]
    } catch {
      throw RPCError(
        .invalidParams,
        "Invalid params: 'data' cannot be decrypted with this right's key (\(error)).",
        data: ["field": "data", "reason": "decryptionFailed"])
    }
  }

  func exchangeKeys(_ params: KeyExchangeRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> JSONValue
  {
    let record = try authorizedPersistedRight(params, client: client)
    let algorithm = try algorithm(
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
    if derived && requestedSize == nil {
      throw .invalidParams("requestedSize", "is required (in bytes, 1…4096) with \(algorithm)")
    }
    let key = try await privateKey(of: record)
    do {
      let secret =
        if derived, let requestedSize {
          try key.sharedSecret(with: peer, requestedSize: requestedSize, sharedInfo: sharedInfo)
        } else {
          try key.sharedSecret(with: peer)
        }
      return ["sharedSecret": .string(Base64.encode(secret))]
    } catch {
      throw RPCError(.internalError, "Key exchange failed: \(error)")
    }
  }

  func loadSecret(_ params: RightHandleParams, client: ClientSession) async throws(RPCError)
    -> JSONValue
  {
    let record = try authorizedPersistedRight(params, client: client)
    let secret = try await rights.lane.run(notFound: StoreFailure.removedRight) { store in
      try store.secret(for: record)
    }
    guard let secret else {
      throw RPCError(
        .notFound, "This right was saved without a secret.", data: ["reason": "noSecret"])
    }
    return ["secret": .string(Base64.encode(secret))]
  }
}
