import LocalAuthProtocol

/// One passcode guess to judge: typed digits, or a scripted sensor's right or wrong entry.
enum PasscodeGuess: Equatable {
  case typed(String)
  case scripted(right: Bool)
}

/// What judging a guess found.
enum PasscodeVerdict: Equatable {
  case right
  case wrong(failures: Int)
  /// Not judged and not counted: the back-off is running (or another guess is being judged).
  case notJudged(retryAfterSeconds: Int)
}

extension Broker {
  /// Judges one guess at `owner`'s passcode, wherever it comes from (a prompt, `oldPasscode`): the
  /// back-off is checked when the guess arrives, not when the prompt opened, and one guess is judged
  /// at a time per owner, so every guess is one step of the schedule and none slips in between.
  /// A right guess clears the passcode counters (the caller clears more); a wrong one counts.
  func judgePasscodeGuess(_ guess: PasscodeGuess, owner: UInt32) async -> PasscodeVerdict {
    if let notBefore = ownerState(owner).passcodeRetryNotBefore, time.now() < notBefore {
      return .notJudged(retryAfterSeconds: secondsUntil(notBefore))
    }
    guard owners.beginGuess(at: owner) else {
      return .notJudged(retryAfterSeconds: 1)
    }
    defer { owners.endGuess(at: owner) }
    let right: Bool
    switch guess {
    case .scripted(let scripted): right = scripted
    case .typed(let digits):
      if let stored = ownerState(owner).passcode {
        right = await hasher.verify(digits, against: stored)
      } else {
        right = false
      }
    }
    guard right else { return .wrong(failures: passcodeFailed(owner)) }
    updateOwner(owner) { state in
      state.consecutivePasscodeFailures = 0
      state.passcodeRetryNotBefore = nil
    }
    return .right
  }

  /// Counts a wrong passcode for `owner` and starts the escalating delay once past the threshold.
  func passcodeFailed(_ owner: UInt32) -> Int {
    let from = configuration.passcodeDelayFromFailure
    let delays = configuration.passcodeDelays
    let now = time.now()
    updateOwner(owner) { state in
      state.consecutivePasscodeFailures += 1
      let failures = state.consecutivePasscodeFailures
      if failures >= from, !delays.isEmpty {
        state.passcodeRetryNotBefore = now + delays[min(failures - from, delays.count - 1)]
      }
    }
    return ownerState(owner).consecutivePasscodeFailures
  }

  /// Whole seconds until `instant` on the broker's clock, rounded up (at least 1 while it is ahead).
  func secondsUntil(_ instant: Duration) -> Int {
    let remaining = instant - time.now()
    guard remaining > .zero else { return 0 }
    let (seconds, attoseconds) = remaining.components
    return Int(seconds) + (attoseconds > 0 ? 1 : 0)
  }

  /// In device mode the owner's first passcode is the owner's (SetupOwner) or an admin's to set:
  /// another user setting it first would own the device's passcode.
  func checkFirstPasscodeSetter(_ client: ClientSession, owner: UInt32) throws(RPCError) {
    guard configuration.ownerMode == .device, !client.isAdmin, client.peer.uid != owner,
      ownerState(owner).passcode == nil
    else { return }
    throw RPCError(
      .permissionDenied,
      "Permission denied: in Owners=device only the device owner or an admin sets the first passcode.",
      data: ["field": "passcode", "reason": "notDeviceOwner"])
  }
}
