import LocalAuthProtocol
import Sensors

/// What makes an evaluation a system evaluation: root (or an admin) acting for an owner with `user`,
/// as pam_localauthd does for sudo, su and polkit. The daemon, not the client, decides its evidence.
struct SystemRequest: Equatable {
  /// The uid that asked (`requester`, the PAM caller's real uid); the owner's own uid without it.
  let requester: UInt32
}

extension Evaluation {
  /// Whether this is a system evaluation (biometric-only, never shown to agents, first in the queue).
  var isSystem: Bool { system != nil }
}

extension Broker {
  /// The system request an evaluatePolicy or canEvaluatePolicy carries, or nil for an app evaluation.
  /// `requester` is root's alone; `user` from root or an admin makes a system evaluation, which device
  /// mode refuses (one owner cannot stand for the person sudo asks about).
  func systemRequest(_ params: ParamReader, client: ClientSession, owner: UInt32)
    throws(RPCError) -> SystemRequest?
  {
    let requester = try requesterParam(params, client: client)
    guard client.isAdmin, let raw = params.object["user"], raw != .null else {
      if requester != nil {
        throw .invalidParams("requester", "is meaningful only with 'user'")
      }
      return nil
    }
    guard configuration.ownerMode == .perUser else {
      throw RPCError(
        .permissionDenied,
        "Owners=device: the daemon does not authenticate for other users (system authentication needs Owners=user).",
        data: ["field": "user", "reason": "deviceOwnerMode"])
    }
    return SystemRequest(requester: requester ?? owner)
  }

  /// The optional `requester` uid: permissionDenied for anyone but root.
  private func requesterParam(_ params: ParamReader, client: ClientSession) throws(RPCError)
    -> UInt32?
  {
    guard let raw = params.object["requester"], raw != .null else { return nil }
    guard client.peer.uid == 0 else {
      throw RPCError(
        .permissionDenied, "Permission denied: only root may name the requester.",
        data: ["field": "requester"])
    }
    guard let number = raw.intValue, (0...Int(UInt32.max - 1)).contains(number) else {
      throw .invalidParams("requester", "must be a uid (an integer)")
    }
    return UInt32(number)
  }

  /// Whether a system evaluation could run now: the owner's biometry (enrolled, connected, not locked
  /// out; no passcode needed) and a requester who is not locked out.
  func systemAvailability(owner: UInt32, _ system: SystemRequest) -> Result<Void, RPCError> {
    if case .failure(let code) = biometryAvailability(owner: owner, needsPasscode: false) {
      return .failure(RPCError(code))
    }
    if system.requester != owner, ownerState(system.requester).biometryLockedOut {
      return .failure(
        RPCError(
          .biometryLockout, "Biometry is locked out for the requesting user.",
          data: ["reason": "requesterLockedOut", "requester": .int(Int(system.requester))]))
    }
    return .success(())
  }
}
