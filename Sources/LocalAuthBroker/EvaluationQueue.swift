import LocalAuthProtocol

/// The machine-wide queue of evaluations waiting for the sensors (docs/protocol.md, "Evaluation
/// semantics"): its limits (`MaxQueue`, `MaxQueuePerClient`, `MaxQueuePerUID`), system evaluations
/// first, and the fair order across uids. A system evaluation counts against its requester (the
/// user who ran sudo or su), not root, whose client it comes from, and apart from that user's app
/// evaluations (`QueueParty`): one user's many sudos are held to that user's share and take turns
/// with other users' sudos, never ahead of them all, and no app of a user can fill or spend that
/// user's share for sudo. An evaluation for an account that another uid requested (bob's `su
/// alice`) is not started while that account has one of its own waiting (`Preemption`'s rule: the
/// owner's touch is meant for her own prompt). Owns the waiting evaluations and the counts behind the limits; a change to
/// who waits, how many, or who goes next goes here. Value type, held by the Broker actor.
struct EvaluationQueue {
  /// The limits, from the broker's configuration.
  struct Limits {
    /// Evaluations waiting in total (`MaxQueue`).
    var total: Int
    /// Per connection (`MaxQueuePerClient`).
    var perClient: Int
    /// Per uid, root's excepted (`MaxQueuePerUID`).
    var perUID: Int
  }

  /// The waiting evaluations, system evaluations first, then in arrival order.
  private(set) var waiting: [Evaluation] = []
  /// Waiting evaluations per party they count against (`Evaluation.queueParty`).
  private var queuedByParty: [QueueParty: Int] = [:]
  /// The turn at which each party last had an evaluation started.
  private var lastServedTurn: [QueueParty: Int] = [:]
  private var serveTurn = 0
  /// Waiting evaluations per owner that the owner asked for herself (`Preemption.Claim.isForeign`
  /// false): while one waits, no evaluation for that owner requested by another uid starts.
  private var ownWaitingByOwner: [UInt32: Int] = [:]

  /// How many evaluations wait.
  var count: Int { waiting.count }
  /// Whether none waits.
  var isEmpty: Bool { waiting.isEmpty }

  /// queueFull naming the limit one more evaluation of its client would pass, or nil when it fits.
  func refusal(for evaluation: Evaluation, limits: Limits) -> RPCError? {
    let client = evaluation.client
    let refusal: (String, Int)?
    if waiting.count >= limits.total {
      refusal = ("MaxQueue", limits.total)
    } else if client.queuedCount >= limits.perClient {
      refusal = ("MaxQueuePerClient", limits.perClient)
    } else if evaluation.queueParty.uid != 0,
      queuedByParty[evaluation.queueParty, default: 0] >= limits.perUID
    {
      refusal = ("MaxQueuePerUID", limits.perUID)
    } else {
      refusal = nil
    }
    guard let (key, max) = refusal else { return nil }
    return RPCError(
      .queueFull, "The evaluation queue is full (\(key)=\(max)).",
      data: [
        "requestID": .string(evaluation.requestID), "queued": .int(waiting.count),
        "limit": .string(key), "max": .int(max),
      ])
  }

  /// Queues an app evaluation last; returns its position (1-based).
  mutating func append(_ evaluation: Evaluation) -> Int {
    waiting.append(evaluation)
    count(evaluation, 1)
    return waiting.count
  }

  /// Queues a system evaluation after the system evaluations already waiting and ahead of every
  /// app evaluation; returns its position (1-based).
  mutating func insertSystem(_ evaluation: Evaluation) -> Int {
    let index = waiting.firstIndex { !$0.isSystem } ?? waiting.count
    waiting.insert(evaluation, at: index)
    count(evaluation, 1)
    return index + 1
  }

