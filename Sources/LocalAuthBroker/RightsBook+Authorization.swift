import LocalAuthProtocol
import RightsStorage

/// An LARight (or an LAPersistedRight loaded from the store) held by one client: its requirement,
/// state and, for biometryCurrentSet, the enrolled set it is bound to. Its state changes only
/// through the rights book's transitions. Broker-isolated.
final class AuthRight {
  /// The handle on the wire.
  let id: String
  /// What authorizing it requires.
  let requirement: RightRequirement
  /// The stored right behind this handle; nil for a plain right.
  let persisted: PersistedRightRecord?
  /// The domain state hash a biometryCurrentSet right is bound to (nil: not bound yet).
  fileprivate(set) var boundDomainState: String?
  /// LARight.State, as sent in `right.state` and `right.stateChanged`.
  fileprivate(set) var state: String
  /// The request id of the authorization in flight, if any.
  fileprivate(set) var authorizing: String?

  init(
    id: String, requirement: RightRequirement, persisted: PersistedRightRecord? = nil,
    boundDomainState: String?, state: String = RightStateName.unknown
  ) {
    self.id = id
    self.requirement = requirement
    self.persisted = persisted
    self.boundDomainState = requirement == .biometryCurrentSet ? boundDomainState : nil
    self.state = state
  }

  /// Whether the right is authorized now.
  var isAuthorized: Bool { state == RightStateName.authorized }

  /// Moves to `state`; the change to tell, or nil when it was already there.
  fileprivate func move(to state: String) -> RightStateChange? {
    guard self.state != state else { return nil }
    self.state = state
    return RightStateChange(right: id, state: state)
  }

  /// Deauthorized without a word: its client is gone.
  func drop() {
    authorizing = nil
    state = RightStateName.notAuthorized
  }
}

/// A right's new state, for the broker to tell its client (`right.stateChanged`).
struct RightStateChange: Equatable {
  /// The right's handle.
  let right: String
  /// Its new state.
  let state: String
}

/// What `right.authorize` does after its checks.
enum AuthorizationStep: Equatable {
  /// The right is authorized already: answered at once, no prompt.
  case authorized
  /// The right is now authorizing: run its evaluation; `previous` is the state to restore if it
  /// cannot start.
  case evaluate(previous: String)
}

extension RightsBook {
  /// Whether a biometryCurrentSet right's enrolled set has changed since it was bound
  /// (`currentSet`: the client's owner's domain state now, asked only when it matters).
  func enrolledSetChanged(_ right: AuthRight, currentSet: () -> String?) -> Bool {
    guard right.requirement == .biometryCurrentSet, let bound = right.boundDomainState else {
      return false
    }
    return currentSet() != bound
  }

  /// Drops an authorization the enrolled set no longer backs; call before reading or using a
  /// right.
  func revalidate(_ right: AuthRight, currentSet: () -> String?) -> RightStateChange? {
    guard right.isAuthorized && enrolledSetChanged(right, currentSet: currentSet) else {
      return nil
    }
    return right.move(to: RightStateName.notAuthorized)
  }

  /// Begins `right.authorize` (after `revalidate`): a right already being authorized is
  /// alreadyInProgress; one whose enrolled set changed becomes notAuthorized and is
  /// invalidContext; an authorized one needs no prompt; any other becomes authorizing.
  func beginAuthorization(_ right: AuthRight, currentSet: () -> String?) -> (
    change: RightStateChange?, step: Result<AuthorizationStep, RPCError>
  ) {
    if let busy = right.authorizing {
      let error = RPCError(
        .alreadyInProgress, "The right is already being authorized.",
        data: ["requestID": .string(busy)])
      return (nil, .failure(error))
    }
    if enrolledSetChanged(right, currentSet: currentSet) {
      return (
        right.move(to: RightStateName.notAuthorized), .failure(enrolledSetChangedError(right))
      )
    }
    if right.isAuthorized { return (nil, .success(.authorized)) }
    let previous = right.state
    return (right.move(to: RightStateName.authorizing), .success(.evaluate(previous: previous)))
  }

