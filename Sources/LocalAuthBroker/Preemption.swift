/// Which running evaluation an arriving one ends, and why (docs/protocol.md, "Evaluation
/// semantics"): a system evaluation ends a running app evaluation, as Apple's system alerts do;
/// with `Overlap=preempt` an app evaluation ends its own uid's running one, as iOS does. A running
/// system evaluation is never ended, and another user's evaluation waits instead, with one
/// exception: an account's own evaluation ends one for that account that someone else requested.
///
/// The rule behind the exception and the account rules (docs/limits-and-threat-model.md, "A touch
/// answers the prompt its person sees"): a capture that user U gives while a prompt of hers is
/// shown, or about to be, never answers an evaluation for U that another uid requested. So
/// - U's own evaluation (her sudo, her app) ends a running evaluation for U requested by another
///   uid (bob's `su alice`), with `reason: "ownerAuthentication"`;
/// - an evaluation for U requested by another uid never ends U's own running prompt (it waits);
/// - and it is not started while U has one of her own waiting (`EvaluationQueue`).
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

    /// Whether this is a system evaluation for its owner that another uid asked for (bob's `su
    /// alice`, polkit for another account). App evaluations are never foreign: with `Owners=user`
    /// an app asks for its own uid's presence, and with `Owners=device` every uid's apps ask the
    /// device's one owner, as every app on a Mac asks the same person (and system evaluations
    /// are refused there).
    var isForeign: Bool {
      guard isSystem, let owner else { return false }
      return owner != (requester ?? uid)
    }
  }

  /// The `reason` of the systemCancel that ends `running` when `arriving` comes, or nil when the
  /// arriving evaluation waits.
  static func reason(ending running: Claim, for arriving: Claim, overlap: OverlapMode) -> String? {
    if running.isForeign, !arriving.isForeign, let owner = running.owner, arriving.owner == owner {
      return "ownerAuthentication"
    }
    guard !running.isSystem else { return nil }
    if arriving.isSystem {
      if arriving.isForeign, running.owner == arriving.owner { return nil }
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
