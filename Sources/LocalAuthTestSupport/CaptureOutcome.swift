import LocalAuthConcurrency
import Sensors

/// How a capture ended, as driver tests compare it.
public enum CaptureOutcome: Equatable, Sendable, CustomStringConvertible {
  /// It returned an event.
  case event(CaptureEvent)
  /// It threw a sensor failure.
  case failure(SensorFailure.Reason)
  /// It threw CancellationError.
  case cancelled
  /// It threw something else.
  case other(String)
  /// It did not end within the deadline (the task is cancelled).
  case hung

  /// The outcome in words.
  public var description: String {
    switch self {
    case .event(let event): "event \(event)"
    case .failure(let reason): "failure \(reason.rawValue)"
    case .cancelled: "cancellation"
    case .other(let error): "error \(error)"
    case .hung: "no end within the deadline"
    }
  }
}

/// How `capture` ended, or `.hung` (and cancelled) when it took longer than `deadline`.
public func result(
  of capture: Task<CaptureEvent, any Error>, within deadline: Duration
) async -> CaptureOutcome {
  let ended = await within(deadline) { _ = await capture.result }
  guard ended else {
    capture.cancel()
    return .hung
  }
  switch await capture.result {
  case .success(let event): return .event(event)
  case .failure(let error as SensorFailure): return .failure(error.reason)
  case .failure(is CancellationError): return .cancelled
  case .failure(let error): return .other("\(error)")
  }
}

/// Whether `work` finished within `deadline`; when it did not, it is left running unstructured, so a
/// call that never returns (a blocked thread) is reported instead of hanging the suite.
public func within(_ deadline: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool
{
  let verdict = StateLock<CheckedContinuation<Bool, Never>?>(nil)
  return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    verdict.withLock { $0 = continuation }
    @Sendable func settle(_ finished: Bool) {
      let waiting = verdict.withLock { state -> CheckedContinuation<Bool, Never>? in
        defer { state = nil }
        return state
      }
      waiting?.resume(returning: finished)
    }
    let worker = Task {
      await work()
      settle(true)
    }
    Task {
      try? await Task.sleep(for: deadline)
      settle(false)
      _ = worker
    }
  }
}
