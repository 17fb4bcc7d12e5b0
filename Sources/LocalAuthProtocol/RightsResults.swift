// The answers of docs/protocol.md's "Rights and keys" methods (handoffs: HandoffResults.swift).

/// An answer naming a right by its handle: `right.create`'s `{right}`.
public struct RightHandleResult: MethodResult, Equatable {
  /// The right's handle (`right-…`).
  public var right: String
  /// An answer with this handle.
  public init(right: String) { self.right = right }
  /// `{right}`.
  public var json: JSONValue { ["right": .string(right)] }
  /// From `{right}`.
  public init?(json: JSONValue) {
    guard let right = json.objectValue?["right"]?.stringValue else { return nil }
    self.right = right
  }
}

/// `right.state`'s answer: the right's state (`RightStateName`).
public struct RightStateResult: MethodResult, Equatable {
  /// "unknown", "authorizing", "authorized" or "notAuthorized".
  public var state: String
  /// An answer with this state.
  public init(state: String) { self.state = state }
  /// `{state}`.
  public var json: JSONValue { ["state": .string(state)] }
  /// From `{state}`.
  public init?(json: JSONValue) {
    guard let state = json.objectValue?["state"]?.stringValue else { return nil }
    self.state = state
  }
}

/// `right.authorize`'s answer: authorized, by which evaluation and sensor (neither when the right
/// was already authorized).
public struct RightAuthorizeResult: MethodResult, Equatable {
  /// The state: "authorized".
  public var state: String
  /// The evaluation that authorized it, if one ran.
  public var requestID: String?
  /// The sensor that matched, if one did.
  public var sensor: String?
  /// An answer.
  public init(state: String, requestID: String? = nil, sensor: String? = nil) {
    self.state = state
    self.requestID = requestID
    self.sensor = sensor
  }
  /// `{state, requestID?, sensor?}` (sensor null when the evaluation named none).
  public var json: JSONValue {
    var object: JSONObject = ["state": .string(state)]
    if let requestID {
      object["requestID"] = .string(requestID)
      object["sensor"] = sensor.map(JSONValue.string) ?? .null
    }
    return .object(object)
  }
  /// From `{state, requestID?, sensor?}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let state = object["state"]?.stringValue else {
      return nil
    }
    self.state = state
    requestID = object["requestID"]?.stringValue
    sensor = object["sensor"]?.stringValue
  }
}

/// `rightStore.saveRight`'s and `rightStore.right`'s answer: the saved right's handle, its
/// identifier and (on load) its requirement's stored name.
public struct StoredRightResult: MethodResult, Equatable {
  /// The handle of the right, for this connection.
  public var right: String
  /// The identifier it is saved under.
  public var identifier: String
  /// The requirement's stored name (`rightStore.right` only).
  public var requirement: String?
  /// An answer.
  public init(right: String, identifier: String, requirement: String? = nil) {
    self.right = right
    self.identifier = identifier
    self.requirement = requirement
  }
  /// `{right, identifier, requirement?}`.
  public var json: JSONValue {
    [
      "right": .string(right), "identifier": .string(identifier),
      "requirement": requirement.map(JSONValue.string),
    ]
  }
  /// From `{right, identifier, requirement?}`.
  public init?(json: JSONValue) {
    guard let object = json.objectValue, let right = object["right"]?.stringValue,
      let identifier = object["identifier"]?.stringValue
    else { return nil }
    self.right = right
    self.identifier = identifier
    requirement = object["requirement"]?.stringValue
  }
}

/// `rightStore.removeAllRights`'s answer: how many rights were removed.
public struct RemovedRightsResult: MethodResult, Equatable {
  /// The count.
  public var removed: Int
  /// An answer.
  public init(removed: Int) { self.removed = removed }
  /// `{removed}`.
  public var json: JSONValue { ["removed": .int(removed)] }
  /// From `{removed}`.
  public init?(json: JSONValue) {
    guard let removed = json.objectValue?["removed"]?.intValue else { return nil }
    self.removed = removed
  }
}
