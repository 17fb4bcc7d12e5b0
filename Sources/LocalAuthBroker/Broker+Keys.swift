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
  func publicKey(_ params: RightHandleParams, client: ClientSession) throws(RPCError) -> JSONValue {
    let record = try rights.persisted(right(params, of: client))
    return [
      "x963": .string(Base64.encode(record.publicKey.x963)),
      "der": .string(Base64.encode(record.publicKey.der)),
    ]
  }

  func sign(_ params: KeyDataParams, client: ClientSession) async throws(RPCError) -> JSONValue {
    let record = try authorizedPersistedRight(params, client: client)
    return try await use(RightsBook.KeyUse(signing: params), of: record)
  }

  func decrypt(_ params: KeyDataParams, client: ClientSession) async throws(RPCError) -> JSONValue {
    let record = try authorizedPersistedRight(params, client: client)
    return try await use(RightsBook.KeyUse(decrypting: params), of: record)
  }

  func exchangeKeys(_ params: KeyExchangeRequest.Params, client: ClientSession)
    async throws(RPCError)
    -> JSONValue
  {
    let record = try authorizedPersistedRight(params, client: client)
    return try await use(RightsBook.KeyUse(exchanging: params), of: record)
  }

  /// Unseals the right's key (on the store's thread) and answers the use's bytes.
  private func use(_ use: RightsBook.KeyUse, of record: PersistedRightRecord)
    async throws(RPCError) -> JSONValue
  {
    let key = try await privateKey(of: record)
    return [use.resultName: .string(Base64.encode(try use.perform(with: key)))]
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
