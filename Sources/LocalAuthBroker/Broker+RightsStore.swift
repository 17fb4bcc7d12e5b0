import LocalAuthProtocol
import RightsStorage

extension Broker {
  /// Who owns the rows this client reads and writes: its uid from SO_PEERCRED and its app id.
  func owner(of client: ClientSession) -> Owner { Owner(uid: client.peer.uid, appID: client.appID) }

  // MARK: rightStore.*

  func saveRight(_ params: SaveRightRequest.Params, client: ClientSession) async throws(RPCError)
    -> StoredRightResult
  {
    let right = try right(params, of: client)
    let identifier = try RightsBook.identifier(params)
    let limits = configuration.store
    let secret = try RightsBook.secret(params, limits: limits)
    revalidate(right, of: client)
    // As Apple's: a right need not be authorized to be saved (its key pair is made now, and every
    // private-key or secret use still needs the persisted right authorized).
    let authorized = right.isAuthorized
    let owner = owner(of: client)
    let hash = rights.setToSave(right) { currentSet(of: client) }
    let requirement = right.requirement.storedName
    let record = try await rights.lane.run { store in
      try store.saveRight(
        owner: owner, identifier: identifier, requirement: requirement,
        domainStateHash: hash,
        secret: secret, maxRightsPerUID: limits.maxSavedRightsPerUID)
    }
    // A right the user has just authorized is saved authorized; any other starts unknown.
    let persisted = AuthRight(
      id: makeRightID(), requirement: right.requirement, persisted: record,
      boundDomainState: hash,
      state: authorized ? RightStateName.authorized : RightStateName.unknown)
    try register(persisted, for: client)
    return StoredRightResult(right: persisted.id, identifier: identifier)
  }

  func loadRight(_ params: LoadRightRequest.Params, client: ClientSession) async throws(RPCError)
    -> StoredRightResult
  {
    let identifier = try RightsBook.identifier(params)
    let owner = owner(of: client)
    guard
      let record = try await rights.lane.run({ store in
        try store.right(owner: owner, identifier: identifier)
      })
    else {
      throw rights.lane.failure(RightStoreError.notFound)
    }
    guard let requirement = RightRequirement(storedName: record.requirement) else {
      throw rights.lane.failure(
        RightStoreError.corrupt("unknown requirement \(record.requirement)"))
    }
    let right = AuthRight(
      id: makeRightID(), requirement: requirement, persisted: record,
      boundDomainState: record.domainStateHash)
    try register(right, for: client)
    return StoredRightResult(
      right: right.id, identifier: identifier, requirement: record.requirement)
  }

  func removeRight(_ params: RemoveRightRequest.Params, client: ClientSession)
    async throws(RPCError) -> EmptyResult
  {
    let owner: Owner
    let identifier: String
    if params.namesRight {
      let record = try rights.persisted(right(params, of: client))
      (owner, identifier) = (record.owner, record.identifier)
    } else {
      (owner, identifier) = (self.owner(of: client), try RightsBook.identifier(params))
    }
    guard
      try await rights.lane.run({ store in
        try store.removeRight(owner: owner, identifier: identifier)
      })
    else {
      throw rights.lane.failure(RightStoreError.notFound)
    }
    for right in rights.rights(of: client.number)
    where right.persisted?.owner == owner && right.persisted?.identifier == identifier {
      deauthorize(right, of: client, reason: "removed")
    }
    return EmptyResult()
  }

  func removeAllRights(client: ClientSession) async throws(RPCError) -> RemovedRightsResult {
    let owner = owner(of: client)
    let removed = try await rights.lane.run { store in try store.removeAllRights(owner: owner) }
    for right in rights.rights(of: client.number) where right.persisted?.owner == owner {
      deauthorize(right, of: client, reason: "removed")
    }
    return RemovedRightsResult(removed: removed)
  }
}
