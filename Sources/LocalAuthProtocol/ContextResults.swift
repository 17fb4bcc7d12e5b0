/// The answer of a method that returns nothing but success: `{}`.
public struct EmptyResult: MethodResult, Equatable {
  /// Success.
  public init() {}
  /// `{}`.
  public var json: JSONValue { .object([:]) }
  /// Any object (members a newer server adds are ignored).
  public init?(json: JSONValue) {
    guard json.objectValue != nil else { return nil }
  }
}

/// `context.create`'s answer: the new context's handle.
public struct CreateContextResult: MethodResult, Equatable {
  /// The handle (`ctx-…`).
  public var context: String
  /// The answer naming `context`.
  public init(context: String) { self.context = context }
  /// `{context}`.
  public var json: JSONValue { ["context": .string(context)] }
  /// From `{context}`.
  public init?(json: JSONValue) {
    guard let context = json.objectValue?["context"]?.stringValue else { return nil }
    self.context = context
  }
}

/// Why a policy cannot be evaluated: the LAError code an evaluation would end with, and a
/// machine-readable reason where the broker has one (a system evaluation's refusals).
public struct CanEvaluateRefusal: Sendable, Equatable {
  /// The error code.
  public var code: ErrorCode
  /// `reason`, when given.
  public var reason: String?
  /// A refusal with this code.
  public init(_ code: ErrorCode, reason: String? = nil) {
    self.code = code
    self.reason = reason
  }

  /// The member names on the wire (the PAM module reads them: a drift test holds them).
  public static let memberNames = ["code", "name", "message", "reason"]

  /// `{code, name, message, reason?}`.
  public var json: JSONValue {
    [
      "code": .int(code.rawValue), "name": .string(code.name),
      "message": .string(code.defaultMessage), "reason": reason.map(JSONValue.string),
    ]
  }

  /// The refusal as the error an evaluation would end with.
  public var error: RPCError {
    RPCError(code, code.defaultMessage, data: ["reason": reason.map(JSONValue.string)])
  }
}

/// `context.canEvaluatePolicy`'s answer: whether the policy could be evaluated now, why not, and
/// the device's biometry type. The usual answers are encoded once and kept (the request path's
/// budget, docs/performance.md): every success, and every refusal without a reason, per
/// biometry type.
public struct CanEvaluateResult: MethodResult, Equatable {
  /// Why it cannot, or nil when it can.
  public var refusal: CanEvaluateRefusal?
  /// The device's biometry type (the same for every owner, as `session.hello` says).
  public var biometryType: BiometryType

  /// An answer.
  public init(refusal: CanEvaluateRefusal?, biometryType: BiometryType) {
    self.refusal = refusal
    self.biometryType = biometryType
  }

  /// Whether the policy can be evaluated.
  public var canEvaluate: Bool { refusal == nil }

  /// The member names on the wire (the PAM module reads them: a drift test holds them).
  public static let memberNames = ["canEvaluate", "error", "biometryType"]

  /// `{canEvaluate, error?, biometryType}`, a kept encoding where there is one.
  public var json: JSONValue {
    let type = Self.typeIndex(biometryType)
    guard let refusal else { return Self.keptSuccesses[type] }
    if refusal.reason == nil, let index = Self.refusalIndex(refusal.code) {
      return Self.keptRefusals[index * BiometryType.allCases.count + type]
    }
    return Self.object(refusal, biometryType)
  }

  /// The kept encoding of `json`, when this answer is one of the kept ones (every success, and
  /// every refusal without a reason): the request path writes it without a `JSONValue`.
  public var keptEncoding: [UInt8]? {
    let type = Self.typeIndex(biometryType)
    guard let refusal else { return Self.keptSuccessEncodings[type] }
    if refusal.reason == nil, let index = Self.refusalIndex(refusal.code) {
      return Self.keptRefusalEncodings[index * BiometryType.allCases.count + type]
    }
    return nil
  }

  /// From `{canEvaluate, error?, biometryType}`; an unknown biometry type reads as none.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let can = object["canEvaluate"]?.boolValue else {
      return nil
    }
    biometryType =
      object["biometryType"]?.stringValue.flatMap(BiometryType.init(rawValue:)) ?? .none
    if can {
      refusal = nil
    } else {
      let error = object["error"]?.objectValue
      refusal = CanEvaluateRefusal(
        ErrorCode(rawValue: error?["code"]?.intValue ?? ErrorCode.internalError.rawValue),
        reason: error?["reason"]?.stringValue)
    }
  }

  private static func object(_ refusal: CanEvaluateRefusal?, _ type: BiometryType) -> JSONValue {
    [
      "canEvaluate": .bool(refusal == nil), "error": refusal?.json,
      "biometryType": .string(type.rawValue),
    ]
  }

  private static func typeIndex(_ type: BiometryType) -> Int {
    switch type {
    case .none: 0
    case .touchID: 1
    case .faceID: 2
    case .opticID: 3
    }
  }

  /// LAError's codes, -1 through -20: the refusals an answer can carry without a reason.
  private static let keptCodes = -20 ... -1

  private static func refusalIndex(_ code: ErrorCode) -> Int? {
    keptCodes.contains(code.rawValue) ? code.rawValue - keptCodes.lowerBound : nil
  }

  private static let keptSuccesses: [JSONValue] = BiometryType.allCases.map { type in
    .object(.kept(object(nil, type).objectValue!))
  }

  private static let keptRefusals: [JSONValue] = keptCodes.flatMap { raw in
    BiometryType.allCases.map { type in
      .object(.kept(object(CanEvaluateRefusal(ErrorCode(rawValue: raw)), type).objectValue!))
    }
  }

  private static let keptSuccessEncodings: [[UInt8]] = keptSuccesses.map {
    $0.objectValue!.encoded!
  }

  private static let keptRefusalEncodings: [[UInt8]] = keptRefusals.map {
    $0.objectValue!.encoded!
  }
}

/// `context.domainState`'s answer: the biometry domain state's hash for this app, or nil when
/// nothing is enrolled.
public struct DomainStateResult: MethodResult, Equatable {
  /// The hash (hex), or nil.
  public var biometryStateHash: String?
  /// An answer with this hash.
  public init(biometryStateHash: String?) { self.biometryStateHash = biometryStateHash }
  /// `{biometry: {stateHash}}`.
  public var json: JSONValue {
    ["biometry": ["stateHash": biometryStateHash.map(JSONValue.string) ?? .null]]
  }
  /// From `{biometry: {stateHash}}`.
  public init?(json: JSONValue) {
    guard let biometry = json.objectValue?["biometry"]?.objectValue else { return nil }
    biometryStateHash = biometry["stateHash"]?.stringValue
  }
}

/// `evaluation.cancel`'s answer: whether an evaluation was ended, and which.
public struct CancelEvaluationResult: MethodResult, Equatable {
  /// The ended evaluation's requestID, or nil when none matched.
  public var cancelledRequestID: String?
  /// An answer.
  public init(cancelledRequestID: String?) { self.cancelledRequestID = cancelledRequestID }
  /// Whether an evaluation was ended.
  public var cancelled: Bool { cancelledRequestID != nil }
  /// `{cancelled, requestID?}`.
  public var json: JSONValue {
    ["cancelled": .bool(cancelled), "requestID": cancelledRequestID.map(JSONValue.string)]
  }
  /// From `{cancelled, requestID?}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let cancelled = object["cancelled"]?.boolValue else {
      return nil
    }
    cancelledRequestID = cancelled ? object["requestID"]?.stringValue ?? "" : nil
  }
}
