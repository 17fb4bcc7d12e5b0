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

  /// Reads a notification; nil for other methods or a missing requestID.
  public init?(method: String, params: JSONObject) {
    guard let requestID = params["requestID"]?.stringValue else { return nil }
    switch method {
    case Notification.queued:
      self = .queued(requestID: requestID, position: params["position"]?.intValue ?? 0)
    case Notification.started:
      self = .started(requestID: requestID, policy: params["policy"].flatMap(Policy.init(json:)))
    case Notification.armed:
      self = .armed(
        requestID: requestID, sensor: params["sensor"]?.stringValue ?? "",
        attempt: params["attempt"]?.intValue ?? 0)
    case Notification.feedback:
      self = .feedback(
        requestID: requestID, sensor: params["sensor"]?.stringValue ?? "",
        feedback: params["feedback"]?.stringValue ?? "", attempt: params["attempt"]?.intValue ?? 0)
    case Notification.fallback:
      self = .fallback(requestID: requestID, to: params["to"]?.stringValue ?? "")
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
