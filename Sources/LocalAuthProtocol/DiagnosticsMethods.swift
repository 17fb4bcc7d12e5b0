/// The method names of the evaluation detectors and traces (`localauthctl doctor`, `trace`).
extension Method {
  /// `broker.findings {appID?}` → `{counts, findings}`: what the detectors found since start.
  public static let brokerFindings = "broker.findings"
  /// `broker.trace {appID?, pid?}` → `{evaluations}`: recent prompting evaluations as a timeline.
  public static let brokerTrace = "broker.trace"
}
