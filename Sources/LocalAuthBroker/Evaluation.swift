import LocalAuthProtocol
import Sensors

/// How an evaluation ended: its success, or the LA error it ends with (an `RPCError` whose code
/// is a LocalAuthentication code and whose data carries the requestID and reason).
typealias EvaluationOutcome = Result<EvaluationSuccess, RPCError>

extension Result where Success == EvaluationSuccess, Failure == RPCError {
  /// The `context.evaluatePolicy` answer: the one place an outcome becomes JSON.
  var answer: BrokerAnswer { map { $0 } }
}

/// Where an evaluation's outcome goes: to the client that asked (through its responder, shaped
/// into the method's answer), or, typed, to broker code waiting for it (a handoff's store step,
/// an SSH signature).
enum OutcomeDelivery {
  /// Answered through a responder; `shape` turns the outcome into the method's answer.
  case responder(any Responder, shape: (EvaluationOutcome) -> BrokerAnswer)
  /// Handed to broker code.
  case handler((EvaluationOutcome) -> Void)

  /// Delivers the outcome.
  func deliver(_ outcome: EvaluationOutcome) {
    switch self {
    case .responder(let responder, let shape): responder.respond(shape(outcome))
    case .handler(let handler): handler(outcome)
    }
  }
}

/// One evaluatePolicy request: queued, then running, then finished exactly once. Broker-isolated.
final class Evaluation {
  enum Phase { case queued, running, finished }

  let requestID: String
  let client: ClientSession
  let context: AuthContext
  let policy: Policy
  let reason: String
  /// Whose presence is asked for.
  let owner: SensorOwner
  /// Set for a system evaluation (root acting for `owner`): biometric-only, never shown to agents.
  var system: SystemRequest?
  /// The prompt agent showing this evaluation, if one was found when it started.
  var agent: PromptAgent?
  /// The agent told that this evaluation waits on a sensor no agent shows (`agent.waiting`).
  var waitTold: PromptAgent?
  /// For an SSH signature: what is signed, as the daemon words it for the agent.
  var ssh: AgentSSHSubject?
  /// The person's answers from the agent, waiting for the running capture.
  let answers = AgentAnswers()
  /// Whether the prompt now asks for the passcode (an agent may then answer with one).
  var askingForPasscode = false
  let rpcID: RequestID?
  /// Where the outcome goes (set when the evaluation is queued).
  var delivery: OutcomeDelivery = .handler { _ in }
  var phase: Phase = .queued
  var task: Task<Void, Never>?
  /// When an unanswered prompt ends with systemCancel (set when it starts running).
  var deadline: Duration?
  /// The sensor in use, for logs and the success result.
  var sensor: String?
  /// What the detectors and `broker.trace` keep of it (nil for evaluations answered at once).
  var trace: PromptTrace?
  /// Whether a recent success of its context may answer it (false for handoff authorizations,
  /// which always need a fresh proof of presence).
  var mayReuse = true

  init(
    requestID: String, client: ClientSession, context: AuthContext, policy: Policy, reason: String,
    owner: SensorOwner, rpcID: RequestID?
  ) {
    self.owner = owner
    self.requestID = requestID
    self.client = client
    self.context = context
    self.policy = policy
    self.reason = reason
    self.rpcID = rpcID
  }
}

/// A random RFC 4122 version-4 UUID string from `random`, without Foundation (two 64-bit draws,
/// not sixteen).
func makeUUID(from random: any RandomSource) -> String {
  let high = random.next()
  let low = random.next()
  var bytes = [UInt8](repeating: 0, count: 16)
  for index in 0..<8 {
    bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * index))
    bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (8 * index))
  }
  bytes[6] = (bytes[6] & 0x0F) | 0x40
  bytes[8] = (bytes[8] & 0x3F) | 0x80
  let hex: StaticString = "0123456789ABCDEF"
  return String(unsafeUninitializedCapacity: 36) { buffer in
    var position = 0
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 {
        buffer[position] = UInt8(ascii: "-")
        position += 1
      }
      buffer[position] = hex.utf8Start[Int(byte >> 4)]
      buffer[position + 1] = hex.utf8Start[Int(byte & 0x0F)]
      position += 2
    }
    return position
  }
}
