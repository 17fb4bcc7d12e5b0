import LocalAuthProtocol
import Testing

/// The request types: one per method, unique names, params that read back what the client built,
/// and field errors that name the field.
@Suite("Request types")
struct RequestTypeTests {
  @Test("every method and notification has one type, named once")
  func namesAreUnique() {
    let methods = MethodRegistry.methodNames
    let notifications = MethodRegistry.notificationNames
    #expect(Set(methods).count == methods.count, "\(methods)")
    #expect(Set(notifications).count == notifications.count, "\(notifications)")
    #expect(Set(methods).isDisjoint(with: notifications))
    #expect(methods.count == 48)
    for name in methods + notifications {
      let parts = name.split(separator: ".")
      #expect(parts.count == 2 && parts.allSatisfy { !$0.isEmpty }, "\(name)")
    }
  }

  /// The constants are spelled from the types (`Method.x = XRequest.method`), so comparing the two
  /// proves nothing: these hold the names on the wire, as docs/protocol.md and the PAM module spell them.
  @Test("the method constants are the names on the wire, and the registry has them")
  func constantsAreTheWireNames() {
    #expect(Method.canEvaluatePolicy == "context.canEvaluatePolicy")
    #expect(Method.evaluatePolicy == "context.evaluatePolicy")
    #expect(Method.cancel == "evaluation.cancel")
    #expect(Notification.agentPrompt == "agent.prompt")
    #expect(Notification.armed == "evaluation.armed")
    #expect(Notification.queued == "evaluation.queued")
    #expect(MethodRegistry.methodNames.contains(Method.sshKeySign))
    #expect(MethodRegistry.notificationNames.contains(Notification.armed))
  }

  @Test("params built by the client read back on the server")
  func roundTrip() throws(RPCError) {
    let evaluate = EvaluatePolicyRequest.Params(
      object: EvaluatePolicyRequest.Params(
        policy: .deviceOwnerAuthentication, localizedReason: "unlock", context: "ctx-1"
      ).object)
    #expect(try evaluate.policy() == .deviceOwnerAuthentication)
    #expect(try evaluate.localizedReason() == "unlock")
    #expect(try evaluate.context() == "ctx-1")

    let can = CanEvaluatePolicyRequest.Params(policy: .deviceOwnerAuthentication, context: nil)
    #expect(try can.context() == nil)
    #expect(!can.object.contains("context"))

    let cancel = CancelEvaluationRequest.Params(id: .int(7))
    #expect(try cancel.requestID() == nil)
    #expect(cancel.id() == .int(7))

    let clear = SetPasscodeRequest.Params(passcode: nil)
    #expect(try clear.passcode() == .some(nil))
    #expect(try SetPasscodeRequest.Params(object: [:]).passcode() == nil)

    let script = ScriptSensorRequest.Params(sensor: "face", commands: ["match"], replace: true)
    #expect(try script.sensor() == "face")
    #expect(try script.commands() == ["match"])
    #expect(try script.replace())

    let hello = HelloRequest.Params(name: "app", appID: nil, interactive: false, protocol: 1)
    #expect(try hello.client().nonEmptyString("name") == "app")
    #expect(try hello.protocolVersion() == 1)

    let trace = TraceRequest.Params(appID: "a", pid: 12)
    #expect(try trace.appID() == "a")
    #expect(try trace.pid() == 12)
  }

  @Test("a bad field is named in the error")
  func badFieldsAreNamed() {
    let params = EvaluatePolicyRequest.Params(object: ["policy": 9, "localizedReason": ""])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try params.policy() }, field: "policy")
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try params.localizedReason() },
      field: "localizedReason")
    let active = SetActiveRequest.Params(object: ["active": "yes"])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try active.active() }, field: "active")
  }

  @Test("results decode what the server encodes")
  func results() {
    let success = EvaluationSuccess(
      requestID: "r", policy: .deviceOwnerAuthentication, sensor: "face", reused: false)
    #expect(EvaluatePolicyRequest.Result(json: success.json) == success)
    #expect(EvaluatePolicyRequest.Result(json: "nonsense") == nil)
  }
}
