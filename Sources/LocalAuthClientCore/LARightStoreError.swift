import LocalAuthProtocol

/// The Security framework's result code type (Apple's `OSStatus`); Linux has no Security framework.
public typealias OSStatus = Int32

/// "The item cannot be found." (Apple's Security result code): a persisted right that is not there.
public let errSecItemNotFound: OSStatus = -25300

/// "The item already exists." (Apple's Security result code): `saveRight` over a taken identifier.
public let errSecDuplicateItem: OSStatus = -25299

/// What `LARightStore` throws for an identifier that is not there (`errSecItemNotFound`) or is
/// taken (`errSecDuplicateItem`). Apple documents no codes for these; its rights live in the
/// keychain, whose documented codes these are, so `error as NSError` is in
/// `NSOSStatusErrorDomain` with that status, and the daemon's message. Immutable.
public struct LARightStoreError: Error, Sendable, Equatable {
  /// The Security result code.
  public let status: OSStatus
  /// The daemon's answer behind it (`notFound` -32004 or `alreadyExists` -32005).
  public let rpcError: RPCError

  /// The daemon's message ("No persisted right with this identifier.", …).
  public var message: String { rpcError.message }

  /// The store error a daemon answer stands for, or nil when it is not a missing or taken
  /// identifier.
  public init?(_ error: RPCError) {
    switch error.code {
    case .notFound: status = errSecItemNotFound
    case .alreadyExists: status = errSecDuplicateItem
    default: return nil
    }
    rpcError = error
  }

  /// Runs one store call, turning the daemon's `code` (notFound for the identifier, or
  /// alreadyExists) into a `LARightStoreError`; other errors pass unchanged (a save's notFound
  /// names an unknown right handle, not the identifier).
  static func mapping<Value>(_ code: ErrorCode, _ call: () async throws -> Value) async throws
    -> Value
  {
    do {
      return try await call()
    } catch let error as RPCError where error.code == code {
      throw LARightStoreError(error) ?? error
    }
  }
}
