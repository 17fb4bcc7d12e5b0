import LocalAuthProtocol

/// A progress notification of one evaluation (docs/protocol.md, "Notifications"), each naming its
/// requestID.
public enum LAEvaluationEvent: Sendable, Equatable, CustomStringConvertible {
  /// Waiting behind other evaluations; `position` 1 is next.
  case queued(requestID: String, position: Int)
  /// The prompt is shown.
  case started(requestID: String, policy: LAPolicy?)
  /// The sensor listens for this evaluation now: the moment to ask for the finger or the face.
  case armed(requestID: String, sensor: String, attempt: Int)
  /// A sensor read that did not end the evaluation (noMatch, faceNotCentered, …).
  case feedback(requestID: String, sensor: String, feedback: String, attempt: Int)
  /// The prompt fell back to another method (e.g. "passcode").
  case fallback(requestID: String, to: String)

  /// The evaluation this event belongs to.
  public var requestID: String {
    switch self {
    case .queued(let id, _), .started(let id, _), .armed(let id, _, _), .feedback(let id, _, _, _),
      .fallback(let id, _):
      id
    }
  }

  /// The JSON-RPC id of the call a queued or started notification names (its `id`), read through
  /// their protocol types; nil for other notifications and for an id that is not a number.
  static func callID(announcedIn method: String, _ params: JSONObject) -> Int? {
    let id: RequestID?
    switch method {
    case Notification.queued: id = QueuedEvent(object: params)?.id
    case Notification.started: id = StartedEvent(object: params)?.id
    default: return nil
    }
    guard case .number(let number)? = id else { return nil }
    return number.intValue
  }

  /// Reads a notification; nil for other methods or a missing requestID.
  public init?(method: String, params: JSONObject) {
    switch method {
    case Notification.queued:
      guard let event = QueuedEvent(object: params) else { return nil }
      self = .queued(requestID: event.requestID, position: event.position)
    case Notification.started:
      guard let event = StartedEvent(object: params) else { return nil }
      self = .started(requestID: event.requestID, policy: event.policy)
    case Notification.armed:
      guard let event = ArmedEvent(object: params) else { return nil }
      self = .armed(requestID: event.requestID, sensor: event.sensor, attempt: event.attempt)
    case Notification.feedback:
      guard let event = FeedbackEvent(object: params) else { return nil }
      self = .feedback(
        requestID: event.requestID, sensor: event.sensor, feedback: event.feedback,
        attempt: event.attempt)
    case Notification.fallback:
      guard let event = FallbackEvent(object: params) else { return nil }
      self = .fallback(requestID: event.requestID, to: event.to)
    default:
      return nil
    }
  }

  /// One line for people: "queued at position 2", "prompt shown", "face: listening (attempt 1)",
  /// "face: noMatch (attempt 1)".
  public var description: String {
    switch self {
    case .queued(_, let position): "queued at position \(position)"
    case .started(_, let policy): "prompt shown" + (policy.map { " for \($0.name)" } ?? "")
    case .armed(_, let sensor, let attempt): "\(sensor): listening (attempt \(attempt))"
    case .feedback(_, let sensor, let feedback, let attempt):
      "\(sensor): \(feedback) (attempt \(attempt))"
    case .fallback(_, let to): "fell back to \(to)"
    }
  }
}
