import LocalAuthProtocol

/// A trace file that cannot be read: the line and what is wrong.
public struct TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// What is wrong.
  public var reason: String
  /// "line N: reason".
  public var description: String { "line \(line): \(reason)" }
}

/// A client's evaluations as a timeline (`localauthctl trace`), readable from and writable to a
/// trace file of JSON lines, and turnable into sensor scripts that replay it (`localauthctl replay`).
public struct EvaluationTrace: Sendable, Equatable {
  /// The evaluations, oldest first.
  public var evaluations: [TracedEvaluation]

  /// A trace of these evaluations (sorted by submission).
  public init(evaluations: [TracedEvaluation]) {
    self.evaluations = evaluations.sorted { $0.submittedMs < $1.submittedMs }
  }

  /// Reads a trace file: one evaluation object per line; blank lines are skipped.
  public init(jsonLines text: String) throws(TraceFileError) {
    var evaluations: [TracedEvaluation] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
      let value: JSONValue
      do {
        value = try JSONParser.parse(Array(line.utf8))
      } catch {
        throw TraceFileError(line: index + 1, reason: "not JSON (\(error.message))")
      }
      guard let evaluation = TracedEvaluation(traceLine: value) else {
        throw TraceFileError(
          line: index + 1, reason: "not a traced evaluation (needs requestID, submittedMs, events)")
      }
      evaluations.append(evaluation)
    }
    self.init(evaluations: evaluations)
  }

  /// The trace file: one JSON object per evaluation, one per line.
  public var jsonLines: String {
    evaluations.map { JSONWriter.string($0.json) + "\n" }.joined()
  }
}
