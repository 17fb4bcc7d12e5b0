import LocalAuthProtocol
import RightsStorage

/// How the rights store's failures reach the wire: pure mappings from `RightStoreError` to the
/// protocol's errors. A missing row is notFound (the client's errSecItemNotFound, -25300) and never
/// says whose row it was; a taken identifier is alreadyExists (errSecDuplicateItem, -25299).
enum StoreFailure {
  /// The message of a missing saved right.
  static let noSuchRight = "No persisted right with this identifier."
  /// The message of a persisted right removed (or replaced) since it was loaded.
  static let removedRight = "The persisted right was removed from the store."

  /// Maps a store failure of a right, key, secret or SSH key call.
  static func error(_ error: any Error, notFound: String = noSuchRight) -> RPCError {
    switch error as? RightStoreError {
    case .notFound?: return RPCError(.notFound, notFound, data: ["field": "identifier"])
    case .alreadyExists?:
      return RPCError(
        .alreadyExists, "A right is already saved under this identifier; remove it first.",
        data: ["name": "alreadyExists", "field": "identifier"])
    case .invalidArgument(let detail)?:
      return RPCError(.invalidParams, "Invalid params: \(detail).")
    case .limitReached(let quota, let limit)?: return quotaError(quota, limit)
    case .keyUnavailable(let detail)?: return keyUnavailable(detail)
    default:
      return RPCError(
        .internalError, "The rights store failed: \(error)", data: ["reason": "storeFailure"])
    }
  }

  /// Maps a handoff store failure: unknown and foreign ids look alike (notFound); a dead handoff is
  /// invalidContext (it can never be used again), an unauthorized one authenticationFailed (try
  /// later).
  static func handoffError(_ error: any Error) -> RPCError {
    switch error as? RightStoreError {
    case .notFound?: return RPCError(.notFound, "No such handoff.", data: ["field": "handoff"])
    case .expired?:
      return RPCError(
        .invalidContext, "The handoff has expired.",
        data: ["reason": "expired", "field": "handoff"])
    case .alreadyRedeemed?:
      return RPCError(
        .invalidContext, "The handoff was already redeemed; it can be redeemed only once.",
        data: ["reason": "alreadyRedeemed", "field": "handoff"])
    case .notAuthorized?:
      return RPCError(
        .authenticationFailed, "The handoff has not been authorized yet.",
        data: ["reason": "notAuthorized", "field": "handoff"])
    default: return self.error(error)
    }
  }

  /// A key that exists but cannot be used here (sealed to another TPM, its TPM gone or locked
  /// out): internalError with `data.reason: "keyUnavailable"` and the store's words for why.
  static func keyUnavailable(_ detail: String) -> RPCError {
    RPCError(
      .internalError, "The key cannot be used: \(detail).", data: ["reason": "keyUnavailable"])
  }

  /// The store's refusal at a per-uid count: limitExceeded naming the limit, with a reason.
  static func quotaError(_ quota: StoreQuota, _ limit: Int) -> RPCError {
    let (key, what, reason) =
      switch quota {
      case .handoffsPerUID:
        (StoreLimits.Key.maxHandoffsPerUID, "too many handoffs for this user", "tooManyHandoffs")
      case .savedRightsPerUID:
        (
          StoreLimits.Key.maxSavedRightsPerUID, "too many saved rights for this user",
          "tooManySavedRights"
        )
      case .sshKeysPerUID:
        (StoreLimits.Key.maxSSHKeysPerUID, "too many SSH keys for this user", "tooManySSHKeys")
      }
    var error = RPCError.limit(key, limit, what)
    error.data["reason"] = .string(reason)
    return error
  }
}