  /// Takes an evaluation out of the queue (it ended while waiting); false when it was not there.
  @discardableResult
  mutating func remove(_ evaluation: Evaluation) -> Bool {
    guard let index = waiting.firstIndex(where: { $0 === evaluation }) else { return false }
    waiting.remove(at: index)
    count(evaluation, -1)
    return true
  }

  /// Takes the next evaluation to run: a system evaluation first; otherwise the oldest one of the
  /// uid served longest ago, so one uid's backlog never makes another uid wait for more than one
  /// prompt per busy uid. An evaluation for an owner requested by another uid is passed over while
  /// that owner has one of her own waiting (which is never passed over, so one is always taken).
  /// Cheap when one uid has everything queued, linear in the queue at worst.
  mutating func popNext() -> Evaluation? {
    guard let index = nextIndex() else { return nil }
    let next = waiting.remove(at: index)
    count(next, -1)
    return next
  }

  /// Records that an evaluation starts running (the fair order's clock).
  mutating func started(_ evaluation: Evaluation) {
    serveTurn += 1
    lastServedTurn[evaluation.queueParty] = serveTurn
  }

  /// The oldest waiting evaluation of the uid served longest ago, among the system evaluations
  /// when any may start (they lead the queue), else among all; an evaluation that `waitsForOwner`
  /// is never chosen.
  private func nextIndex() -> Int? {
    guard let first = waiting.first else { return nil }
    // One party: nothing to be fair about, and nothing waits for an owner (an owner's own
    // evaluations and another uid's for her are always of two parties).
    guard queuedByParty.count > 1 else { return 0 }
    let systemEnd = first.isSystem ? (waiting.firstIndex { !$0.isSystem } ?? waiting.count) : 0
    // Past the system evaluations only when none of them may start (each waits for its owner).
    return fairest(in: 0..<systemEnd) ?? fairest(in: systemEnd..<waiting.count)
  }

  /// The oldest evaluation in `range` of the party served longest ago that may start now.
  private func fairest(in range: Range<Int>) -> Int? {
    var chosen: Int? = nil
    var chosenServed = Int.max
    for index in range where !waitsForOwner(waiting[index]) {
      let served = lastServedTurn[waiting[index].queueParty] ?? -1
      if served < chosenServed {
        chosen = index
        chosenServed = served
      }
    }
    return chosen
  }

  /// Whether `evaluation` was requested by another uid than its owner while the owner has an
  /// evaluation of her own waiting.
  private func waitsForOwner(_ evaluation: Evaluation) -> Bool {
    let claim = evaluation.claim
    return claim.isForeign && ownWaitingByOwner[evaluation.owner.uid] != nil
  }

  /// Books a queue slot (or its release) against the client and its party.
  private mutating func count(_ evaluation: Evaluation, _ delta: Int) {
    evaluation.client.queuedCount += delta
    let party = evaluation.queueParty
    let count = queuedByParty[party, default: 0] + delta
    queuedByParty[party] = count > 0 ? count : nil
    guard !evaluation.claim.isForeign else { return }
    let owner = evaluation.owner.uid
    let own = ownWaitingByOwner[owner, default: 0] + delta
    ownWaitingByOwner[owner] = own > 0 ? own : nil
  }
}

/// Who a waiting evaluation counts against for `MaxQueuePerUID` and the fair order: a uid, and
/// whether for its system evaluations (sudo, su) or its apps'. The two are apart, so a user's apps
/// can neither fill that user's share for sudo nor push its sudo behind other users' by being
/// served. Immutable value.
struct QueueParty: Hashable {
  /// The requester of a system evaluation (root's PAM module names who ran sudo or su), else the
  /// client's uid.
  let uid: UInt32
  /// Whether the party's evaluations are system evaluations.
  let system: Bool
}

extension Evaluation {
  /// The party the queue's per-uid limit and fair order count this evaluation against.
  var queueParty: QueueParty {
    if let system { return QueueParty(uid: system.requester, system: true) }
    return QueueParty(uid: client.peer.uid, system: false)
  }
}
