import LocalAuthConcurrency
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthBroker

/// `EvaluationQueue` on its own: its three limits, system evaluations first, and the fair order
/// across uids.
@Suite struct EvaluationQueueTests {
  static let limits = EvaluationQueue.Limits(total: 4, perClient: 2, perUID: 3)

  static func client(uid: UInt32, number: Int) -> ClientSession {
    ClientSession(
      number: number, peer: PeerIdentity(pid: Int32(number), uid: uid, gid: uid),
      isAdmin: false, name: "c\(number)", channel: RecordingClient(), loop: LoopThread())
  }

  static func evaluation(_ client: ClientSession, _ id: String, system: Bool = false)
    -> Evaluation
  {
    let evaluation = Evaluation(
      requestID: id, client: client,
      context: AuthContext(id: "ctx-" + id, options: ContextOptions(), explicit: false),
      policy: .deviceOwnerAuthentication, reason: "test",
      owner: SensorOwner(uid: client.peer.uid, name: "u"), rpcID: nil)
    if system { evaluation.system = SystemRequest(requester: client.peer.uid) }
    return evaluation
  }

  @Test func eachLimitIsNamed() {
    var queue = EvaluationQueue()
    let a1 = Self.client(uid: 1000, number: 1)
    let a2 = Self.client(uid: 1000, number: 2)
    let b = Self.client(uid: 2000, number: 3)
    _ = queue.append(Self.evaluation(a1, "1"))
    _ = queue.append(Self.evaluation(a1, "2"))
    #expect(
      queue.refusal(for: Self.evaluation(a1, "3"), limits: Self.limits)?.data["limit"]
        == "MaxQueuePerClient")
    _ = queue.append(Self.evaluation(a2, "4"))
    let perUID = queue.refusal(for: Self.evaluation(a2, "5"), limits: Self.limits)
    #expect(perUID?.code == .queueFull)
    #expect(perUID?.data["limit"] == "MaxQueuePerUID")
    #expect(perUID?.data["requestID"] == "5")
    _ = queue.append(Self.evaluation(b, "6"))
    #expect(
      queue.refusal(for: Self.evaluation(b, "7"), limits: Self.limits)?.data["limit"] == "MaxQueue")
    // Root is bounded in total and per connection only.
    var roomy = EvaluationQueue()
    let root = Self.client(uid: 0, number: 4)
    for index in 0..<3 {
      _ = roomy.append(Self.evaluation(Self.client(uid: 0, number: 10 + index), "r\(index)"))
    }
    #expect(roomy.refusal(for: Self.evaluation(root, "r"), limits: Self.limits) == nil)
  }

  /// Hostile: a user's apps can neither fill that user's share of the queue for sudo nor, by being
  /// served, put that user's sudo behind another user's su.
  @Test func aUsersAppsNeitherFillNorSpendThatUsersSudoShare() throws {
    var queue = EvaluationQueue()
    let limits = EvaluationQueue.Limits(total: 100, perClient: 100, perUID: 2)
    let app = Self.client(uid: 1000, number: 1)
    let module = Self.client(uid: 0, number: 2)
    func sudo(requester: UInt32, _ id: String) -> Evaluation {
      let evaluation = Self.evaluation(module, id)
      evaluation.system = SystemRequest(requester: requester)
      return evaluation
    }
    let served = Self.evaluation(app, "served")
    _ = queue.append(served)
    #expect(queue.popNext() === served)
    queue.started(served)
    _ = queue.append(Self.evaluation(app, "a1"))
    _ = queue.append(Self.evaluation(app, "a2"))
    #expect(
      queue.refusal(for: Self.evaluation(app, "a3"), limits: limits)?.data["limit"]
        == "MaxQueuePerUID")
    let alicesSudo = sudo(requester: 1000, "sudo")
    #expect(queue.refusal(for: alicesSudo, limits: limits) == nil)
    _ = queue.insertSystem(alicesSudo)
    _ = queue.insertSystem(sudo(requester: 2000, "su"))
    #expect(queue.popNext()?.requestID == "sudo")
  }

  @Test func removingFreesTheSlots() {
    var queue = EvaluationQueue()
    let a = Self.client(uid: 1000, number: 1)
    let first = Self.evaluation(a, "1")
    _ = queue.append(first)
    _ = queue.append(Self.evaluation(a, "2"))
    #expect(a.queuedCount == 2)
    let removed = queue.remove(first)
    let again = queue.remove(first)
    #expect(removed && !again)
    #expect(a.queuedCount == 1)
    #expect(queue.refusal(for: Self.evaluation(a, "3"), limits: Self.limits) == nil)
  }

  @Test func systemEvaluationsGoFirstInTheirOrder() {
    var queue = EvaluationQueue()
    let app = Self.client(uid: 1000, number: 1)
    let pam = Self.client(uid: 0, number: 2)
    #expect(queue.append(Self.evaluation(app, "app")) == 1)
    #expect(queue.insertSystem(Self.evaluation(pam, "sys1", system: true)) == 1)
    #expect(queue.insertSystem(Self.evaluation(pam, "sys2", system: true)) == 2)
    #expect(queue.waiting.map(\.requestID) == ["sys1", "sys2", "app"])
    var order: [String] = []
    while let next = queue.popNext() { order.append(next.requestID) }
    #expect(order == ["sys1", "sys2", "app"])
  }

  @Test func theUidServedLongestAgoGoesNext() {
    var queue = EvaluationQueue()
    let busy = Self.client(uid: 1000, number: 1)
    let other = Self.client(uid: 2000, number: 2)
    let running = Self.evaluation(busy, "b0")
    queue.started(running)
    _ = queue.append(Self.evaluation(busy, "b1"))
    _ = queue.append(Self.evaluation(busy, "b2"))
    _ = queue.append(Self.evaluation(other, "o1"))
    // uid 2000 was never served: it goes before uid 1000's backlog.
    let next = queue.popNext()
    #expect(next?.requestID == "o1")
    if let next { queue.started(next) }
    let after = queue.popNext()
    #expect(after?.requestID == "b1")
    #expect(queue.count == 1)
  }
}
