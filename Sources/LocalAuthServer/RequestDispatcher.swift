import Glibc
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthCrypto
import LocalAuthProtocol
import Sensors

/// Turns frames into broker calls and answers into lines: single requests, batches, the
/// duplicate-id rule and the frame limit (docs/protocol.md, "Transport and framing"). Loop thread
/// only.
struct RequestDispatcher {
  let broker: Broker

  /// Params storage kept for the next request holds at most this many members.
  static let spareMembersCapacity = 16

  func handle(_ frame: LineFramer.FrameView, on connection: Connection) {
    switch frame {
    case .tooLarge:
      let error = RPCError.invalidRequest(
        "Invalid request: frame longer than \(connection.server.limits.frameLimit) bytes.",
        reason: "frameTooLarge")
      connection.write(RPCEncoder.error(id: .null, error))
    case .line(let bytes):
      // The hottest request in the spelling clients send: its fields are read straight from the
      // bytes and the broker answers without a route or a params object (docs/performance.md).
      if let question = CanEvaluatePolicyFrame(bytes) {
        answer(question, on: connection)
        return
      }
      if bytes.isEmpty || bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
      // The common frame, one plain request, goes straight to the broker: wrapping it in an
      // `IncomingFrame` only to take it out again copied and released it twice (~1,000
      // instructions a request; docs/performance.md).
      let server = connection.server
      var spare: [JSONMember] = []
      swap(&spare, &server.spareMembers)
      if var request = JSONParser.plainRequest(
        buffer: bytes, maxDepth: JSONParser.defaultMaxDepth, reusing: &spare)
      {
        handle(request, on: connection)
        if Self.mayCarrySecret(request.method) {
          if request.method == AgentRespondRequest.method
            || request.method == KeepPasswordRequest.method
          {
            wipeSecret(of: &request, frame: bytes)
          }
          // A short password is a small string, copied by value into the frames that handled it.
          if request.method.hasPrefix("login.") { StackScrub.scrub() }
        }
        // Answered, or kept by its handler as it needs: this copy's params storage, emptied,
        // serves the next request (a handler that kept the params keeps its own storage). A
        // request without params left the spare untaken.
        var taken = request.params.members
        request.params = JSONObject()
        if taken.capacity > 0 { swap(&spare, &taken) }
        if spare.capacity <= Self.spareMembersCapacity {
          // Member by member: cheaper than `removeAll(keepingCapacity:)` for a handful.
          while spare.popLast() != nil {}
          swap(&spare, &server.spareMembers)
        }
        return
      }
      swap(&spare, &server.spareMembers)
      switch IncomingFrame.decodeInGeneral(buffer: bytes, maxDepth: JSONParser.defaultMaxDepth) {
      case .single(let decoded):
        handleSingle(decoded, on: connection)
      case .batch(let elements):
        handleBatch(elements, on: connection)
      }
    }
  }

  /// Whether `method` may be one whose params or answer carry a secret (`agent.respond`,
  /// `login.*`): those start with `a` or `l`, and one byte read rules out every other request
  /// before the names are compared (three string comparisons and a prefix test cost ~400
  /// instructions a request; docs/performance.md, "The fifth round").
  @inline(__always)
  private static func mayCarrySecret(_ method: String) -> Bool {
    let first = method.utf8.first
    return first == UInt8(ascii: "a") || first == UInt8(ascii: "l")
  }

  /// An agent's answer may carry a passcode or login password: once the broker has taken its own copy,
  /// the parsed string and the line's bytes in the read buffer are zeroed (docs/limits-and-threat-model.md,
  /// "The login password"). The parser's strings are its own (never literals), so they may be wiped.
  /// Not when the request names a `user`: an admin's request may wait for the account's lookup.
  /// A short string lives inside its member: the member is overwritten in place as well.
  private func wipeSecret(of request: inout RPCRequest, frame: UnsafeBufferPointer<UInt8>) {
    guard request.params["user"] == nil else { return }
    for key in ["passcode", "password"] {
      if case .string(let secret)? = request.params[key] {
        SecretWipe.wipe(secret)
        request.params[key] = .string("")
      }
    }
    if let base = frame.baseAddress {
      explicit_bzero(UnsafeMutableRawPointer(mutating: base), frame.count)
    }
  }

  private func handleSingle(_ decoded: Result<RPCRequest, RPCRejection>, on connection: Connection)
  {
    switch decoded {
    case .failure(let rejection):
      if !rejection.isNotification {
        connection.write(RPCEncoder.error(id: rejection.id, rejection.error))
      }
    case .success(let request):
      handle(request, on: connection)
    }
  }

