import LocalAuthConcurrency
import LocalAuthProtocol
import Sensors

/// A connection registered as the prompt agent of its own uid, as polkit's agents are: for the user, for
/// one logind session, or for one process. Broker-isolated.
final class PromptAgent {
  /// Which evaluations of its user the agent shows.
  enum Scope: Equatable {
    /// Every evaluation of the user.
    case user
    /// Evaluations from clients in this logind session.
    case session(String)
    /// Evaluations from this process.
    case process(Int32)

    /// How specific the scope is: the most specific agent shows a prompt.
    var rank: Int {
      switch self {
      case .process: 2
      case .session: 1
      case .user: 0
      }
    }

    /// The scope's name on the wire: user, session or process.
    var kind: String {
      switch self {
      case .user: "user"
      case .session: "session"
      case .process: "process"
      }
    }

    var json: JSONValue {
      switch self {
      case .user: ["kind": "user"]
      case .session(let id): ["kind": "session", "session": .string(id)]
      case .process(let pid): ["kind": "process", "pid": .int(Int(pid))]
      }
    }
  }

  let id: String
  let connection: ClientSession
  let scope: Scope
  let number: Int
  /// When it registered, in seconds since the epoch (agent.list).
  let since: Int64

  init(id: String, connection: ClientSession, scope: Scope, number: Int, since: Int64) {
    self.id = id
    self.connection = connection
    self.scope = scope
    self.number = number
    self.since = since
  }

  var uid: UInt32 { connection.peer.uid }
  /// The agent's process (SO_PEERCRED).
  var pid: Int32 { connection.peer.pid }
}

/// The person's answers from an agent to one evaluation, waiting for the capture in progress.
/// Thread-safe (a `StateLock`, which ThreadSanitizer understands, unlike `Mutex`): the broker puts
/// answers, a capture task takes them.
final class AgentAnswers: Sendable {
  /// What the person did.
  enum Answer: Sendable, Equatable {
    case cancel
    case fallback
    case passcode(String)
  }

  /// Answers held at most before the agent is told to wait.
  static let limit = 4

  private struct State {
    var pending: [Answer] = []
    var waiter: CheckedContinuation<Answer, any Error>?
    var waiterID = 0
    var cancelledWaiters: Set<Int> = []
  }

  private let state = StateLock(State())

  // A typed passcode or password kept but never taken (the prompt ended first) is zeroed with
  // the evaluation: it is the broker's own copy (`SecretWipe.ownedCopy`), shared with no one.
  deinit {
    for case .passcode(let text) in state.withLock({ $0.pending }) { SecretWipe.wipe(text) }
  }

  /// Hands an answer to the waiting capture, or keeps it for the next; false when `limit` are already kept.
  func put(_ answer: Answer) -> Bool {
    enum Outcome {
      case hand(CheckedContinuation<Answer, any Error>)
      case kept
      case full
    }
    let outcome: Outcome = state.withLock { s in
      if let waiter = s.waiter {
        s.waiter = nil
        return .hand(waiter)
      }
      guard s.pending.count < Self.limit else { return .full }
      s.pending.append(answer)
      return .kept
    }
    switch outcome {
    case .hand(let waiter):
      waiter.resume(returning: answer)
      return true
    case .kept: return true
    case .full: return false
    }
  }

  /// Waits for the next answer; throws `CancellationError` when the waiting task is cancelled.
  func next() async throws -> Answer {
    let id = state.withLock { s in
      s.waiterID += 1
      return s.waiterID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Answer, any Error>) in
        enum Verdict {
          case ready(Answer)
          case cancelled
          case waiting
        }
        let verdict: Verdict = state.withLock { s in
          if s.cancelledWaiters.remove(id) != nil { return .cancelled }
          if !s.pending.isEmpty { return .ready(s.pending.removeFirst()) }
          s.waiter = continuation
          return .waiting
        }
        switch verdict {
        case .ready(let answer): continuation.resume(returning: answer)
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .waiting: break
        }
      }
    } onCancel: {
      let waiter: CheckedContinuation<Answer, any Error>? = state.withLock { s in
        if s.waiterID == id, let waiter = s.waiter {
          s.waiter = nil
          return waiter
        }
        s.cancelledWaiters.insert(id)
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}
