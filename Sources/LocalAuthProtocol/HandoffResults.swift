// The answers of docs/protocol.md's "Handoffs" methods.

/// An instant on the wire: seconds since 1970, with millisecond precision.
public struct WireTimestamp: Sendable, Equatable, Comparable {
  /// Milliseconds since 1970.
  public var milliseconds: Int64
  /// An instant.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }
  /// Seconds since 1970 (a JSON number with up to three decimals).
  public var json: JSONValue { .number(JSONNumber(Double(milliseconds) / 1000)) }
  /// From a number of seconds.
  public init?(json: JSONValue?) {
    guard let seconds = json?.doubleValue else { return nil }
    milliseconds = Int64((seconds * 1000).rounded())
  }
  /// Earlier first.
  public static func < (a: WireTimestamp, b: WireTimestamp) -> Bool {
    a.milliseconds < b.milliseconds
  }
}

/// `handoff.create`'s answer: the handoff's id and when it expires.
public struct HandoffCreateResult: MethodResult, Equatable {
  /// The single-use id.
  public var handoff: String
  /// When it can no longer be authorized or redeemed.
  public var expiresAt: WireTimestamp
  /// An answer.
  public init(handoff: String, expiresAt: WireTimestamp) {
    self.handoff = handoff
    self.expiresAt = expiresAt
  }
  /// `{handoff, expiresAt}`.
  public var json: JSONValue { ["handoff": .string(handoff), "expiresAt": expiresAt.json] }
  /// From `{handoff, expiresAt}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let handoff = object["handoff"]?.stringValue,
      let expiresAt = WireTimestamp(json: object["expiresAt"])
    else { return nil }
    self.handoff = handoff
    self.expiresAt = expiresAt
  }
}

/// One pending handoff as `handoff.list` shows it to the uid's interactive client.
public struct PendingHandoff: Sendable, Equatable {
  /// The id.
  public var handoff: String
  /// The creator's payload.
  public var payload: [UInt8]
  /// The creating app.
  public var appID: String
  /// When it was made.
  public var createdAt: WireTimestamp
  /// When it expires.
  public var expiresAt: WireTimestamp
  /// Whether a user authorized it.
  public var authorized: Bool
  /// A pending handoff.
  public init(
    handoff: String, payload: [UInt8], appID: String, createdAt: WireTimestamp,
    expiresAt: WireTimestamp, authorized: Bool
  ) {
    self.handoff = handoff
    self.payload = payload
    self.appID = appID
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.authorized = authorized
  }
  /// `{handoff, payload, appID, createdAt, expiresAt, authorized}`.
  public var json: JSONValue {
    [
      "handoff": .string(handoff), "payload": .string(Base64.encode(payload)),
      "appID": .string(appID), "createdAt": createdAt.json, "expiresAt": expiresAt.json,
      "authorized": .bool(authorized),
    ]
  }
  /// From its object.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let handoff = object["handoff"]?.stringValue,
      let payload = object["payload"]?.stringValue.flatMap(Base64.decode),
      let createdAt = WireTimestamp(json: object["createdAt"]),
      let expiresAt = WireTimestamp(json: object["expiresAt"])
    else { return nil }
    self.init(
      handoff: handoff, payload: payload, appID: object["appID"]?.stringValue ?? "",
      createdAt: createdAt, expiresAt: expiresAt,
      authorized: object["authorized"]?.boolValue ?? false)
  }
}

/// `handoff.list`'s answer.
public struct HandoffListResult: MethodResult, Equatable {
  /// The uid's pending handoffs.
  public var handoffs: [PendingHandoff]
  /// An answer.
  public init(handoffs: [PendingHandoff]) { self.handoffs = handoffs }
  /// `{handoffs: […]}`.
  public var json: JSONValue { ["handoffs": .array(handoffs.map(\.json))] }
  /// From `{handoffs}`; entries of another shape are left out.
  public init?(json: JSONValue) {
    guard let list = json.objectValue?["handoffs"]?.arrayValue else { return nil }
    handoffs = list.compactMap(PendingHandoff.init(json:))
  }
}

/// `handoff.authorize`'s answer: authorized, by which evaluation.
public struct HandoffAuthorizeResult: MethodResult, Equatable {
  /// The id.
  public var handoff: String
  /// "authorized".
  public var state: String
  /// The evaluation that authorized it.
  public var requestID: String
  /// An answer.
  public init(handoff: String, state: String, requestID: String) {
    self.handoff = handoff
    self.state = state
    self.requestID = requestID
  }
  /// `{handoff, state, requestID}`.
  public var json: JSONValue {
    ["handoff": .string(handoff), "state": .string(state), "requestID": .string(requestID)]
  }
  /// From `{handoff, state, requestID}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let handoff = object["handoff"]?.stringValue,
      let state = object["state"]?.stringValue
    else { return nil }
    self.init(
      handoff: handoff, state: state, requestID: object["requestID"]?.stringValue ?? "")
  }
}

/// `handoff.redeem`'s answer: the creator's payload, once.
public struct HandoffRedeemResult: MethodResult, Equatable {
  /// The payload.
  public var payload: [UInt8]
  /// An answer.
  public init(payload: [UInt8]) { self.payload = payload }
  /// `{payload}`, base64.
  public var json: JSONValue { ["payload": .string(Base64.encode(payload))] }
  /// From `{payload}`.
  public init?(json: JSONValue) {
    guard let payload = json.objectValue?["payload"]?.stringValue.flatMap(Base64.decode) else {
      return nil
    }
    self.payload = payload
  }
}
