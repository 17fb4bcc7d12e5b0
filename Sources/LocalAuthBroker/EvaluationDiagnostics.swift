/// How the detectors tell clients apart: uid and app id, or uid and pid (`appID` empty) before
/// a client declares one.
struct ClientKey: Hashable {
  let uid: UInt32
  let pid: Int32
  let appID: String
}

/// One client's recent prompts as the detectors see them. Broker-isolated.
final class ClientHistory {
  let key: ClientKey
  /// Traced evaluations, oldest first (at most the per-client bound; evicted ones are gone).
  var traces: [PromptTrace] = []
  /// Evaluations queued or running now.
  var active: [PromptTrace] = []
  /// The most recently finished evaluation.
  var lastEnded: PromptTrace?
  /// The last invalidation that could start churn: the context, its evaluation, when (ms).
  var invalidation: (contextID: String, requestID: String, at: Duration)?
  /// When each kind of finding was last reported for this client (ms), for the repeat limit.
  var lastReported: [Finding.Kind: Duration] = [:]

  init(key: ClientKey) { self.key = key }
}

/// The detectors and the bounded trace store behind `broker.findings` and `broker.trace`.
/// Clients are told apart by uid and app id, or uid and pid before a client declares an app id.
/// Memory is bounded: traces per client and in total (a FIFO ring over all clients), events per
/// trace, findings kept; a client's history goes with its last trace. Broker-isolated.
final class EvaluationDiagnostics {
  private(set) var histories: [ClientKey: ClientHistory] = [:]
  /// Every trace added, oldest first, as (sequence, its client); stale entries are skipped.
  private var ring: [(sequence: Int, history: ClientHistory)] = []
  private var ringHead = 0
  private var nextSequence = 0
  /// Traces held now, over all clients.
  private(set) var traceCount = 0
  /// The latest findings, oldest first.
  private(set) var findings: [Finding] = []
  /// Findings of each kind since the daemon started.
  private(set) var counts: [Finding.Kind: Int] = [:]
  /// Findings counted but not reported (logged, sent, kept): a repeat of the same kind for the
  /// same client within `repeatInterval` of the last one reported.
  private(set) var repeatsNotReported = 0
  /// How long after a reported finding the same kind for the same client is only counted, so a
  /// client that overlaps in a loop cannot flood the journal: 10 s.
  static let repeatInterval: Duration = .seconds(10)

  /// Records a new prompting evaluation and returns what the detectors find about it.
  /// `origin` is the daemon's start (findings carry milliseconds since then).
  func submitted(
    _ trace: PromptTrace, configuration: DiagnosticsConfiguration, origin: Duration
  ) -> [Finding] {
    let history: ClientHistory
    if let known = histories[trace.key] {
      history = known
    } else {
      history = ClientHistory(key: trace.key)
      histories[trace.key] = history
    }
    trace.history = history
    var found: [Finding] = []
    let now = trace.submittedAt
    // System evaluations are traced but never judged: the PAM module cancels when the password is
    // typed, and sudo runs (one process each) overlap when two terminals ask at once.
    if !trace.isSystem && !configuration.quietApps.contains(trace.appID) {
      if configuration.repromptDetector, let last = history.lastEnded, !last.repromptReported,
        last.endedInCancel, let ended = last.endedAt,
        now - ended <= configuration.repromptWindow
      {
        last.repromptReported = true
        found.append(
          finding(
            .repromptAfterCancel, earlier: last.requestID, later: trace, gap: now - ended,
            outcome: last.result ?? "cancel", origin: origin))
      }
      // Requests without a context, queued back to back (the README's socat session), are a
      // deliberate queue; two contexts (two code paths of an app) at once are the bug.
      if configuration.overlapDetector, history.active.count == 1, let other = history.active.first,
        other.contextID != trace.contextID, other.explicitContext || trace.explicitContext
      {
        found.append(
          finding(
            .overlappingPrompts, earlier: other.requestID, later: trace,
            gap: now - other.submittedAt, outcome: other.startedAt == nil ? "queued" : "running",
            origin: origin))
      }
      if configuration.churnDetector, let invalidation = history.invalidation,
        invalidation.contextID != trace.contextID,
        now - invalidation.at <= configuration.churnWindow
      {
        history.invalidation = nil
        found.append(
          finding(
            .contextChurn, earlier: invalidation.requestID, later: trace,
            gap: now - invalidation.at, outcome: "invalidated", origin: origin))
      }
    }
    history.active.append(trace)
    keep(trace, in: history, configuration: configuration)
    var reported: [Finding] = []
    for item in found {
      counts[item.kind, default: 0] += 1
      if let last = history.lastReported[item.kind], now - last < Self.repeatInterval {
        repeatsNotReported += 1
        continue
      }
      history.lastReported[item.kind] = now
      remember(item, keeping: configuration.findingsKept)
      reported.append(item)
    }
    return reported
  }

