import LocalAuthProtocol
import Sensors

/// What an `EvaluationRun` returns for each thing it is told: what the broker carries out now
/// (`effects`, in order), then what it waits for or looks up next (`next`).
struct EvaluationStep {
  /// Done first, in order.
  var effects: [RunEffect] = []
  /// What the run needs next.
  var next: RunNext
}

/// What the run needs next: a fact looked up, a capture awaited, or the end.
enum RunNext: Equatable {
  /// Whether biometry can be used now: answer with `biometryChecked`.
  case checkBiometry
  /// Whether a companion is in reach: answer with `companionChecked`.
  case checkCompanion
  /// Open the passcode prompt (find the passcode sensor, show the prompt on an agent): answer with
  /// `passcodePromptOpened`.
  case openPasscodePrompt
  /// One presentation on the stage's sensor, or the person's answer from the agent: answer with
  /// `captured`.
  case capture(attempt: Int)
  /// Whether anyone can answer a wait for the fallback choice (an agent, the script): answer with
  /// `chooser`.
  case checkChooser
  /// The person's choice at a prompt that stopped trying to match (fallback or Cancel): answer with
  /// `choiceMade`, or `nobodyCanChoose` when nobody can answer any more.
  case awaitChoice(attempt: Int)
  /// Wait out the passcode back-off (the person may cancel meanwhile): answer with `delayEnded`.
  case waitOutDelay(until: Duration)
  /// Judge a passcode guess at the owner's passcode: answer with `judged`.
  case judge(PasscodeGuess)
  /// The evaluation ends.
  case end(RunEnding)
}

/// Something the broker carries out for the run: notifications, the owner's new state, a log line.
enum RunEffect: Equatable {
  /// Feedback about the stage's sensor, to the client, the agent, monitors and the trace.
  case feedback(sensor: String, what: String, attempt: Int, details: FeedbackDetails)
  /// The counted owner's new state, to keep and persist.
  case ownerChanged(OwnerState)
  /// Biometry locked out for this owner after these consecutive failed matches (logged).
  case lockedOut(uid: UInt32, failures: Int)
  /// The prompt falls back from biometry to the passcode, for this reason.
  case fallbackToPasscode(reason: String)
  /// The prompt now asks for the passcode on this sensor (an agent may answer with one).
  case askForPasscode(sensor: String)
  /// The owner's passcode was right: every counter and the lockout clear.
  case passcodeSucceeded(uid: UInt32)
}

/// How an evaluation ends, before the broker adds its requestID.
enum RunEnding: Equatable {
  /// Matched or right, on this sensor.
  case success(sensor: String)
  /// An LA error, with its reason and message when it has them.
  case failure(ErrorCode, reason: String? = nil, message: String? = nil)
  /// A system evaluation the availability rules refused, with the refusal's own data.
  case refused(RPCError)
}

/// A sensor a stage prompts on, as the run sees it: its name and kind (the driver stays the
/// broker's).
struct StageSensor: Equatable {
  /// The configuration's section name.
  let name: String
  /// The kind of hardware.
  let kind: SensorKind
}

/// Whether biometry can be used now, as the broker found it.
enum BiometryCheck: Equatable {
  /// Usable, on this sensor.
  case ready(StageSensor)
  /// Not usable, with the LA error that says why.
  case unavailable(ErrorCode)
  /// A system evaluation refused (the requester is locked out, or the owner's biometry is not usable).
  case refused(RPCError)
}

/// What the run reads of the world with each event: the clock and the owners' states.
struct RunFacts {
  /// Now, on the broker's clock.
  let now: Duration
  /// The state of the uid whose failed matches count (`EvaluationRun.countsAgainst`).
  let counted: OwnerState
  /// The state of the owner whose passcode is asked for.
  let owner: OwnerState
}

/// How a biometric stage ended, before the policy decides what it means.
enum BiometricStageEnd: Equatable {
  case matched(sensor: String)
  case cancelled
  case fallbackChosen
  case attemptsExhausted
  case lockedOut
  case disconnected

  /// The `reason` of the fallback to the passcode it leads to.
  var fallbackReason: String {
    switch self {
    case .fallbackChosen: "userFallback"
    case .attemptsExhausted: "attemptsExhausted"
    case .lockedOut: "biometryLockout"
    case .disconnected: "biometryDisconnected"
    case .matched, .cancelled: "other"
    }
  }

  /// The outcome when the policy has no passcode stage after it.
  var biometricOnlyEnding: RunEnding {
    switch self {
    case .matched(let name): .success(sensor: name)
    case .cancelled: .failure(.userCancel)
    case .fallbackChosen: .failure(.userFallback)
    case .attemptsExhausted: .failure(.authenticationFailed)
    case .lockedOut: .failure(.biometryLockout)
    case .disconnected: .failure(.biometryDisconnected)
    }
  }
}
