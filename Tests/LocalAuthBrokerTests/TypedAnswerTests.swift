import Foundation
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

@testable import LocalAuthBroker

/// The broker answers with the method's typed result, never with JSON it built itself: the server
/// is the one place that encodes an answer (`RPCEncoder.write(answer:id:into:)`).
@Suite struct TypedAnswerTests {
  /// The immediate answer the broker gives `method` with `params`.
  static func answer(
    _ method: String, _ params: JSONObject = [:], harness: BrokerHarness, client: TestClient
  ) async -> BrokerAnswer? {
    let tag = harness.nextTag()
    return await harness.broker.handle(
      RPCRequest(method: method, params: params, id: .int(tag)), from: client.session,
      responder: client.recorder.responder(tag: tag))
  }

  @Test func answersAreTheMethodsResultTypes() async throws {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let canEvaluate = await Self.answer(
      Method.canEvaluatePolicy, ["policy": "deviceOwnerAuthentication"], harness: harness,
      client: client)
    #expect(try canEvaluate?.get() is CanEvaluateResult)
    let hello = await Self.answer(
      Method.hello, ["client": ["name": "typed"], "protocol": 1], harness: harness, client: client)
    #expect(try hello?.get() is HelloRequest.Result)
    let status = await Self.answer(Method.brokerStatus, harness: harness, client: client)
    #expect(try status?.get() is BrokerStatusRequest.Result)
    let created = await Self.answer(Method.contextCreate, harness: harness, client: client)
    #expect(try created?.get() is CreateContextRequest.Result)
    for answer in [canEvaluate, hello, status, created] {
      #expect(!(try answer?.get() is JSONValue), "a route built the JSON itself")
    }
  }

  @Test func aDeferredEvaluationIsAnsweredWithItsSuccessType() async throws {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let answers = AnswerBox()
    _ = harness.face.script([.match(identity: "alice")], replace: true)
    let tag = harness.nextTag()
    let immediate = await harness.broker.handle(
      RPCRequest(
        method: Method.evaluatePolicy,
        params: ["policy": "deviceOwnerAuthenticationWithBiometrics", "localizedReason": "typed"],
        id: .int(tag)), from: client.session, responder: answers)
    #expect(immediate == nil)
    #expect(await eventually { answers.answer != nil }, "the evaluation's answer")
    #expect(try answers.answer?.get() is EvaluationSuccess)
  }
}

/// Keeps the one answer a responder is given, as it was given.
private final class AnswerBox: Responder, @unchecked Sendable {
  // Guarded by `lock`.
  private let lock = NSLock()
  private var kept: BrokerAnswer?

  var answer: BrokerAnswer? { lock.withLock { kept } }

  func respond(_ result: BrokerAnswer) { lock.withLock { kept = result } }
}
