/// Which running evaluation an arriving one ends, and why (docs/protocol.md, "Evaluation
/// semantics"): a system evaluation ends a running app evaluation, as Apple's system alerts do;
/// with `Overlap=preempt` an app evaluation ends its own uid's running one, as iOS does. A running
/// system evaluation is never ended, and another user's evaluation waits instead. A system
/// evaluation for another account (su, polkit: its requester is not its owner) waits for that
/// account's own running prompt instead of ending it: the owner's touch, meant for that prompt,
/// must not answer another user's su.
enum Preemption {
  /// Who holds the prompt, or asks for it.
  struct Claim: Equatable {
    /// A system evaluation (root acting for an owner).
    let isSystem: Bool
    /// The requesting client's uid.
    let uid: UInt32
    /// The uid whose presence is asked for (nil: not known here).
    var owner: UInt32? = nil
    /// A system evaluation's requester, the user who ran sudo or su.
    var requester: UInt32? = nil
  }

  /// The `reason` of the systemCancel that ends `running` when `arriving` comes, or nil when the
  /// arriving evaluation waits.
  static func reason(ending running: Claim, for arriving: Claim, overlap: OverlapMode) -> String? {
    guard !running.isSystem else { return nil }
    if arriving.isSystem {
      if let owner = arriving.owner, arriving.requester != owner, running.owner == owner {
        return nil
      }
      return "systemAuthentication"
    }
    guard overlap == .preempt, running.uid == arriving.uid else { return nil }
    return "canceledByAnotherAuthentication"
  }
}

extension Evaluation {
  /// The evaluation as preemption sees it.
  var claim: Preemption.Claim {
    Preemption.Claim(
      isSystem: isSystem, uid: client.peer.uid, owner: owner.uid, requester: system?.requester)
  }
}