  /// The authorization's evaluation could not start: the right goes back to `previous`.
  func abandonAuthorization(_ right: AuthRight, previous: String) -> RightStateChange? {
    right.move(to: previous)
  }

  /// The authorization's evaluation waits or runs under `requestID` (nil: it answered at once).
  func authorizing(_ right: AuthRight, requestID: String?) { right.authorizing = requestID }

  /// Ends an authorization with its evaluation's outcome: authorized after a success the enrolled
  /// set still backs (binding a biometryCurrentSet right made before any set), else notAuthorized
  /// and the error.
  func finishAuthorization(
    _ right: AuthRight, _ outcome: EvaluationOutcome, currentSet: () -> String?
  ) -> (change: RightStateChange?, result: EvaluationOutcome) {
    right.authorizing = nil
    guard case .success = outcome else {
      return (right.move(to: RightStateName.notAuthorized), outcome)
    }
    if enrolledSetChanged(right, currentSet: currentSet) {
      return (
        right.move(to: RightStateName.notAuthorized), .failure(enrolledSetChangedError(right))
      )
    }
    if right.requirement == .biometryCurrentSet && right.boundDomainState == nil {
      right.boundDomainState = currentSet()
    }
    return (right.move(to: RightStateName.authorized), outcome)
  }

  /// Leaves the right notAuthorized with no authorization in flight (the broker ends that
  /// evaluation first, with appCancel).
  func deauthorize(_ right: AuthRight) -> RightStateChange? {
    right.authorizing = nil
    return right.move(to: RightStateName.notAuthorized)
  }

  /// Refuses a right whose enrolled set changed (`right.checkCanAuthorize`, after `revalidate`).
  func checkEnrolledSet(_ right: AuthRight, currentSet: () -> String?) throws(RPCError) {
    if enrolledSetChanged(right, currentSet: currentSet) { throw enrolledSetChangedError(right) }
  }

  /// The store row behind a persisted right; invalidParams for a plain right.
  func persisted(_ right: AuthRight) throws(RPCError) -> PersistedRightRecord {
    guard let record = right.persisted else { throw Self.notPersistedError() }
    return record
  }

  /// Refuses a right that is not authorized now (after `revalidate`): key, secret and save calls
  /// never prompt.
  func checkAuthorized(_ right: AuthRight, currentSet: () -> String?) throws(RPCError) {
    guard right.isAuthorized else {
      if enrolledSetChanged(right, currentSet: currentSet) { throw enrolledSetChangedError(right) }
      throw RPCError(
        .authenticationFailed, "The right is not authorized; call right.authorize first.",
        data: ["reason": "notAuthorized", "right": .string(right.id)])
    }
  }

  /// The enrolled set a saved biometryCurrentSet right is bound to: its own, or the current one
  /// when it was never authorized; nil for any other requirement.
  func setToSave(_ right: AuthRight, currentSet: () -> String?) -> String? {
    right.requirement == .biometryCurrentSet ? right.boundDomainState ?? currentSet() : nil
  }

  /// The error for a biometryCurrentSet right whose enrolled set changed: Apple documents that the
  /// authorization fails but not with which code; localauthd answers invalidContext.
  func enrolledSetChangedError(_ right: AuthRight) -> RPCError {
    RPCError(
      .invalidContext,
      "The set of enrolled biometric identities changed; this biometryCurrentSet right can no longer be authorized.",
      data: ["reason": "biometrySetChanged", "right": .string(right.id)])
  }

  /// The error for a plain right passed where a persisted one is needed.
  static func notPersistedError() -> RPCError {
    .invalidParams(
      "right",
      "is a plain right; key, secret and remove calls need a persisted right "
        + "(from rightStore.saveRight or rightStore.right)")
  }
}
