import LocalAuthProtocol

/// What a detector noticed about a client's evaluations: the likely cause of a second prompt.
public struct Finding: Sendable, Equatable {
  /// The detectors.
  public enum Kind: String, Sendable, CaseIterable {
    /// A new evaluation within the window after the client's previous one was cancelled.
    case repromptAfterCancel
    /// Two evaluations of one client queued or running at once, from different contexts.
    case overlappingPrompts
    /// A busy or just-cancelled context invalidated, and a new context evaluating within the window.
    case contextChurn
  }

  /// Which detector.
  public var kind: Kind
  /// The earlier evaluation's requestID (the cancelled, running or invalidated one).
  public var earlierRequestID: String
  /// The later evaluation's requestID (the one that prompts again).
  public var laterRequestID: String
  /// Milliseconds between the earlier event (end, submission or invalidation) and the later submission.
  public var gapMilliseconds: Int
  /// How the earlier evaluation ended ("userCancel", …), or "running" / "invalidated".
  public var earlierOutcome: String
  /// The client's pid (SO_PEERCRED).
  public var clientPID: Int32
  /// The client's uid (SO_PEERCRED).
  public var clientUID: UInt32
  /// The client's declared name.
  public var clientName: String
  /// The client's app id.
  public var appID: String
  /// Milliseconds since the daemon started.
  public var atMilliseconds: Int

  /// One sentence for people: what happened, with both requestIDs and the gap.
  public var summary: String {
    switch kind {
    case .repromptAfterCancel:
      "evaluated again \(gapMilliseconds) ms after \(earlierOutcome): \(earlierRequestID) → \(laterRequestID)"
    case .overlappingPrompts:
      "a second prompt \(gapMilliseconds) ms after one still \(earlierOutcome), from another context: \(earlierRequestID) and \(laterRequestID)"
    case .contextChurn:
      "a new context evaluated \(gapMilliseconds) ms after the context of \(earlierRequestID) was invalidated: \(laterRequestID)"
    }
  }

  /// The likely cause and the fix, for people.
  public var advice: String {
    switch kind {
    case .repromptAfterCancel:
      "the app evaluated again on its cancel path (a re-run .task, state changed on cancel); treat userCancel as final and don't navigate or retry on cancel"
    case .overlappingPrompts:
      "two code paths evaluate at once; guard re-entry so one prompt is in flight per user action"
    case .contextChurn:
      "a shared context was reset and reused; create one context per request instead of resetting a shared one"
    }
  }

  /// The wire form (`broker.findings`, `monitor.event`).
  public var json: JSONValue { wire.json }

  /// The finding as `broker.findings` lists it.
  public var wire: BrokerFinding {
    BrokerFinding(
      kind: kind.rawValue, earlierRequestID: earlierRequestID, laterRequestID: laterRequestID,
      gapMs: gapMilliseconds, earlierOutcome: earlierOutcome, clientPID: Int(clientPID),
      clientUID: Int(clientUID), clientName: clientName, appID: appID, atMs: atMilliseconds)
  }

}

extension EvaluationLog {
  /// Logs a finding as a notice (logs without a structured form of their own).
  public func finding(_ finding: Finding) {
    notice("\(finding.kind.rawValue): \(finding.clientName) \(finding.summary)")
  }
}
