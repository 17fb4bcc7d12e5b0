// The requests of docs/protocol.md, "Rights and keys" and "Handoffs": rights, the right store
// and handoffs (keys and secrets: KeyMethods.swift).

/// The params every method on one of the caller's rights shares: `right`, the handle
/// `right.create` or the right store gave.
public protocol RightParams: MethodParams {}

extension RightParams {
  /// `right`, required, not empty.
  public func right() throws(RPCError) -> String { try reader.nonEmptyString("right") }
}

/// The params of a method that takes only a right: `{right}`.
public struct RightHandleParams: RightParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params naming the right with this handle.
  public init(right: JSONValue) { object = ["right": right] }
}

/// The params that name a saved right: `identifier`.
public protocol IdentifierParams: MethodParams {}

extension IdentifierParams {
  /// `identifier`, required, not empty.
  public func identifier() throws(RPCError) -> String { try reader.nonEmptyString("identifier") }
}

/// `right.create {requirement}` → `{right}`
public enum RightCreateRequest: RequestType {
  /// `right.create`
  public static let method = "right.create"
  /// The result object.
  public typealias Result = RightHandleResult

  /// `{requirement, fallback?}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a right with this requirement (`fallback` sent only when there is one).
    public init(requirement: RightRequirement) { object = requirement.members }
    /// `requirement` (with `fallback`), required: decoded into its typed value, invalidParams
    /// naming the field for any other shape (see `RightRequirement.init(params:)`).
    public func requirement() throws(RPCError) -> RightRequirement {
      try RightRequirement(params: object)
    }
  }
}

/// `right.authorize {right, localizedReason}` → `{state, requestID?, sensor?}`
public enum RightAuthorizeRequest: RequestType {
  /// `right.authorize`
  public static let method = "right.authorize"
  /// The result object.
  public typealias Result = RightAuthorizeResult

  /// `{right, localizedReason}`.
  public struct Params: RightParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that authorize the right with this handle, prompting with `localizedReason`.
    public init(right: JSONValue, localizedReason: String) {
      object = ["right": right, "localizedReason": .string(localizedReason)]
    }
    /// `localizedReason`, required, not empty.
    public func localizedReason() throws(RPCError) -> String {
      try reader.nonEmptyString("localizedReason")
    }
  }
}

/// `right.checkCanAuthorize {right}` → `{}` or the LAError
public enum RightCheckCanAuthorizeRequest: RequestType {
  /// `right.checkCanAuthorize`
  public static let method = "right.checkCanAuthorize"
  /// The result object.
  public typealias Result = EmptyResult
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.deauthorize {right}` → `{}`
public enum RightDeauthorizeRequest: RequestType {
  /// `right.deauthorize`
  public static let method = "right.deauthorize"
  /// The result object.
  public typealias Result = EmptyResult
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.state {right}` → `{state}`
public enum RightStateRequest: RequestType {
  /// `right.state`
  public static let method = "right.state"
  /// The result object.
  public typealias Result = RightStateResult
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `right.release {right}` → `{}`: forgets the handle (an extension: LARight deallocated).
public enum RightReleaseRequest: RequestType {
  /// `right.release`
  public static let method = "right.release"
  /// The result object.
  public typealias Result = EmptyResult
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// `rightStore.saveRight {right, identifier, secret?}` → `{right, identifier}`
public enum SaveRightRequest: RequestType {
  /// `rightStore.saveRight`
  public static let method = "rightStore.saveRight"
  /// The result object.
  public typealias Result = StoredRightResult

  /// `{right, identifier, secret?}`.
  public struct Params: RightParams, IdentifierParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that save the right with handle `right` under `identifier`, with `secret`.
    public init(right: JSONValue, identifier: String, secret: [UInt8]?) {
      object = [
        "right": right, "identifier": .string(identifier),
        "secret": secret.map { .string(Base64.encode($0)) },
      ]
    }
    /// `secret`, optional, base64.
    public func secret() throws(RPCError) -> [UInt8]? { try reader.optionalBase64("secret") }
  }
}

/// `rightStore.right {identifier}` → `{right, identifier}`
public enum LoadRightRequest: RequestType {
  /// `rightStore.right`
  public static let method = "rightStore.right"
  /// The result object.
  public typealias Result = StoredRightResult

  /// `{identifier}`.
  public struct Params: IdentifierParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that load the right saved under `identifier`.
    public init(identifier: String) { object = ["identifier": .string(identifier)] }
  }
}

/// `rightStore.removeRight {identifier}` or `{right}` → `{}`
public enum RemoveRightRequest: RequestType {
  /// `rightStore.removeRight`
  public static let method = "rightStore.removeRight"
  /// The result object.
  public typealias Result = EmptyResult

  /// `{identifier}` or `{right}`.
  public struct Params: RightParams, IdentifierParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that remove the right saved under `identifier`.
    public init(identifier: String) { object = ["identifier": .string(identifier)] }
    /// The params that remove the persisted right with this handle.
    public init(right: JSONValue) { object = ["right": right] }
    /// Whether the params name a handle (`right`, not null) rather than an identifier.
    public var namesRight: Bool {
      guard let handle = object["right"] else { return false }
      return handle != .null
    }
  }
}

