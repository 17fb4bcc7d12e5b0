import LocalAuthClientCore
import LocalAuthProtocol

/// Output of `doctor`, `trace` and `replay`. Client names, app ids and reasons are chosen by
/// clients, so every one is escaped (PrintableText) before it reaches a terminal.
extension OutputFormatter {
  private static let kinds = [
    ("repromptAfterCancel", "re-prompt after cancel"),
    ("overlappingPrompts", "overlapping prompts"),
    ("contextChurn", "context churn"),
  ]

  /// `doctor`: the counts and each finding in plain words, grouped by client.
  public func doctor(_ report: FindingsReport, appID: String?) -> String {
    if json {
      return encode([
        "counts": .object(
          JSONObject(Self.kinds.map { JSONMember($0.0, .int(report.counts[$0.0] ?? 0)) })),
        "findings": .array(report.findings.map(findingJSON)), "uptimeMs": .int(report.uptimeMs),
        "repeatsNotReported": .int(report.repeatsNotReported),
      ])
    }
    let uptime = "localauthd started \(report.uptimeMs / 1000) s ago"
    let scope = appID.map { " for \(PrintableText.escaped($0))" } ?? ""
    guard !report.findings.isEmpty else {
      return
        "No findings\(scope): no evaluation started again after a cancel, no two prompts at once, "
        + "no context reset around a cancel (\(uptime))."
    }
    var counts: [String: Int] = [:]
    if appID == nil {
      counts = report.counts
    } else {
      for finding in report.findings { counts[finding.kind, default: 0] += 1 }
    }
    let total = counts.values.reduce(0, +)
    var lines = [
      "\(total) finding\(total == 1 ? "" : "s")\(scope) since start (\(uptime)): "
        + Self.kinds.map { "\(counts[$0.0] ?? 0) \($0.1)" }.joined(separator: ", ")
    ]
    if appID == nil && report.findings.count < total {
      lines.append(
        "(\(report.repeatsNotReported) repeats of a finding within 10 s are counted, not listed; "
          + "the latest \(report.findings.count) are shown)")
    }
    // The daemon counts milliseconds since it started; people read the local time.
    let startedAt = now() - report.uptimeMs
    var clients: [String] = []
    var byClient: [String: [BrokerFinding]] = [:]
    for finding in report.findings {
      let client =
        "\(PrintableText.escaped(finding.clientName)) (app \(PrintableText.escaped(finding.appID)), uid \(finding.clientUID))"
      if byClient[client] == nil { clients.append(client) }
      byClient[client, default: []].append(finding)
    }
    for client in clients {
      lines.append("")
      lines.append(client + ":")
      for finding in byClient[client] ?? [] {
        let when = WallClock.format(milliseconds: startedAt + finding.atMs)
        lines.append("  at \(when), pid \(finding.clientPID): " + sentence(finding))
        lines.append("    Likely cause and fix: " + advice(finding.kind))
      }
    }
    return lines.joined(separator: "\n")
  }

  private func findingJSON(_ finding: BrokerFinding) -> JSONValue {
    [
      "kind": .string(finding.kind), "earlierRequestID": .string(finding.earlierRequestID),
      "laterRequestID": .string(finding.laterRequestID), "gapMs": .int(finding.gapMs),
      "earlierOutcome": .string(finding.earlierOutcome), "clientPID": .int(finding.clientPID),
      "clientUID": .int(finding.clientUID), "clientName": .string(finding.clientName),
      "appID": .string(finding.appID), "atMs": .int(finding.atMs),
    ]
  }

  private func sentence(_ finding: BrokerFinding) -> String {
    let earlier = PrintableText.escaped(finding.earlierRequestID)
    let later = PrintableText.escaped(finding.laterRequestID)
    let outcome = PrintableText.escaped(finding.earlierOutcome)
    switch finding.kind {
    case "repromptAfterCancel":
      return
        "evaluated again \(finding.gapMs) ms after the user saw \(outcome): \(earlier) ended with \(outcome), then \(later) prompted again."
    case "overlappingPrompts":
      return
        "two prompts at once: \(later) started from another context \(finding.gapMs) ms after \(earlier), still \(outcome)."
    case "contextChurn":
      return
        "reset a context and evaluated in a new one: the context of \(earlier) was invalidated, and \(finding.gapMs) ms later \(later) prompted from a new context."
    default:
      return
        "\(PrintableText.escaped(finding.kind)): \(earlier) then \(later), \(finding.gapMs) ms apart."
    }
  }

