import LocalAuthProtocol

extension LARightStoreError: CustomNSError, LocalizedError {
  /// `NSOSStatusErrorDomain`, where Apple's keychain reports its result codes.
  public static var errorDomain: String { NSOSStatusErrorDomain }
  /// The Security result code (`errSecItemNotFound` -25300, `errSecDuplicateItem` -25299).
  public var errorCode: Int { Int(status) }
  /// The daemon's message, and its JSON-RPC error's name under "name".
  public var errorUserInfo: [String: Any] {
    [NSLocalizedDescriptionKey: message, "name": rpcError.code.name]
  }
  /// The daemon's message.
  public var errorDescription: String? { message }

  /// The error as an `NSError` in `NSOSStatusErrorDomain`.
  public var nsError: NSError {
    NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
  }

  /// The store error an `NSError` stands for: `NSOSStatusErrorDomain` with one of the two codes.
  init?(bridging error: NSError) {
    guard error.domain == Self.errorDomain else { return nil }
    let code: ErrorCode
    switch Int32(truncatingIfNeeded: error.code) {
    case errSecItemNotFound: code = .notFound
    case errSecDuplicateItem: code = .alreadyExists
    default: return nil
    }
    self.init(RPCError(code, error.userInfo[NSLocalizedDescriptionKey] as? String))!
  }
}

// Bridging, so `catch let error as NSError` matches a thrown LARightStoreError on Linux too (the
// runtime's `_ObjectiveCBridgeable` casts; a plain CustomNSError is not matched there).
extension LARightStoreError: _ObjectiveCBridgeable {
  /// The `NSError` form.
  public func _bridgeToObjectiveC() -> NSError { nsError }

  /// The store error an `NSError` stands for; traps when it is not one (a forced cast).
  public static func _forceBridgeFromObjectiveC(
    _ source: NSError, result: inout LARightStoreError?
  ) {
    guard let bridged = LARightStoreError(bridging: source) else {
      preconditionFailure("LARightStoreError from \(source.domain) code \(source.code)")
    }
    result = bridged
  }

  /// The store error an `NSError` stands for, or false when it is not one (`as?`).
  public static func _conditionallyBridgeFromObjectiveC(
    _ source: NSError, result: inout LARightStoreError?
  ) -> Bool {
    result = LARightStoreError(bridging: source)
    return result != nil
  }

  /// The store error an `NSError` stands for; anything else becomes "not found".
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?)
    -> LARightStoreError
  {
    source.flatMap { LARightStoreError(bridging: $0) }
      ?? LARightStoreError(RPCError(.notFound, source?.localizedDescription))!
  }
}
