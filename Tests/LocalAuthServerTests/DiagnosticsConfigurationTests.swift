import LocalAuthBroker
import LocalAuthServer
import Testing

/// The `[Diagnostics]` section: defaults, every key, and refusals with file:line.
@Suite struct DiagnosticsConfigurationTests {
  @Test func detectorsAreOnByDefaultWithBoundedTraces() {
    let diagnostics = DaemonConfiguration().broker.diagnostics
    #expect(
      diagnostics.repromptDetector && diagnostics.overlapDetector && diagnostics.churnDetector)
    #expect(diagnostics.repromptWindow == .seconds(2) && diagnostics.churnWindow == .seconds(2))
    #expect(diagnostics.tracePerClient == 32 && diagnostics.traceTotal == 1024)
    #expect(diagnostics.quietApps.isEmpty)
  }

  @Test func everyDiagnosticsKeyIsRead() throws {
    let text = """
      [Diagnostics]
      RepromptDetector=no
      OverlapDetector=off
      ChurnDetector=false
      RepromptWindowMs=750
      ChurnWindowMs=1500
      TracePerClient=8
      TraceTotal=100
      TraceEventsPerEvaluation=16
      FindingsKept=10
      QuietApps=com.example.kiosk com.example.retry
      QuietApps=com.example.third
      [Broker]
      MaxQueue=10
      """
    let configuration = try ConfigurationParser.parse(text, file: "t.conf")
    let d = configuration.broker.diagnostics
    #expect(!d.repromptDetector && !d.overlapDetector && !d.churnDetector)
    #expect(d.repromptWindow == .milliseconds(750) && d.churnWindow == .milliseconds(1500))
    #expect(d.tracePerClient == 8 && d.traceTotal == 100 && d.traceEventsPerEvaluation == 16)
    #expect(d.findingsKept == 10)
    #expect(d.quietApps == ["com.example.kiosk", "com.example.retry", "com.example.third"])
    #expect(configuration.broker.maxQueue == 10)
  }

  @Test(arguments: [
    ("[Diagnostics]\nRepromptWindowMs=0", 2, "RepromptWindowMs=0: must be an integer from 1"),
    ("[Diagnostics]\nTraceTotal=1000000", 2, "TraceTotal=1000000: must be an integer from 1"),
    ("[Diagnostics]\nOverlapDetector=maybe", 2, "OverlapDetector=maybe: must be yes or no"),
    ("[Diagnostics]\nWindow=3", 2, "unknown key in [Diagnostics]"),
    ("[Diagnostic]\n", 1, "unknown section [Diagnostic]"),
  ])
  func badDiagnosticsAreRefusedWithTheLine(text: String, line: Int, reason: String) {
    #expect {
      try ConfigurationParser.parse(text, file: "bad.conf")
    } throws: { error in
      guard let error = error as? ConfigurationError else { return false }
      return error.line == line && error.reason.contains(reason)
    }
  }
}
