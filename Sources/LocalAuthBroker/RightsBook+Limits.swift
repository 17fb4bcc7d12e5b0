import LocalAuthProtocol

/// What a client may make the rights store hold, checked before anything reaches the store: each
/// refusal is invalidParams naming the field and, for a configured limit, its key.
extension RightsBook {
  /// The longest identifier a right may be saved under, in bytes.
  static let maxIdentifierBytes = 1024

  /// The `identifier` param: at most `maxIdentifierBytes`, no NUL byte.
  static func identifier(_ params: some IdentifierParams) throws(RPCError) -> String {
    let identifier = try params.identifier()
    guard identifier.utf8.count <= maxIdentifierBytes else {
      throw .invalidParams("identifier", "must be at most \(maxIdentifierBytes) bytes")
    }
    try refuseNUL(identifier, field: "identifier")
    return identifier
  }

  /// The `secret` of `rightStore.saveRight`, if any: at most `MaxSecretBytes`.
  static func secret(_ params: SaveRightRequest.Params, limits: StoreLimits) throws(RPCError)
    -> [UInt8]?
  {
    let secret = try params.secret()
    if let secret, secret.count > limits.maxSecretBytes {
      throw tooLargeError("secret", key: StoreLimits.Key.maxSecretBytes, max: limits.maxSecretBytes)
    }
    return secret
  }

  /// The `payload` and `ttl` of `handoff.create`: the payload at most `MaxHandoffPayloadBytes`, the
  /// lifetime required and within `MinHandoffTTLSec…MaxHandoffTTLSec` (an integer outside names
  /// the bound it passed).
  static func handoffTerms(_ params: HandoffCreateRequest.Params, limits: StoreLimits)
    throws(RPCError) -> (payload: [UInt8], ttl: Int)
  {
    let payload = try params.payload()
    guard payload.count <= limits.maxHandoffPayloadBytes else {
      throw tooLargeError(
        "payload", key: StoreLimits.Key.maxHandoffPayloadBytes, max: limits.maxHandoffPayloadBytes)
    }
    let range = limits.minHandoffTTLSeconds...limits.maxHandoffTTLSeconds
    let ttl: Int?
    do {
      ttl = try params.ttl(in: range)
    } catch {
      // An integer outside the range names the bound it passed; anything else is plain invalid params.
      guard let given = try? params.ttl(in: Int.min...Int.max) else { throw error }
      var error = error
      error.data["limit"] = .string(
        given < range.lowerBound ? StoreLimits.Key.minHandoffTTL : StoreLimits.Key.maxHandoffTTL)
      throw error
    }
    guard let ttl else {
      throw .invalidParams("ttl", "is required (seconds, \(range.lowerBound)…\(range.upperBound))")
    }
    return (payload, ttl)
  }

  /// The `handoff` param: an id, refused when it holds a NUL byte.
  static func handoffID(_ params: some HandoffParams) throws(RPCError) -> String {
    let id = try params.handoff()
    try refuseNUL(id, field: "handoff")
    return id
  }

  /// Refuses text that would key or seal a stored row when it holds a NUL byte (invalidParams
  /// naming `field`).
  static func refuseNUL(_ text: String, field: String) throws(RPCError) {
    guard !text.utf8.contains(0) else { throw .invalidParams(field, "must not contain a NUL byte") }
  }

  /// Invalid params for a value larger than a configured size limit, naming the field and the
  /// limit.
  static func tooLargeError(_ field: String, key: String, max: Int) -> RPCError {
    RPCError(
      .invalidParams, "Invalid params: '\(field)' must be at most \(max) bytes (\(key)).",
      data: ["field": .string(field), "limit": .string(key), "max": .int(max)])
  }
}
