import LocalAuthBroker

extension ConfigurationParser {
  /// One key of the `[Diagnostics]` section: the detectors' switches and windows, the trace bounds.
  static func applyDiagnostics(
    _ key: String, _ value: String, to d: inout DiagnosticsConfiguration
  ) throws(ConfigurationValueError) {
    switch key {
    case "RepromptDetector": d.repromptDetector = try boolean(value)
    case "OverlapDetector": d.overlapDetector = try boolean(value)
    case "ChurnDetector": d.churnDetector = try boolean(value)
    case "RepromptWindowMs": d.repromptWindow = .milliseconds(try integer(value, 1...600_000))
    case "ChurnWindowMs": d.churnWindow = .milliseconds(try integer(value, 1...600_000))
    case "TracePerClient": d.tracePerClient = try integer(value, 1...10_000)
    case "TraceTotal": d.traceTotal = try integer(value, 1...100_000)
    case "TraceEventsPerEvaluation": d.traceEventsPerEvaluation = try integer(value, 1...1_000)
    case "FindingsKept": d.findingsKept = try integer(value, 1...100_000)
    case "QuietApps":
      let names = value.split(separator: " ").map(String.init)
      guard names.allSatisfy({ $0.utf8.count <= 256 }) else {
        throw .init("app ids must be at most 256 bytes")
      }
      d.quietApps.formUnion(names)
    default: throw .init("unknown key in [Diagnostics]")
    }
  }
}
