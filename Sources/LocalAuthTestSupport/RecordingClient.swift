import Foundation
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthProtocol
import Sensors

/// A test client of the broker: records every notification and response it gets and lets a test
/// await them without sleeping and without blocking a thread. Thread-safe.
public final class RecordingClient: ClientChannel, Sendable {
  /// Something the broker sent.
  public enum Message: Sendable, Equatable {
    /// A notification.
    case notification(String, JSONObject)
    /// A deferred response to the request with this tag.
    case response(tag: Int, Result<JSONValue, RPCError>)
  }

  private struct Waiter {
    let predicate: @Sendable ([Message]) -> Bool
    let continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var messages: [Message] = []
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
  }

  private let state = StateLock(State())

  /// An empty recorder.
  public init() {}

  /// Records a notification.
  public func notify(_ method: String, _ params: JSONObject) {
    append(.notification(method, params))
  }

  func append(_ message: Message) {
    let satisfied = state.withLock { s in
      s.messages.append(message)
      let ready = s.waiters.filter { $0.value.predicate(s.messages) }
      for id in ready.keys { s.waiters[id] = nil }
      return Array(ready.values)
    }
    for waiter in satisfied { waiter.continuation.resume(returning: true) }
  }

  /// Everything received so far.
  public var received: [Message] { state.withLock { $0.messages } }

  /// The responses to the request with this tag (a correct broker sends exactly one).
  public func responses(tag: Int) -> [Result<JSONValue, RPCError>] {
    received.compactMap { if case .response(tag, let r) = $0 { return r } else { return nil } }
  }

  /// The notifications with this method.
  public func notifications(_ method: String) -> [JSONObject] {
    received.compactMap {
      if case .notification(method, let p) = $0 { return p } else { return nil }
    }
  }

  /// A responder that records the answer under `tag`.
  public func responder(tag: Int) -> any Responder { TaggedResponder(client: self, tag: tag) }

  /// Waits until the predicate holds over the received messages, or a generous timeout (scaled by
  /// LOCALAUTHD_TEST_TIMEOUT_SCALE) passes; returns whether it held.
  @discardableResult
  public func wait(seconds: Double = 10, until predicate: @escaping @Sendable ([Message]) -> Bool)
    async -> Bool
  {
    let id = state.withLock { s in
      s.nextWaiter += 1
      return s.nextWaiter
    }
    let timer = Task {
      try? await Task.sleep(for: .milliseconds(Int(TestTimeout.seconds(seconds) * 1000)))
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.continuation.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let holds = state.withLock { s in
        if predicate(s.messages) { return true }
        s.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
        return false
      }
      if holds { continuation.resume(returning: true) }
    }
  }

  /// Waits for the response to a tag and returns it.
  public func waitForResponse(tag: Int, seconds: Double = 10) async -> Result<JSONValue, RPCError>?
  {
    await wait(seconds: seconds) { messages in
      messages.contains { if case .response(tag, _) = $0 { return true } else { return false } }
    }
    return responses(tag: tag).first
  }
}

private struct TaggedResponder: Responder {
  let client: RecordingClient
  let tag: Int
  /// Records the answer as the server would encode it (its result's JSON).
  func respond(_ result: BrokerAnswer) {
    client.append(.response(tag: tag, result.map(\.json)))
  }
}
