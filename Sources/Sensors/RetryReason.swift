/// Why a read could not be judged and the person should present again: a closed vocabulary whose raw
/// values are the words of `evaluation.feedback` and `agent.feedback` (docs/drivers.md, "Retry
/// reasons"). Every driver maps its own words onto it (fprintd's `verify-*` results, the exec
/// protocol's `RETRY <id> <reason>`, the script's `RETRY <reason>`); no other word reaches a client.
public enum RetryReason: String, Sendable, Equatable, CaseIterable {
  /// The sensor could not read the finger; present it again (fprintd's `verify-retry-scan`).
  case retryScan
  /// The swipe was too short (fprintd's `verify-swipe-too-short`).
  case swipeTooShort
  /// The finger was not centered on the sensor (fprintd's `verify-finger-not-centered`).
  case fingerNotCentered
  /// Lift the finger and put it down again (fprintd's `verify-remove-and-retry`).
  case removeAndRetry
  /// The finger moved too fast (fprintd's `verify-too-fast`).
  case tooFast
  /// The face was not centered in the camera's view.
  case faceNotCentered
  /// Too dark to see a face.
  case tooDark

  /// The words, for error messages and documents: "retryScan, swipeTooShort, …".
  public static var wordList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