  /// Records how an evaluation ended.
  func finished(_ trace: PromptTrace, at now: Duration) {
    trace.endedAt = now
    guard let history = trace.history else { return }
    trace.history = nil
    if let index = history.active.firstIndex(where: { $0 === trace }) {
      history.active.remove(at: index)
    }
    history.lastEnded = trace
    dropIfEmpty(history)
  }

  /// Records that a client invalidated a context; it can start churn when its evaluation is in
  /// flight (`inFlight`) or ended in a cancel within the window.
  func invalidated(
    contextID: String, inFlight: PromptTrace?, key: ClientKey, at now: Duration,
    configuration: DiagnosticsConfiguration
  ) {
    guard configuration.churnDetector, let history = histories[key] else { return }
    if let inFlight {
      history.invalidation = (contextID, inFlight.requestID, now)
    } else if let last = history.lastEnded, last.contextID == contextID, last.endedInCancel,
      let ended = last.endedAt, now - ended <= configuration.churnWindow
    {
      history.invalidation = (contextID, last.requestID, now)
    }
  }

  /// The traces of the clients `matching` accepts, oldest first.
  func traces(where matching: (PromptTrace) -> Bool) -> [PromptTrace] {
    histories.values.flatMap { $0.traces.filter(matching) }.sorted {
      ($0.submittedAt, $0.sequence) < ($1.submittedAt, $1.sequence)
    }
  }

  private func finding(
    _ kind: Finding.Kind, earlier: String, later trace: PromptTrace, gap: Duration,
    outcome: String, origin: Duration
  ) -> Finding {
    Finding(
      kind: kind, earlierRequestID: earlier, laterRequestID: trace.requestID,
      gapMilliseconds: gap.milliseconds, earlierOutcome: outcome, clientPID: trace.clientPID,
      clientUID: trace.clientUID, clientName: trace.clientName, appID: trace.appID,
      atMilliseconds: (trace.submittedAt - origin).milliseconds)
  }

  private func remember(_ finding: Finding, keeping limit: Int) {
    findings.append(finding)
    if findings.count > max(limit, 0) { findings.removeFirst(findings.count - max(limit, 0)) }
  }

  private func keep(
    _ trace: PromptTrace, in history: ClientHistory, configuration: DiagnosticsConfiguration
  ) {
    nextSequence += 1
    trace.sequence = nextSequence
    history.traces.append(trace)
    ring.append((nextSequence, history))
    traceCount += 1
    while history.traces.count > max(configuration.tracePerClient, 1) {
      history.traces.removeFirst()
      traceCount -= 1
    }
    while traceCount > max(configuration.traceTotal, 1), ringHead < ring.count {
      let (sequence, other) = ring[ringHead]
      ringHead += 1
      if other.traces.first?.sequence == sequence {
        other.traces.removeFirst()
        traceCount -= 1
        dropIfEmpty(other)
      }
    }
    compactRing()
  }

  /// Drops the ring's consumed prefix once it is most of the array, so the ring stays within a
  /// small multiple of the traces held.
  private func compactRing() {
    if ringHead > 64 && ringHead * 2 > ring.count {
      ring.removeFirst(ringHead)
      ringHead = 0
    }
    if ring.count - ringHead > 4 * max(traceCount, 64) {
      // A client's traces leave oldest first, so an entry is live exactly when it is not older
      // than its client's oldest trace.
      ring = ring[ringHead...].filter { entry in
        entry.history.traces.first.map { entry.sequence >= $0.sequence } ?? false
      }
      ringHead = 0
    }
  }

  private func dropIfEmpty(_ history: ClientHistory) {
    if history.traces.isEmpty && history.active.isEmpty { histories[history.key] = nil }
  }
}

extension Duration {
  /// The whole milliseconds in this duration.
  var milliseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}
