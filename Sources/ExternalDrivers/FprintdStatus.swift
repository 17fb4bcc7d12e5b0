import Sensors

/// What one fprintd `VerifyStatus` result means for a capture.
enum FprintdStatus {
  /// The capture ends with this event.
  case event(CaptureEvent)
  /// fprintd failed (`verify-unknown-error` or a result this version does not know).
  case failure(String)

  /// The meaning of a result string (untrusted: an unknown one is a failure, logged sanitized).
  init(result: String, matchedIdentity: String) {
    switch result {
    case "verify-match": self = .event(.match(identity: matchedIdentity))
    case "verify-no-match": self = .event(.noMatch)
    case "verify-retry-scan": self = .event(.retry(reason: .retryScan))
    case "verify-swipe-too-short": self = .event(.retry(reason: .swipeTooShort))
    case "verify-finger-not-centered": self = .event(.retry(reason: .fingerNotCentered))
    case "verify-remove-and-retry": self = .event(.retry(reason: .removeAndRetry))
    case "verify-too-fast": self = .event(.retry(reason: .tooFast))
    case "verify-disconnected": self = .event(.disconnected)
    default: self = .failure(LogSanitizer.sanitize(result, limit: 64))
    }
  }
}
