import LocalAuthProtocol
import RightStore

extension Broker {
  /// The longest identifier a right may be saved under, in bytes.
  static let maxIdentifierBytes = 1024
  /// The rights store, or the error a daemon without a state directory, or with a store it could not open
  /// (corrupt, or its device key missing), answers.
  func store() throws(RPCError) -> RightStore {
    if let storeUnavailable {
      throw RPCError(
        .internalError, "Rights are unavailable: \(storeUnavailable)",
        data: ["reason": "rightsUnavailable"])
    }
    guard let rightStore else {
      throw RPCError(
        .internalError,
        "The rights store is not available: the daemon runs without a state directory.",
        data: ["reason": "storeUnavailable"])
    }
    return rightStore
  }

  /// Who owns the rows this client reads and writes: its uid from SO_PEERCRED and its app id.
  func owner(of client: ClientSession) -> Owner { Owner(uid: client.peer.uid, appID: client.appID) }

  /// Maps a store failure to the wire; `notFound` messages never say whose row it was.
  func storeError(_ error: any Error, notFound: String = "No persisted right with this identifier.")
    -> RPCError
  {
    switch error as? RightStoreError {
    case .notFound?: return RPCError(.notFound, notFound, data: ["field": "identifier"])
    case .alreadyExists?:
      return RPCError(
        .alreadyExists, "A right is already saved under this identifier; remove it first.",
        data: ["name": "alreadyExists", "field": "identifier"])
    case .invalidArgument(let detail)?:
      return RPCError(.invalidParams, "Invalid params: \(detail).")
    case .limitReached(let quota, let limit)?: return quotaError(quota, limit)
    default:
      log.notice("rights store failure: \(error)")
      return RPCError(
        .internalError, "The rights store failed: \(error)", data: ["reason": "storeFailure"])
    }
  }

  /// Runs a store call on the store's own thread (writes wait on fsync), mapping its failures.
  func withStoreOffLoop<T: Sendable>(
    notFound: String = "No persisted right with this identifier.",
    _ body: @escaping @Sendable (RightStore) throws -> T
  ) async throws(RPCError) -> T {
    let store = try store()
    do {
      return try await storeWorker.perform { try body(store) }
    } catch {
      throw storeError(error, notFound: notFound)
    }
  }

  private func identifier(_ params: some IdentifierParams) throws(RPCError) -> String {
    let identifier = try params.identifier()
    guard identifier.utf8.count <= Self.maxIdentifierBytes else {
      throw .invalidParams("identifier", "must be at most \(Self.maxIdentifierBytes) bytes")
    }
    try refuseNUL(identifier, field: "identifier")
    return identifier
  }

  /// The not-authorized error of key, secret and save calls: no prompt is ever shown for them.
  func notAuthorizedError(_ right: AuthRight) -> RPCError {
    RPCError(
      .authenticationFailed, "The right is not authorized; call right.authorize first.",
      data: ["reason": "notAuthorized", "right": .string(right.id)])
  }

  // MARK: rightStore.*

  func saveRight(_ params: SaveRightRequest.Params, client: ClientSession) async throws(RPCError)
    -> JSONValue
  {
    let right = try right(params, of: client)
    let identifier = try identifier(params)
    let limits = configuration.store
    let secret = try params.secret()
    if let secret, secret.count > limits.maxSecretBytes {
      throw tooLargeError("secret", key: StoreLimits.Key.maxSecretBytes, max: limits.maxSecretBytes)
    }
    revalidate(right, of: client)
    // As Apple's: a right need not be authorized to be saved (its key pair is made now, and every
    // private-key or secret use still needs the persisted right authorized).
    let authorized = right.isAuthorized
    let owner = owner(of: client)
    let hash =
      right.requirement == .biometryCurrentSet
      ? right.boundDomainState ?? domainStateHash(owner: defaultOwnerUID(of: client)) : nil
    let requirement = right.requirement.storedName
    let record = try await withStoreOffLoop { store in
      try store.saveRight(
        owner: owner, identifier: identifier, requirement: requirement,
        domainStateHash: hash,
        secret: secret, maxRightsPerUID: limits.maxSavedRightsPerUID)
    }
    // A right the user has just authorized is saved authorized; any other starts unknown.
    let persisted = AuthRight(
      id: Self.makeRightID(), requirement: right.requirement, persisted: record,
      boundDomainState: hash)
    if authorized { persisted.state = RightStateName.authorized }
    try register(persisted, for: client)
    return ["right": .string(persisted.id), "identifier": .string(identifier)]
  }

  func loadRight(_ params: LoadRightRequest.Params, client: ClientSession) async throws(RPCError)
    -> JSONValue
  {
    let identifier = try identifier(params)
    let owner = owner(of: client)
    guard
      let record = try await withStoreOffLoop({ store in
        try store.right(owner: owner, identifier: identifier)
      })
    else {
      throw storeError(RightStoreError.notFound)
    }
    guard let requirement = RightRequirement(storedName: record.requirement) else {
      throw storeError(RightStoreError.corrupt("unknown requirement \(record.requirement)"))
    }
    let right = AuthRight(
      id: Self.makeRightID(), requirement: requirement, persisted: record,
      boundDomainState: record.domainStateHash)
    try register(right, for: client)
    return [
      "right": .string(right.id), "identifier": .string(identifier),
      "requirement": .string(record.requirement),
    ]
  }

  func removeRight(_ params: RemoveRightRequest.Params, client: ClientSession)
    async throws(RPCError) -> JSONValue
  {
    let owner: Owner
    let identifier: String
    if params.namesRight {
      let right = try right(params, of: client)
      guard let record = right.persisted else { throw notPersistedError() }
      (owner, identifier) = (record.owner, record.identifier)
    } else {
      (owner, identifier) = (self.owner(of: client), try self.identifier(params))
    }
    guard
      try await withStoreOffLoop({ store in
        try store.removeRight(owner: owner, identifier: identifier)
      })
    else {
      throw storeError(RightStoreError.notFound)
    }
    for right in client.rights.values
    where right.persisted?.owner == owner && right.persisted?.identifier == identifier {
      deauthorize(right, of: client, reason: "removed")
    }
    return [:]
  }

  func removeAllRights(client: ClientSession) async throws(RPCError) -> JSONValue {
    let owner = owner(of: client)
    let removed = try await withStoreOffLoop { store in try store.removeAllRights(owner: owner) }
    for right in client.rights.values where right.persisted?.owner == owner {
      deauthorize(right, of: client, reason: "removed")
    }
    return ["removed": .int(removed)]
  }

  /// The error for a plain right passed where a persisted one is needed.
  func notPersistedError() -> RPCError {
    .invalidParams(
      "right",
      "is a plain right; key, secret and remove calls need a persisted right "
        + "(from rightStore.saveRight or rightStore.right)")
  }
}