  private func advice(_ kind: String) -> String {
    switch kind {
    case "repromptAfterCancel":
      "the app evaluates again on its cancel path (a .task that re-runs, a retry loop, navigation on cancel). Treat userCancel as final and don't navigate on cancel."
    case "overlappingPrompts":
      "two code paths evaluate for one user action. Guard re-entry: one evaluation in flight at a time."
    case "contextChurn":
      "a shared context is reset and reused. Use one context per request."
    default: "see the journal entry's catalog text (journalctl -x)."
    }
  }

  /// `trace`: one timeline of every evaluation shown, in time order (evaluations that overlap
  /// interleave), each line with its offset from the first evaluation and its requestID.
  public func timeline(_ trace: EvaluationTrace) -> String {
    guard let origin = trace.evaluations.map(\.submittedMs).min() else {
      return "No traced evaluations (only evaluations that prompt are traced; see TracePerClient=)."
    }
    func offset(_ ms: Int) -> String {
      let text = "+\(ms - origin) ms"
      return text.count >= 11 ? text + " " : Self.padded(text, to: 11)
    }
    // (time, order of appearance, text): sorted by time, ties kept in the order written.
    var entries: [(at: Int, order: Int, text: String)] = []
    func add(_ at: Int, _ id: String, _ text: String) {
      entries.append((at, entries.count, offset(at) + id + "  " + text))
    }
    for evaluation in trace.evaluations {
      let id = PrintableText.escaped(evaluation.requestID)
      let name = PrintableText.escaped(evaluation.clientName)
      let app = PrintableText.escaped(evaluation.appID)
      add(
        evaluation.submittedMs, id,
        "\(name) (app \(app), pid \(evaluation.clientPID), uid \(evaluation.clientUID)), "
          + "context \(PrintableText.escaped(evaluation.context)), \(PrintableText.escaped(evaluation.policy))"
      )
      if let started = evaluation.startedMs {
        add(started, id, "started after \(started - evaluation.submittedMs) ms queued")
      }
      for step in evaluation.steps { add(step.atMs, id, stepText(step)) }
      let last = evaluation.steps.last?.atMs ?? evaluation.startedMs ?? evaluation.submittedMs
      if evaluation.droppedEvents > 0 {
        add(last, id, "(\(evaluation.droppedEvents) more events not kept)")
      }
      if let ended = evaluation.endedMs {
        var outcome = PrintableText.escaped(evaluation.result ?? "?")
        if let reason = evaluation.reason { outcome += " (\(PrintableText.escaped(reason)))" }
        add(ended, id, "ended: " + outcome)
      } else {
        entries.append(
          (Int.max, entries.count, Self.padded("", to: 11) + id + "  still queued or running"))
      }
    }
    return entries.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.text)
      .joined(separator: "\n")
  }

  /// One traced step: a sensor answer, a fallback or a feedback.
  private func stepText(_ step: TraceStep) -> String {
    let sensor = PrintableText.escaped(step.sensor)
    switch step.kind {
    case "capture":
      var text = "sensor \(sensor): \(PrintableText.escaped(step.event ?? "?"))"
      if let correct = step.correct { text += correct ? " (correct)" : " (wrong)" }
      if let asked = step.askedAtMs { text += " after \(step.atMs - asked) ms" }
      return text
    case "fallback":
      return "fallback to \(sensor) (\(PrintableText.escaped(step.reason ?? "?")))"
    default:
      return
        "feedback \(PrintableText.escaped(step.feedback ?? "?")) on \(sensor), attempt \(step.attempt ?? 0)"
    }
  }

  /// `replay`: what was queued on which sensor.
  public func replayed(_ trace: EvaluationTrace, queued: [(sensor: String, queued: Int)]) -> String
  {
    if json {
      return encode([
        "evaluations": .int(trace.evaluations.count),
        "queued": .object(JSONObject(queued.map { JSONMember($0.sensor, .int($0.queued)) })),
      ])
    }
    guard !queued.isEmpty else {
      return "nothing to replay: the trace has no sensor events"
    }
    let sensors = queued.map { "\(PrintableText.escaped($0.sensor)): \($0.queued) commands" }
      .joined(separator: ", ")
    return "replaying \(trace.evaluations.count) evaluations; queued \(sensors)"
  }
}
