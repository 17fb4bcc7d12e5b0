import LocalAuthCrypto
import LocalAuthProtocol
import RightsStorage

extension Broker {
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

  // MARK: key.* and secret.*

  /// The public key needs no authorization (as Apple's LAPublicKey): only this client's handle.
  func publicKey(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> PublicKeyResult
  {
    let record = try rights.persisted(right(params, of: client))
    return PublicKeyResult(x963: record.publicKey.x963, der: record.publicKey.der)
  }

  func sign(_ params: KeyDataParams, client: ClientSession) async throws(RPCError)
    -> SignatureResult
  {
    let record = try authorizedPersistedRight(params, client: client)
    return SignatureResult(bytes: try await use(RightsBook.KeyUse(signing: params), of: record))
  }

  func decrypt(_ params: KeyDataParams, client: ClientSession) async throws(RPCError)
    -> PlaintextResult
  {
    let record = try authorizedPersistedRight(params, client: client)
    return PlaintextResult(bytes: try await use(RightsBook.KeyUse(decrypting: params), of: record))
  }

  func exchangeKeys(_ params: KeyExchangeRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> SharedSecretResult
  {
    let record = try authorizedPersistedRight(params, client: client)
    return SharedSecretResult(
      bytes: try await use(RightsBook.KeyUse(exchanging: params), of: record))
  }

  /// Unseals the right's key (on the store's thread) and answers the use's bytes.
  private func use(_ use: RightsBook.KeyUse, of record: PersistedRightRecord)
    async throws(RPCError) -> [UInt8]
  {
    let key = try await privateKey(of: record)
    return try use.perform(with: key)
  }

  func loadSecret(_ params: RightHandleParams, client: ClientSession) async throws(RPCError)
    -> SecretResult
  {
    let record = try authorizedPersistedRight(params, client: client)
    let secret = try await rights.lane.run(notFound: StoreFailure.removedRight) { store in
      try store.secret(for: record)
    }
    guard let secret else {
      throw RPCError(
        .notFound, "This right was saved without a secret.", data: ["reason": "noSecret"])
    }
    return SecretResult(bytes: secret)
  }
}
