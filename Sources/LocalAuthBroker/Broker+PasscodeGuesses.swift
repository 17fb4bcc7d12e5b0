import LocalAuthProtocol
import Sensors

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
  /// On a login-password sensor (`on`), a typed guess is checked as `owner`'s login password instead
  /// (through the sensor's injected checker: PAM in the root helper), and counts in the same back-off;
  /// the typed text (the agent's answer, `SecretWipe.ownedCopy`: never a literal) is wiped once
  /// judged, however the guess ends. A check that could not be made is not a guess: not counted,
  /// answered as a one-second wait.
  func judgePasscodeGuess(
    _ guess: PasscodeGuess, owner: UInt32, on sensor: (any SensorDriver)? = nil,
    account: SensorOwner? = nil
  ) async -> PasscodeVerdict {
    let verdict = await judge(guess, owner: owner, on: sensor, account: account)
    if case .typed(let text) = guess, sensor is any LoginPasswordSensor { SecretWipe.wipe(text) }
    return verdict
  }

  private func judge(
    _ guess: PasscodeGuess, owner: UInt32, on sensor: (any SensorDriver)?, account: SensorOwner?
  ) async -> PasscodeVerdict {
    if let notBefore = ownerState(owner).passcodeRetryNotBefore, services.time.now() < notBefore {
      return .notJudged(retryAfterSeconds: secondsUntil(notBefore))
    }
    guard device.owners.beginGuess(at: owner) else {
      return .notJudged(retryAfterSeconds: 1)
    }
    defer { device.owners.endGuess(at: owner) }
    let right: Bool
    switch guess {
    case .scripted(let scripted): right = scripted
    case .typed(let text):
      if let password = sensor as? any LoginPasswordSensor {
        let check = await password.checkPassword(
          text, owner: account ?? SensorOwner(uid: owner, name: "uid-\(owner)"))
        guard check != .unavailable else {
          services.log.notice(
            "the login password of uid \(owner) could not be checked (password helper unreachable)")
          return .notJudged(retryAfterSeconds: 1)
        }
        right = check == .right
      } else if let stored = ownerState(owner).passcode {
        right = await services.hasher.verify(text, against: stored)
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
    let now = services.time.now()
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
    let remaining = instant - services.time.now()
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
