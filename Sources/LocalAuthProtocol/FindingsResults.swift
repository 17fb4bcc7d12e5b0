// `broker.findings`'s answer: what the re-prompt detectors found.

/// One detector finding as `broker.findings` reports it.
public struct BrokerFinding: Sendable, Equatable {
  /// repromptAfterCancel, overlappingPrompts or contextChurn.
  public var kind: String
  /// The earlier evaluation (the cancelled, pending or invalidated one).
  public var earlierRequestID: String
  /// The later evaluation (the second prompt).
  public var laterRequestID: String
  /// Milliseconds between the earlier event and the later submission.
  public var gapMs: Int
  /// How the earlier evaluation ended ("userCancel", …) or "queued" / "running" / "invalidated".
  public var earlierOutcome: String
  /// The client's pid, uid, declared name and app id.
  public var clientPID: Int
  /// The client's uid.
  public var clientUID: Int
  /// The client's declared name.
  public var clientName: String
  /// The client's app id.
  public var appID: String
  /// When (ms since the daemon started).
  public var atMs: Int

  /// A finding.
  public init(
    kind: String, earlierRequestID: String, laterRequestID: String, gapMs: Int,
    earlierOutcome: String, clientPID: Int, clientUID: Int, clientName: String, appID: String,
    atMs: Int
  ) {
    self.kind = kind
    self.earlierRequestID = earlierRequestID
    self.laterRequestID = laterRequestID
    self.gapMs = gapMs
    self.earlierOutcome = earlierOutcome
    self.clientPID = clientPID
    self.clientUID = clientUID
    self.clientName = clientName
    self.appID = appID
    self.atMs = atMs
  }

  /// The finding's object.
  public var json: JSONValue {
    [
      "kind": .string(kind), "earlierRequestID": .string(earlierRequestID),
      "laterRequestID": .string(laterRequestID), "gapMs": .int(gapMs),
      "earlierOutcome": .string(earlierOutcome), "clientPID": .int(clientPID),
      "clientUID": .int(clientUID), "clientName": .string(clientName), "appID": .string(appID),
      "atMs": .int(atMs),
    ]
  }

  /// Reads one element of `broker.findings`'s `findings`.
  public init(json: JSONValue) {
    let o = json.objectValue ?? [:]
    kind = o["kind"]?.stringValue ?? ""
    earlierRequestID = o["earlierRequestID"]?.stringValue ?? ""
    laterRequestID = o["laterRequestID"]?.stringValue ?? ""
    gapMs = o["gapMs"]?.intValue ?? 0
    earlierOutcome = o["earlierOutcome"]?.stringValue ?? ""
    clientPID = o["clientPID"]?.intValue ?? 0
    clientUID = o["clientUID"]?.intValue ?? 0
    clientName = o["clientName"]?.stringValue ?? ""
    appID = o["appID"]?.stringValue ?? ""
    atMs = o["atMs"]?.intValue ?? 0
  }
}

/// What the detectors found since the daemon started (`broker.findings`).
public struct FindingsReport: MethodResult, Equatable {
  /// Findings of each kind since start, over every client.
  public var counts: [String: Int]
  /// How many findings the daemon keeps for listing.
  public var kept: Int
  /// The findings kept (the latest, up to the daemon's bound) that this caller may see.
  public var findings: [BrokerFinding]
  /// How long the daemon has run, in milliseconds.
  public var uptimeMs: Int
  /// Findings counted but not listed or logged: repeats of a kind for a client within 10 s.
  public var repeatsNotReported: Int

  /// A report.
  public init(
    counts: [String: Int], kept: Int, findings: [BrokerFinding], uptimeMs: Int,
    repeatsNotReported: Int
  ) {
    self.counts = counts
    self.kept = kept
    self.findings = findings
    self.uptimeMs = uptimeMs
    self.repeatsNotReported = repeatsNotReported
  }

  /// `{counts, findings, kept, uptimeMs, repeatsNotReported}`, counts by kind name in order.
  public var json: JSONValue {
    var counted = JSONObject()
    for kind in counts.keys.sorted() { counted[kind] = .int(counts[kind] ?? 0) }
    return [
      "counts": .object(counted), "findings": .array(findings.map(\.json)), "kept": .int(kept),
      "uptimeMs": .int(uptimeMs), "repeatsNotReported": .int(repeatsNotReported),
    ]
  }

  /// Reads `broker.findings`'s result.
  public init?(json: JSONValue) {
    guard let o = json.objectValue else { return nil }
    var counts: [String: Int] = [:]
    for member in o["counts"]?.objectValue?.members ?? [] {
      counts[member.key] = member.value.intValue ?? 0
    }
    self.counts = counts
    findings = (o["findings"]?.arrayValue ?? []).map(BrokerFinding.init(json:))
    kept = o["kept"]?.intValue ?? 0
    uptimeMs = o["uptimeMs"]?.intValue ?? 0
    repeatsNotReported = o["repeatsNotReported"]?.intValue ?? 0
  }
}
