import Sensors
import Testing

@testable import ExternalDrivers

/// fprintd's VerifyStatus results as capture events.
@Suite struct FprintdStatusTests {
  private func event(_ result: String) -> CaptureEvent? {
    if case .event(let event) = FprintdStatus(result: result, matchedIdentity: "right-index-finger")
    {
      return event
    }
    return nil
  }

  @Test func everyResultHasItsMeaning() {
    #expect(event("verify-match") == .match(identity: "right-index-finger"))
    #expect(event("verify-no-match") == .noMatch)
    #expect(event("verify-retry-scan") == .retry(reason: .retryScan))
    #expect(event("verify-swipe-too-short") == .retry(reason: .swipeTooShort))
    #expect(event("verify-finger-not-centered") == .retry(reason: .fingerNotCentered))
    #expect(event("verify-remove-and-retry") == .retry(reason: .removeAndRetry))
    #expect(event("verify-too-fast") == .retry(reason: .tooFast))
    #expect(event("verify-disconnected") == .disconnected)
  }

  @Test func fprintdsRetryWordsCoverTheFingerReasons() {
    let words = [
      "verify-retry-scan", "verify-swipe-too-short", "verify-finger-not-centered",
      "verify-remove-and-retry", "verify-too-fast",
    ]
    let reasons = words.compactMap { word -> RetryReason? in
      if case .retry(let reason) = event(word) { return reason }
      return nil
    }
    #expect(reasons == [.retryScan, .swipeTooShort, .fingerNotCentered, .removeAndRetry, .tooFast])
  }

  @Test func anUnknownResultIsAFailureLoggedSanitized() {
    guard case .failure(let what) = FprintdStatus(result: "verify-\u{1B}[2J", matchedIdentity: "x")
    else {
      Issue.record("an unknown result was taken as an event")
      return
    }
    #expect(what == #"verify-\x1b[2J"#)
    guard case .failure = FprintdStatus(result: "verify-unknown-error", matchedIdentity: "x") else {
      Issue.record("verify-unknown-error was taken as an event")
      return
    }
  }
}
