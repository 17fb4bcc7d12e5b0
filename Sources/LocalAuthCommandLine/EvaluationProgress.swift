import Dispatch
import FoundationEssentials
import Glibc
import LocalAuthClientCore
import LocalAuthProtocol
import Synchronization

/// Runs one evaluation for `localauthctl evaluate`: prints each progress event as it comes,
/// keeps a spinner with the waiting time on the terminal (only when there is one, and never with
/// `--json`), and turns
/// Ctrl-C into `cancel()` so the daemon ends the evaluation with appCancel.
struct EvaluationProgress {
  let runner: CommandRunner
  let output: OutputFormatter

  func evaluate(_ context: LocalAuthContext, _ policy: LAPolicy, reason: String) async throws
    -> EvaluationSuccess
  {
    let evaluation = context.startEvaluation(policy, localizedReason: reason)
    let interrupt = runner.cancelsOnInterrupt ? Self.onInterrupt { evaluation.cancel() } : nil
    defer { interrupt?.cancel() }
    let status = WaitingStatus()
    let terminal = output.json ? nil : runner.terminal
    let spinner = terminal.map { terminal in
      Task {
        let frames = Array("|/-\\")
        let start = ContinuousClock.now
        var frame = 0
        while !Task.isCancelled {
          let seconds = (ContinuousClock.now - start).components.seconds
          terminal("\r\u{1B}[K\(frames[frame % frames.count]) \(status.text) (\(seconds)s)")
          frame += 1
          try? await Task.sleep(for: .milliseconds(150))
        }
        terminal("\r\u{1B}[K")
      }
    }
    for await event in evaluation.events {
      // The sensor's arming changes only the spinner's words: the "prompt shown" line said what
      // to do, and the lines printed stay those of earlier versions.
      if case .armed = event {
        status.text = Self.waitingText(event)
        continue
      }
      if let terminal { terminal("\r\u{1B}[K") }
      runner.standardOutput(output.event(event))
      status.text = Self.waitingText(event)
    }
    spinner?.cancel()
    await spinner?.value
    return try await evaluation.outcome
  }

  static func waitingText(_ event: LAEvaluationEvent) -> String {
    switch event {
    case .queued(_, let position): "queued at position \(position)"
    case .started: "prompt shown, waiting for the user"
    case .armed(_, let sensor, _): "\(sensor): listening, waiting for the user"
    case .feedback(_, let sensor, "awaitingChoice", _):
      "\(sensor): no more tries, waiting for the fallback or Cancel"
    case .feedback(_, let sensor, let feedback, _): "\(sensor): \(feedback), trying again"
    case .fallback(_, let to): "waiting for \(to)"
    }
  }

  /// Calls `action` on SIGINT (instead of terminating) until the returned source is cancelled.
  static func onInterrupt(_ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: action)
    source.setCancelHandler { signal(SIGINT, SIG_DFL) }
    source.resume()
    return source
  }
}

/// The spinner's current text, written by the event loop and read by the spinner task.
private final class WaitingStatus: Sendable {
  private let storage = Mutex("waiting for the daemon")

  var text: String {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
