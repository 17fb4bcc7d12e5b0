/// Why a trace cannot be replayed.
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var reason: String
  /// The reason.
  public var description: String { reason }
}

extension EvaluationTrace {
  /// The sensor scripts (docs/protocol.md, "The script language") that make the sensors answer as
  /// they did in this trace: for every capture, in order, `SLEEP` for as long as the sensor took,
  /// then what it saw. Each script starts with `DEFAULT WAIT`, so a capture the trace never saw
  /// answered (the app cancelled it) waits again. A correct passcode is typed as `passcode`
  /// (required when the trace has one); a wrong one as `PASSCODE 0`, which no device passcode (4–16
  /// digits) matches.
  public func replayScripts(passcode: String? = nil) throws(ReplayError) -> [(
    sensor: String, commands: [String]
  )] {
    var scripts: [(sensor: String, commands: [String])] = []
    func append(_ sensor: String, _ command: String) {
      if let index = scripts.firstIndex(where: { $0.sensor == sensor }) {
        scripts[index].commands.append(command)
      } else {
        scripts.append((sensor, ["DEFAULT WAIT", command]))
      }
    }
    for evaluation in evaluations {
      for step in evaluation.steps where step.kind == "capture" {
        guard let event = step.event else { continue }
        let took = step.atMs - (step.askedAtMs ?? step.atMs)
        if took > 0 { append(step.sensor, "SLEEP \(min(took, 3_600_000))") }
        append(step.sensor, try Self.command(for: event, correct: step.correct, passcode: passcode))
      }
    }
    return scripts
  }

  private static func command(for event: String, correct: Bool?, passcode: String?)
    throws(ReplayError) -> String
  {
    switch event {
    case "match": return "MATCH"
    case "noMatch": return "NOMATCH"
    case "userCancel": return "CANCEL"
    case "userFallback": return "FALLBACK"
    case "disconnected": return "DISCONNECT"
    case "passcodeEntered":
      guard correct == true else { return "PASSCODE 0" }
      guard let passcode else {
        throw ReplayError(
          reason: "the trace has a correct passcode entry; give the passcode to type (--passcode)")
      }
      return "PASSCODE \(passcode)"
    default:
      guard !event.isEmpty, event.utf8.count <= 64,
        event.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
      else {
        throw ReplayError(reason: "unknown sensor event in the trace")
      }
      return "RETRY \(event)"
    }
  }
}
