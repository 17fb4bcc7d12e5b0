import LocalAuthBroker
import LocalAuthProtocol
import Testing

/// Every evaluatePolicy call gets a requestID, even when it is refused at once.
@Suite struct RefusedEvaluationTests {
  /// The requestID of a refusal, or nil when the call was not refused at once.
  func refusedRequestID(_ outcome: Result<JSONValue, RPCError>?) -> String? {
    guard case .failure(let error)? = outcome else { return nil }
    return error.requestID
  }

  @Test func invalidParamsInvalidContextAndAlreadyInProgressCarryTheirOwnRequestID() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let noReason = await client.call(Method.evaluatePolicy, ["policy": 2])
    #expect(noReason?.code == .invalidParams)
    let first = refusedRequestID(noReason)
    #expect(first != nil)
    let badPolicy = await client.call(
      Method.evaluatePolicy, ["policy": 99, "localizedReason": "test"])
    #expect(badPolicy?.code == .invalidParams)
    #expect(refusedRequestID(badPolicy) != nil)
    #expect(refusedRequestID(badPolicy) != first)

    let context = await client.createContext()
    let running = await client.startEvaluation(context: context)
    #expect(running.immediate == nil)
    let runningID = await client.requestID()
    let busy = await client.startEvaluation(context: context).immediate
    #expect(busy?.code == .alreadyInProgress)
    let busyID = refusedRequestID(busy)
    #expect(busyID != nil && busyID != runningID)
    if case .failure(let error)? = busy {
      #expect(error.data["inProgressRequestID"] == runningID.map(JSONValue.string))
    }

    _ = await client.call(Method.invalidate, ["context": .string(context)])
    let invalid = await client.startEvaluation(context: context).immediate
    #expect(invalid?.code == .invalidContext)
    #expect(refusedRequestID(invalid) != nil)
  }
}
