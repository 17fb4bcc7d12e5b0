import Glibc
import LocalAuthClientCore
import LocalAuthProtocol

/// Runs `doctor`, `trace` and `replay`.
extension CommandRunner {
  func performDiagnostics(_ command: Command, broker: LocalAuthDaemon, output: OutputFormatter)
    async throws
  {
    switch command {
    case .doctor(let appID):
      standardOutput(output.doctor(try await broker.findings(appID: appID), appID: appID))
    case .trace(let appID, let pid):
      let trace = try await broker.trace(appID: appID, pid: pid)
      if output.json {
        for evaluation in trace.evaluations { standardOutput(JSONWriter.string(evaluation.json)) }
      } else {
        standardOutput(output.timeline(trace))
      }
    case .replay(let path, let passcode):
      guard let bytes = Self.readFile(path) else {
        let reason = String(cString: strerror(errno))
        throw UsageError("cannot read the trace file \(path): \(reason)", subcommand: "replay")
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let trace: EvaluationTrace
      do {
        trace = try EvaluationTrace(jsonLines: text)
      } catch {
        throw UsageError("\(path): \(error.description)", subcommand: "replay")
      }
      do {
        _ = try trace.replayScripts(passcode: passcode)
      } catch {
        throw UsageError(error.description, subcommand: "replay")
      }
      let queued = try await broker.replay(trace, passcode: passcode)
      standardOutput(output.replayed(trace, queued: queued))
    default:
      break
    }
  }
}
