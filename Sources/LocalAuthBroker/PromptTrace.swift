import LocalAuthProtocol
import Sensors

/// One thing that happened during a traced evaluation, at a millisecond offset from daemon start.
struct TraceEvent {
  enum What {
    /// A sensor answered a capture asked for at `askedAt` (ms since daemon start). Whether a typed
    /// passcode was the right one is known at once only for `Passcode=` of the configuration (a stored
    /// passcode is a slow hash, checked off the loop): nil otherwise.
    case capture(sensor: String, event: CaptureEvent, askedAt: Duration, correctPasscode: Bool?)
    /// The broker sent `evaluation.feedback`.
    case feedback(sensor: String, feedback: String, attempt: Int)
    /// The broker sent `evaluation.fallback` (biometry gave way to `to`).
    case fallback(to: String, reason: String)
  }

  let at: Duration
  let what: What

  /// The wire form, with times in milliseconds since `origin` (the daemon's start).
  func step(since origin: Duration) -> TraceStep {
    let at = (self.at - origin).milliseconds
    switch what {
    case .capture(let sensor, let event, let askedAt, let correct):
      var correctPasscode: Bool?
      if case .passcode = event { correctPasscode = correct }
      return TraceStep(
        kind: "capture", atMs: at, askedAtMs: (askedAt - origin).milliseconds, sensor: sensor,
        event: event.wireName, correct: correctPasscode)
    case .feedback(let sensor, let feedback, let attempt):
      return TraceStep(
        kind: "feedback", atMs: at, sensor: sensor, feedback: feedback, attempt: attempt)
    case .fallback(let sensor, let reason):
      return TraceStep(kind: "fallback", atMs: at, sensor: sensor, reason: reason)
    }
  }
}

/// What the broker keeps of one prompting evaluation for `broker.trace` and the detectors: ids,
/// client, times (ms since daemon start), sensor events, feedback and outcome. Broker-isolated.
final class PromptTrace {
  /// The client the diagnostics file it under.
  let key: ClientKey
  /// Its client's history while it is queued or running (cleared when it ends, which breaks the
  /// reference cycle through the history's lists).
  var history: ClientHistory?
  let requestID: String
  let contextID: String
  /// Whether the client made the context (context.create); evaluations without one each get
  /// their own implicit context.
  let explicitContext: Bool
  let clientPID: Int32
  let clientUID: UInt32
  let clientName: String
  let appID: String
  let policy: Policy
  let submittedAt: Duration
  var startedAt: Duration?
  var endedAt: Duration?
  var result: String?
  var reason: String?
  var events: [TraceEvent] = []
  var droppedEvents = 0
  /// Its place in the diagnostics' ring (to tell a live entry from an evicted one).
  var sequence = 0
  /// Whether a re-prompt finding already names this evaluation as the cancelled one.
  var repromptReported = false
  /// A system evaluation (`Evaluation.isSystem`: root or an admin acting for a user, as the PAM
  /// module in sudo, su and polkit). Its cancels and retries are the module's flow, not an app's.
  let isSystem: Bool

  init(_ evaluation: Evaluation, key: ClientKey, submittedAt: Duration) {
    self.key = key
    requestID = evaluation.requestID
    contextID = evaluation.context.id
    explicitContext = evaluation.context.explicit
    clientPID = evaluation.client.peer.pid
    clientUID = evaluation.client.peer.uid
    clientName = Self.bounded(evaluation.client.name)
    appID = Self.bounded(evaluation.client.appID)
    policy = evaluation.policy
    isSystem = evaluation.isSystem
    self.submittedAt = submittedAt
  }

  /// The longest client name or app id a trace keeps, in bytes (`MaxTextBytes` may allow longer
  /// ones in session.hello; they are cut at a character boundary).
  static let textLimit = 256

  /// `text`, cut to at most `textLimit` bytes.
  static func bounded(_ text: String) -> String {
    guard text.utf8.count > textLimit else { return text }
    var result = ""
    for character in text {
      guard result.utf8.count + character.utf8.count <= textLimit else { break }
      result.append(character)
    }
    return result
  }

  /// Keeps an event unless the evaluation already has `limit` of them.
  func append(_ event: TraceEvent, limit: Int) {
    if events.count < limit {
      events.append(event)
    } else {
      droppedEvents += 1
    }
  }

  /// Whether it ended with a cancel a re-prompt could follow: userCancel, appCancel or
  /// systemCancel, except a daemon shutdown or a vanished client.
  var endedInCancel: Bool {
    switch result {
    case "userCancel", "appCancel", "systemCancel":
      return reason != "shutdown" && reason != "clientGone"
    default:
      return false
    }
  }

  /// The wire form: one line of a trace file, times in milliseconds since `origin`.
  func traced(since origin: Duration) -> TracedEvaluation {
    TracedEvaluation(
      requestID: requestID, context: contextID, clientName: clientName, appID: appID,
      clientPID: Int(clientPID), clientUID: Int(clientUID), policy: policy.name,
      submittedMs: (submittedAt - origin).milliseconds,
      startedMs: startedAt.map { ($0 - origin).milliseconds },
      endedMs: endedAt.map { ($0 - origin).milliseconds }, result: result, reason: reason,
      steps: events.map { $0.step(since: origin) }, droppedEvents: droppedEvents)
  }

}