  /// One request on its own (not in a batch): its answer now, or later through its responder.
  private func handle(_ request: RPCRequest, on connection: Connection) {
    if let answer = call(request, on: connection, slot: .single), let id = request.id {
      if Self.mayCarrySecret(request.method) && request.method == ReleasePasswordRequest.method {
        connection.writeSecretResponse(answer, id: id)
      } else {
        connection.writeResponse(answer, id: id)
      }
    }
  }

  private func handleBatch(
    _ elements: [Result<RPCRequest, RPCRejection>], on connection: Connection
  ) {
    let batch = BatchCollector(connection: connection)
    for element in elements {
      switch element {
      case .failure(let rejection):
        if !rejection.isNotification {
          batch.add(encodeObject(.failure(rejection.error), id: rejection.id))
        }
      case .success(let request):
        let slot = batch.reserve(expectsAnswer: request.id != nil)
        let answer = call(request, on: connection, slot: .batch(batch, slot))
        if let answer, let id = request.id { batch.fill(slot, encodeObject(answer, id: id)) }
      }
    }
    batch.sealed = true
    batch.sendIfComplete()
  }

  /// A plain `context.canEvaluatePolicy` frame, answered at once: the duplicate-id rule, the
  /// broker on its executor (this loop), the answer (a kept encoding) into the output.
  private func answer(_ frame: CanEvaluatePolicyFrame, on connection: Connection) {
    let id = RequestID.number(frame.id)
    if connection.isAwaiting(id) {
      connection.writeResponse(.failure(Self.duplicate(id)), id: id)
      return
    }
    let answer = connection.server.loop.onLoop(
      broker, CanEvaluateCall(frame: frame, connection: connection), canEvaluateOnBroker)
    switch answer {
    case .success(let result):
      if let kept = result.keptEncoding {
        connection.writeResponse(keptResult: kept, id: frame.id)
      } else {
        connection.writeResponse(.success(result), id: id)
      }
    case .failure(let error): connection.writeResponse(.failure(error), id: id)
    }
  }

  /// The duplicate-id rule's error (docs/protocol.md, "Transport and framing").
  private static func duplicate(_ id: RequestID) -> RPCError {
    .invalidRequest(
      "Invalid request: id \(id) is already in flight on this connection.", reason: "duplicateId")
  }

  /// What `canEvaluateOnBroker` needs: the frame and where it came from.
  fileprivate struct CanEvaluateCall {
    let frame: CanEvaluatePolicyFrame
    let connection: Connection
  }

  /// Where a deferred answer goes: straight to the connection, or into a batch's slot. (An enum,
  /// not a closure: the hot path allocates no closure context per request.)
  fileprivate enum AnswerSlot {
    case single
    case batch(BatchCollector, Int)

    func responder(_ connection: Connection, id: RequestID) -> any Responder {
      switch self {
      case .single: SingleResponder(connection: connection, id: id)
      case .batch(let batch, let slot): BatchResponder(batch: batch, slot: slot, id: id)
      }
    }
  }

  /// Calls the broker; returns the answer now, or nil when it comes later (or never, for notifications).
  private func call(_ request: RPCRequest, on connection: Connection, slot: AnswerSlot)
    -> BrokerAnswer?
  {
    // Nothing is hashed unless requests wait (evaluations).
    if let id = request.id, id != .null, connection.isAwaiting(id) {
      return .failure(Self.duplicate(id))
    }
    return connection.server.loop.onLoop(
      broker, BrokerCall(request: request, connection: connection, slot: slot), handleOnBroker)
  }

  /// What `handleOnBroker` needs: the request, where it came from and where its answer goes.
  fileprivate struct BrokerCall {
    let request: RPCRequest
    let connection: Connection
    let slot: AnswerSlot
  }

}

/// The broker's side of a call. A function, not a closure, so `onLoop` boxes no context for it.
private func handleOnBroker(_ broker: isolated Broker, _ call: RequestDispatcher.BrokerCall)
  -> BrokerAnswer?
{
  let connection = call.connection
  let session = connection.session(in: broker)
  // A request the broker cannot answer before an account is looked up waits for it, off the loop.
  if let account = broker.accountNeeded(by: call.request.params, from: session),
    let resolver = connection.server.resolver
  {
    return call.wait(for: account, resolver, broker: broker)
  }
  return handOver(call, from: session, to: broker)
}

