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

  // MARK: key.* and secret.*

  /// The public key needs no authorization (as Apple's LAPublicKey): only this client's handle.
  func publicKey(_ params: RightHandleParams, client: ClientSession) throws(RPCError)
    -> PublicKeyResult
  {
    let record = try rights.persisted(right(params, of: client))
    return PublicKeyResult(
      x963: record.publicKey.x963, der: record.publicKey.der, keyStore: record.residence.rawValue)
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

  /// Has the store do the use's key step with the right's key (on the store's thread; in the TPM
  /// for a TPM-resident key, whose private key the daemon never holds) and answers the use's
  /// bytes. notFound when the right was removed (or replaced) since it was loaded.
  private func use(_ use: RightsBook.KeyUse, of record: PersistedRightRecord)
    async throws(RPCError) -> [UInt8]
  {
    let step = try use.keyStep()
    let answer = try await rights.lane.run(notFound: StoreFailure.removedRight) { store in
      switch step {
      case .sign(let data): try store.rightSignature(for: record, of: data)
      case .sharedSecret(let peer): try store.rightSharedSecret(for: record, with: peer)
      }
    }
    return try use.finish(keyAnswer: answer)
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