/// `rightStore.removeAllRights {}` → `{removed}`
public enum RemoveAllRightsRequest: RequestType {
  /// `rightStore.removeAllRights`
  public static let method = "rightStore.removeAllRights"
  /// The result object.
  public typealias Result = RemovedRightsResult
  /// None.
  public typealias Params = NoParams
}

/// `key.publicKey {right}` → `{x963, der}`
public enum PublicKeyRequest: RequestType {
  /// `key.publicKey`
  public static let method = "key.publicKey"
  /// The result object.
  public typealias Result = PublicKeyResult
  /// `{right}`.
  public typealias Params = RightHandleParams
}

/// The params that name a handoff: `handoff`, the id `handoff.create` gave.
public protocol HandoffParams: MethodParams {}

extension HandoffParams {
  /// `handoff`, required, not empty.
  public func handoff() throws(RPCError) -> String { try reader.nonEmptyString("handoff") }
}

/// `handoff.create {payload, ttl}` → `{handoff, expiresAt}`
public enum HandoffCreateRequest: RequestType {
  /// `handoff.create`
  public static let method = "handoff.create"
  /// The result object.
  public typealias Result = HandoffCreateResult

  /// `{payload, ttl}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a handoff carrying `payload` for `ttl` seconds.
    public init(payload: [UInt8], ttl: Int) {
      object = ["payload": .string(Base64.encode(payload)), "ttl": .int(ttl)]
    }
    /// `payload`, required, base64.
    public func payload() throws(RPCError) -> [UInt8] { try reader.base64("payload") }
    /// `ttl` in seconds, within `range` (required by the handler: nil when absent).
    public func ttl(in range: ClosedRange<Int>) throws(RPCError) -> Int? {
      try reader.optionalInt("ttl", in: range)
    }
  }
}

/// `handoff.list {}` → `{handoffs: [{handoff, payload, appID, createdAt, expiresAt, authorized}]}`
public enum HandoffListRequest: RequestType {
  /// `handoff.list`
  public static let method = "handoff.list"
  /// The result object.
  public typealias Result = HandoffListResult
  /// None.
  public typealias Params = NoParams
}

/// `handoff.authorize {handoff, policy, localizedReason}` → `{handoff, requestID}`
public enum HandoffAuthorizeRequest: RequestType {
  /// `handoff.authorize`
  public static let method = "handoff.authorize"
  /// The result object.
  public typealias Result = HandoffAuthorizeResult

  /// `{handoff, policy, localizedReason, context?}`.
  public struct Params: HandoffParams, ContextParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that authorize `handoff` by evaluating `policy` for `localizedReason`.
    public init(handoff: String, policy: Policy, localizedReason: String) {
      object = [
        "handoff": .string(handoff), "policy": policy.json,
        "localizedReason": .string(localizedReason),
      ]
    }
    /// `policy`, required.
    public func policy() throws(RPCError) -> Policy { try reader.policy("policy") }
    /// `localizedReason`, required, not empty.
    public func localizedReason() throws(RPCError) -> String {
      try reader.nonEmptyString("localizedReason")
    }
  }
}

/// `handoff.redeem {handoff}` → `{payload}`
public enum HandoffRedeemRequest: RequestType {
  /// `handoff.redeem`
  public static let method = "handoff.redeem"
  /// The result object.
  public typealias Result = HandoffRedeemResult

  /// `{handoff}`.
  public struct Params: HandoffParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that redeem `handoff`.
    public init(handoff: String) { object = ["handoff": .string(handoff)] }
  }
}

/// `right.stateChanged {right, state}` whenever a right's state changes.
public enum RightStateChangedNotification: NotificationType {
  /// `right.stateChanged`
  public static let method = "right.stateChanged"
  /// `{right, state}`.
  public typealias Params = StateChangedEvent
}

/// `handoff.stateChanged {handoff, state: "authorized"}` to the creator's app (same uid and app id).
public enum HandoffStateChangedNotification: NotificationType {
  /// `handoff.stateChanged`
  public static let method = "handoff.stateChanged"
  /// `{handoff, state}`.
  public typealias Params = StateChangedEvent
}

extension ErrorCode {
  /// A persisted right with this identifier already exists (`data.name` is "alreadyExists").
  public static let alreadyExists = ErrorCode(rawValue: -32005)
}

/// The states of a right (LARight.State) on the wire.
public enum RightStateName {
  /// Not known yet: never authorized on this handle.
  public static let unknown = "unknown"
  /// An authorization is in progress.
  public static let authorizing = "authorizing"
  /// Authorized until deauthorized or the client disconnects.
  public static let authorized = "authorized"
  /// Not authorized: failed, deauthorized, or invalidated by a change of the enrolled set.
  public static let notAuthorized = "notAuthorized"
}
