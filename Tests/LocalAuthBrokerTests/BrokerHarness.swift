import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthServer
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Sensors
import Synchronization

/// A broker on a thread executor with a test clock and scripted sensors, plus helpers to talk to it.
final class BrokerHarness: Sendable {
  let clock = TestClock()
  let executor = ThreadExecutor()
  let face: SimulatedSensor
  let passcodeSensor: SimulatedSensor
  let companion: SimulatedSensor
  /// The face as a driver that reports its arming (`reportsArming`), when asked for.
  let arming: ArmingDriver?
  let broker: Broker
  private let tags = Atomic<Int>(0)

  init(
    configuration: BrokerConfiguration = BrokerConfiguration(), faceKind: SensorKind = .faceID,
    enrolled: [String] = ["alice"], faceDefault: ScriptCommand.DefaultBehavior = .wait,
    passcode: String? = "1234",
    removable: Bool = false, faceAvailable: Bool = true, companionPaired: [String] = [],
    rightStore: RightStore? = nil, owners: OwnerMode = .device, faceReportsArming: Bool = false,
    hostNames: any HostNameDirectory = NoVerifiedHostNames(),
    password: PasswordSensor? = nil, log: any EvaluationLog = SilentLog()
  ) {
    // One device owner (uid 0) unless a test asks for per-user owners: most broker tests are about one person.
    var configuration = configuration
    configuration.ownerMode = owners
    face = SimulatedSensor(
      name: "face", kind: faceKind,
      setup: .init(
        available: faceAvailable, removable: removable, enrolled: enrolled,
        defaultBehavior: faceDefault),
      time: clock)
    passcodeSensor = SimulatedSensor(name: "passcode", kind: .passcode, setup: .init(), time: clock)
    companion = SimulatedSensor(
      name: "watch", kind: .companion, setup: .init(enrolled: companionPaired), time: clock)
    let arming = faceReportsArming ? ArmingDriver(face) : nil
    self.arming = arming
    broker = Broker(
      configuration: configuration,
      // A login-password sensor, when given, comes before the simulated passcode (the package's order).
      sensors: SensorRegistry(
        [arming ?? face] + (password.map { [$0] } ?? []) + [passcodeSensor, companion]),
      passcode: passcode,
      time: clock, random: SystemRandomSource(), log: log, accounts: SystemAccounts(),
      processes: SystemProcesses(), executor: executor,
      storage: .read(
        from: rightStore, log: SilentLog(), storeThread: DispatchWorkerThread(label: "test.store")),
      hashThread: DispatchWorkerThread(label: "test.hash"), hostNames: hostNames)
  }

  /// A connected client with a recorder.
  func connect(
    uid: UInt32 = 0, gid: UInt32 = 0, groups: [UInt32] = [], pid: Int32 = 4242,
    loginSession: String? = nil, name: String = "test"
  ) async -> TestClient {
    let recorder = RecordingClient()
    let session = await broker.connect(
      peer: PeerIdentity(
        pid: pid, uid: uid, gid: gid, groups: groups, loginSession: loginSession),
      name: name, channel: recorder)
    return TestClient(harness: self, session: session, recorder: recorder)
  }

  func nextTag() -> Int { tags.add(1, ordering: .relaxed).newValue }
}

/// One client of the harness broker.
struct TestClient: Sendable {
  let harness: BrokerHarness
  let session: ClientSession
  let recorder: RecordingClient

  /// Sends a request; returns the immediate answer, or waits for the deferred one when `wait` is set.
  @discardableResult
  /// Requests that prompt come back deferred; a test starting one gets nil and waits itself.
  /// Every other deferred answer (store writes run off the loop) is awaited here.
  func call(_ method: String, _ params: JSONObject = [:], tag: Int? = nil) async -> Result<
    JSONValue, RPCError
  >? {
    let tag = tag ?? harness.nextTag()
    let request = RPCRequest(method: method, params: params, id: .int(tag))
    let immediate = await harness.broker.handle(
      request, from: session, responder: recorder.responder(tag: tag))
    let prompting = [Method.evaluatePolicy, Method.rightAuthorize, Method.handoffAuthorize]
    if immediate == nil && !prompting.contains(method) {
      // A store write waits for its fsync (synchronous=FULL); while the whole suite and a build
      // load the disk, one took over 10 s (SSHKeyTests' first signature, in 2 of 3 clean runs).
      return await recorder.waitForResponse(tag: tag, seconds: 60)
    }
    return immediate?.map(\.json)
  }

  /// Starts an evaluation and returns its tag (the answer is deferred, or immediate in `immediate`).
  func startEvaluation(
    _ policy: Policy = .deviceOwnerAuthenticationWithBiometrics, context: String? = nil
  ) async -> (tag: Int, immediate: Result<JSONValue, RPCError>?) {
    let tag = harness.nextTag()
    var params: JSONObject = ["policy": policy.json, "localizedReason": "test"]
    if let context { params["context"] = .string(context) }
    let immediate = await call(Method.evaluatePolicy, params, tag: tag)
    return (tag, immediate)
  }

  /// Evaluates and waits for the outcome (immediate or deferred).
  func evaluate(_ policy: Policy = .deviceOwnerAuthenticationWithBiometrics, context: String? = nil)
    async -> Result<
      JSONValue, RPCError
    >?
  {
    let (tag, immediate) = await startEvaluation(policy, context: context)
    if let immediate { return immediate }
    return await recorder.waitForResponse(tag: tag)
  }

  /// Makes an explicit context.
  func createContext(_ params: JSONObject = [:]) async -> String {
    let result = await call(Method.contextCreate, params)
    return (try? result?.get().objectValue?["context"]?.stringValue) ?? "none"
  }

  /// The requestID of the evaluation with this tag, once it started or was queued.
  func requestID(waitingFor method: String = Notification.started) async -> String? {
    await recorder.wait { messages in
      messages.contains {
        if case .notification(method, _) = $0 { return true } else { return false }
      }
    }
    return recorder.notifications(method).last?["requestID"]?.stringValue
  }
}

extension Result where Success == JSONValue, Failure == RPCError {
  /// The error code, or nil on success.
  var code: ErrorCode? {
    if case .failure(let error) = self { return error.code }
    return nil
  }

  /// The success object.
  var object: JSONObject? { try? get().objectValue }
}

extension Broker {
  /// The name `session` goes by, read on the broker (where a session's state lives).
  func name(of session: ClientSession) -> String { session.name }
}