/// The broker's side of a plain canEvaluatePolicy frame. A function, as `handleOnBroker` is.
private func canEvaluateOnBroker(
  _ broker: isolated Broker, _ call: RequestDispatcher.CanEvaluateCall
) -> Result<CanEvaluateResult, RPCError> {
  broker.canEvaluate(call.frame, from: call.connection.session(in: broker))
}

/// Hands the request to the broker; a deferred answer goes to the call's slot.
private func handOver(
  _ call: RequestDispatcher.BrokerCall, from session: ClientSession, to broker: isolated Broker
) -> BrokerAnswer? {
  let connection = call.connection
  return broker.handle(call.request, from: session) {
    guard let id = call.request.id else { return DiscardingResponder() }
    if id != .null { connection.awaits(id) }
    return call.slot.responder(connection, id: id)
  }
}

extension RequestDispatcher.BrokerCall {
  /// Holds the request until `account` is in the cache, then hands it to the broker; its answer
  /// goes where a deferred one would. Nil, or the limit's error when too many lookups wait.
  fileprivate func wait(for account: AccountReference, _ resolver: AccountResolver, broker: Broker)
    -> BrokerAnswer?
  {
    let id = request.id
    if let id, id != .null { connection.awaits(id) }
    let refused = resolver.whenResolved(account, for: connection.share.uid) {
      guard !connection.closed else { return }
      let answer = connection.server.loop.onLoop(broker, self) { broker, call in
        handOver(call, from: call.connection.session(in: broker), to: broker)
      }
      if let answer, let id { slot.responder(connection, id: id).respond(answer) }
    }
    guard let refused else { return nil }
    if let id, id != .null { connection.answered(id) }
    return .failure(refused)
  }
}

/// A batch element's response object (no newline).
private func encodeObject(_ answer: BrokerAnswer, id: RequestID) -> [UInt8] {
  var writer = JSONWriter()
  RPCEncoder.write(answer: answer, id: id, into: &writer)
  return writer.bytes
}

/// Answers one deferred request on its connection. Broker-isolated (loop thread).
private struct SingleResponder: Responder {
  let connection: Connection
  let id: RequestID

  func respond(_ result: BrokerAnswer) {
    connection.answered(id)
    connection.writeResponse(result, id: id)
  }
}

/// Collects a batch's answers and sends them as one array once all have come. Loop thread only
/// (its state is `LoopBound`).
final class BatchCollector: Sendable {
  /// The answers in request order (nil: still awaited; empty: a notification), and where the
  /// batch stands.
  struct Parts {
    var parts: [[UInt8]?] = []
    var missing = 0
    var sealed = false
    var sent = false
  }

  let connection: Connection
  private let state: LoopBound<Parts>

  init(connection: Connection) {
    self.connection = connection
    state = LoopBound(Parts(), loop: connection.server.loop)
  }

  /// Whether every element has been reserved or added (no more come).
  var sealed: Bool {
    get { state.value.sealed }
    set { state.value.sealed = newValue }
  }

  func add(_ part: [UInt8]) { state.value.parts.append(part) }

  func reserve(expectsAnswer: Bool) -> Int {
    state.value.parts.append(expectsAnswer ? nil : [])
    if expectsAnswer { state.value.missing += 1 }
    return state.value.parts.count - 1
  }

  func fill(_ slot: Int, _ part: [UInt8]) {
    guard state.value.parts[slot] == nil else { return }
    state.value.parts[slot] = part
    state.value.missing -= 1
    sendIfComplete()
  }

  func sendIfComplete() {
    guard state.value.sealed, state.value.missing == 0, !state.value.sent else { return }
    state.value.sent = true
    let answers = state.value.parts.compactMap { $0 }.filter { !$0.isEmpty }
    guard !answers.isEmpty else { return }
    var line: [UInt8] = [UInt8(ascii: "[")]
    for (index, answer) in answers.enumerated() {
      if index > 0 { line.append(UInt8(ascii: ",")) }
      line.append(contentsOf: answer)
    }
    line.append(contentsOf: [UInt8(ascii: "]"), 0x0A])
    connection.write(line)
  }
}

private struct BatchResponder: Responder {
  let batch: BatchCollector
  let slot: Int
  let id: RequestID

  func respond(_ result: BrokerAnswer) {
    batch.connection.answered(id)
    batch.fill(slot, encodeObject(result, id: id))
  }
}
