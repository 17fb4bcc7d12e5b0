/// `evaluation.queued {requestID, position}`: the evaluation waits behind others.
public enum QueuedNotification: NotificationType {
  /// `evaluation.queued`
  public static let method = "evaluation.queued"
  /// `{requestID, position}`.
  public typealias Params = QueuedEvent
}

/// `evaluation.started {requestID, policy}`: the evaluation reached the sensors.
public enum StartedNotification: NotificationType {
  /// `evaluation.started`
  public static let method = "evaluation.started"
  /// `{requestID, policy}`.
  public typealias Params = StartedEvent
}

/// `evaluation.armed {requestID, sensor, attempt}`: the sensor listens for this evaluation's
/// capture now (fprintd: it verifies); a prompt asks for the finger or the face only from here.
public enum ArmedNotification: NotificationType {
  /// `evaluation.armed`
  public static let method = "evaluation.armed"
  /// `{requestID, sensor, attempt}`.
  public typealias Params = ArmedEvent
}

/// `evaluation.feedback {requestID, sensor, feedback, attempt}`: a no-match or a retry.
public enum FeedbackNotification: NotificationType {
  /// `evaluation.feedback`
  public static let method = "evaluation.feedback"
  /// `{requestID, sensor, feedback, attempt}`.
  public typealias Params = FeedbackEvent
}

/// `evaluation.fallback {requestID, to}`: the evaluation moved to the passcode.
public enum FallbackNotification: NotificationType {
  /// `evaluation.fallback`
  public static let method = "evaluation.fallback"
  /// `{requestID, to}`.
  public typealias Params = FallbackEvent
}

/// `monitor.event {event, requestID, …}` for connections that called `broker.monitor`.
public enum MonitorEventNotification: NotificationType {
  /// `monitor.event`
  public static let method = "monitor.event"
  /// `{event, requestID, …}`.
  public typealias Params = MonitorEvent
}
