/// The params every context method shares: `context`, the handle `context.create` gave.
public protocol ContextParams: MethodParams {}

extension ContextParams {
  /// `context`, optional: the handle of an explicit context.
  public func context() throws(RPCError) -> String? { try reader.optionalString("context") }
}

/// `context.create {interactionNotAllowed?, reuseDuration?, localizedFallbackTitle?,
/// localizedCancelTitle?}` → `{context}`.
public enum CreateContextRequest: RequestType {
  /// `context.create`
  public static let method = "context.create"
  /// `{context}`.
  public typealias Result = CreateContextResult

  /// The context's options.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a context with these options.
    public init(_ options: ContextOptions) { object = options.params }
    /// The options, each field checked.
    public func options() throws(RPCError) -> ContextOptions {
      try ContextOptions(params: object)
    }
  }
}

/// `context.canEvaluatePolicy {policy, context?, user?, requester?}` → `{canEvaluate, error?,
/// biometryType}`.
public enum CanEvaluatePolicyRequest: RequestType {
  /// `context.canEvaluatePolicy`
  public static let method = "context.canEvaluatePolicy"
  /// `{canEvaluate, error?, biometryType}`.
  public typealias Result = CanEvaluateResult

  /// `{policy, context?, user?, requester?}`.
  public struct Params: ContextParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that ask about `policy`, in the context with handle `context`.
    public init(policy: Policy, context: JSONValue?) {
      object = ["policy": policy.json, "context": context]
    }
    /// `policy`, required.
    public func policy() throws(RPCError) -> Policy { try reader.policy("policy") }
  }
}

/// `context.evaluatePolicy {policy, localizedReason, context?, user?, requester?}` → the success
/// (requestID, policy, sensor, reused) or the LAError.
public enum EvaluatePolicyRequest: RequestType {
  /// `context.evaluatePolicy`
  public static let method = "context.evaluatePolicy"
  /// The success.
  public typealias Result = EvaluationSuccess

  /// `{policy, localizedReason, context?, user?, requester?}`.
  public struct Params: ContextParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that evaluate `policy` for `localizedReason` in the context `context`.
    public init(policy: Policy, localizedReason: String, context: JSONValue?) {
      object = [
        "policy": policy.json, "localizedReason": .string(localizedReason), "context": context,
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

/// `context.invalidate {context}` → `{}`.
public enum InvalidateContextRequest: RequestType {
  /// `context.invalidate`
  public static let method = "context.invalidate"
  /// `{}`.
  public typealias Result = EmptyResult

  /// `{context}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that invalidate the context with this handle.
    public init(context: JSONValue) { object = ["context": context] }
    /// `context`, required.
    public func context() throws(RPCError) -> String { try reader.nonEmptyString("context") }
  }
}

/// `context.domainState {context?, user?}` → `{biometry: {stateHash}}`.
public enum DomainStateRequest: RequestType {
  /// `context.domainState`
  public static let method = "context.domainState"
  /// `{biometry: {stateHash}}`.
  public typealias Result = DomainStateResult

  /// `{context?, user?}`.
  public struct Params: ContextParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params for the context with this handle (nil: the connection's own).
    public init(context: JSONValue?) { object = ["context": context] }
  }
}

/// `evaluation.cancel {requestID}` or `{id}` → `{cancelled, requestID?}`.
public enum CancelEvaluationRequest: RequestType {
  /// `evaluation.cancel`
  public static let method = "evaluation.cancel"
  /// `{cancelled, requestID?}`.
  public typealias Result = CancelEvaluationResult

  /// `{requestID}` or `{id}`, the JSON-RPC id of the evaluate request on the same connection.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that cancel the evaluation with this requestID.
    public init(requestID: String) { object = ["requestID": .string(requestID)] }
    /// The params that cancel the evaluation sent with this JSON-RPC id.
    public init(id: RequestID) { object = ["id": id.json] }
    /// `requestID`, optional.
    public func requestID() throws(RPCError) -> String? { try reader.optionalString("requestID") }
    /// `id`: the JSON-RPC id of the evaluate request, when it is one (not null).
    public func id() -> RequestID? {
      guard let raw = object["id"], let id = RequestID(json: raw), id != .null else { return nil }
      return id
    }
  }
}
