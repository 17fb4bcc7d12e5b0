import CDriverProcess
import Glibc
import LocalAuthProtocol
import Sensors

/// What the supervisor does next, decided under the lock.
private enum SupervisorStep {
  case exit
  case spawn
  case kill(SensorFailure)
  case poll(timeoutMilliseconds: Int32, process: DriverProcess?)
}

/// The output side of one running driver, owned by the supervisor thread.
private struct DriverOutput {
  /// The driver's stdout, split into protocol lines of at most `lineLimit` bytes.
  var lines: LineFramer
  /// The driver's stderr, split the same way for the journal.
  var errors: LineFramer
  var stderrOpen = true
  /// The log lines (LOG and stderr) this run may still write.
  var logBudget = DriverLogBudget()

  /// The output side of a new run.
  init(lineLimit: Int) {
    lines = LineFramer(limit: lineLimit)
    errors = LineFramer(limit: lineLimit)
  }
}

extension LineFramer {
  /// The frames that `count` bytes of `buffer` complete, in order (bytes from a driver are untrusted:
  /// a line over the limit is one `.tooLarge`, never buffered past the limit).
  mutating func frames(_ buffer: [UInt8], count: Int) -> [Frame] {
    var frames: [Frame] = []
    buffer.withUnsafeBytes { bytes in
      feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { frames.append($0) }
    }
    return frames
  }
}

extension ExecSensor {
  /// The supervisor thread: starts the driver, reads its output, enforces the start deadline and the
  /// liveness ping, and restarts it with back-off after every ending. Returns once stopped.
  func supervise() {
    var output = DriverOutput(lineLimit: settings.lineLimit)
    while true {
      switch nextStep() {
      case .exit:
        end(SensorFailure(.driverNotReady, "driver \(name) stopped"), awaitingExit: false)
        reportSuppressed(output.logBudget.endRun())
        return
      case .spawn:
        reportSuppressed(output.logBudget.endRun())
        spawn()
        output = DriverOutput(lineLimit: settings.lineLimit)
      case .kill(let failure):
        end(failure, awaitingExit: false)
      case .poll(let timeout, let process):
        pollOnce(timeout: timeout, process: process, output: &output)
      }
    }
  }

  private func nextStep() -> SupervisorStep {
    let step: SupervisorStep = storage.withLock { s in
      if s.stopping { return .exit }
      if let failure = s.killRequest {
        s.killRequest = nil
        if s.process != nil { return .kill(failure) }
      }
      let now = ContinuousClock.now
      var wakeAt: ContinuousClock.Instant? = nil
      switch s.phase {
      case .down(let restartAt):
        if now >= restartAt { return .spawn }
        wakeAt = restartAt
      case .starting(let deadline):
        if now >= deadline {
          return .kill(
            SensorFailure(
              .driverNotReady,
              "driver \(name) did not say READY within \(settings.startTimeout)"))
        }
        wakeAt = deadline
      case .ready:
        if let ping = s.ping {
          if now >= ping.deadline {
            return .kill(
              SensorFailure(
                .driverHung, "driver \(name) did not answer PING within \(settings.hangTimeout)"))
          }
          wakeAt = ping.deadline
        } else if !s.captures.isEmpty, let at = s.nextPingAt {
          if now >= at {
            let number = s.nextPingNumber
            s.nextPingNumber += 1
            s.ping = (number, now + settings.hangTimeout)
            // A driver that is gone is noticed by its end of output; if it only closed its
            // input, the ping's deadline ends it.
            if s.process?.send(DriverCommand.ping(number).line) == .notRead {
              return .kill(SensorFailure(.driverHung, "driver \(name) does not read its input"))
            }
            wakeAt = now + settings.hangTimeout
          } else {
            wakeAt = at
          }
        }
      }
      let timeout: Int32
      if let wakeAt {
        let left = max(.zero, wakeAt - now)
        let milliseconds =
          left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        timeout = Int32(min(60_000, milliseconds + 1))
      } else {
        timeout = -1
      }
      return .poll(timeoutMilliseconds: timeout, process: s.process)
    }
    return step
  }

  private func spawn() {
    do {
      let process = try DriverProcess(command: settings.command)
      storage.withLock { s in
        s.process = process
        s.sawHello = false
        s.phase = .starting(deadline: .now + settings.startTimeout)
      }
      log("driver \(name) started (pid \(process.pid))")
    } catch {
      let delay = storage.withLock { s in
        s.failuresInARow += 1
        let delay = settings.restartDelay(afterFailures: s.failuresInARow)
        s.phase = .down(restartAt: .now + delay)
        return delay
      }
      log(
        "driver \(name) cannot be started (\(LogSanitizer.sanitize(settings.command[0]))): \(error); retrying in \(delay)"
      )
    }
  }

  /// Ends the running driver (if any) for `failure`: kills and reaps it, fails the captures waiting on it,
  /// and schedules the restart.
  private func end(_ failure: SensorFailure, awaitingExit: Bool) {
    let (process, captures, delay, stopping) = storage.withLock { s in
      let process = s.process
      s.process = nil
      s.sawHello = false
      s.failuresInARow += 1
      let delay = settings.restartDelay(afterFailures: s.failuresInARow)
      s.phase = .down(restartAt: .now + delay)
      return (process, s.takeCaptures(), delay, s.stopping)
    }
    if let process {
      let how = process.terminate(awaitingExit: awaitingExit)
      if stopping {
        log("driver \(name) stopped (pid \(process.pid) \(how))")
      } else {
        log(
          "driver \(name) (pid \(process.pid)) \(how): \(failure); \(captures.count) capture(s) failed; restarting in \(delay)"
        )
      }
    }
    for capture in captures { capture.continuation.resume(throwing: failure) }
  }

  private func pollOnce(timeout: Int32, process: DriverProcess?, output: inout DriverOutput) {
    var fds: [Int32] = [wakeRead]
    if let process {
      fds.append(process.stdoutFD)
      if output.stderrOpen { fds.append(process.stderrFD) }
    }
    var ready = [Int16](repeating: 0, count: fds.count)
    let count = ldp_poll_input(fds, &ready, Int32(fds.count), timeout)
    guard count > 0 else { return }
    if ready[0] != 0 {
      var sink = [UInt8](repeating: 0, count: 64)
      while ldp_read(wakeRead, &sink, sink.count) > 0 {}
    }
    guard let process else { return }
    if fds.count > 2, ready[2] != 0 {
      readErrors(process, &output)
    }
    if ready[1] != 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let got = ldp_read(process.stdoutFD, &buffer, buffer.count)
      if got == 0 || (got < 0 && got != -Int(EAGAIN) && got != -Int(EINTR)) {
        end(
          SensorFailure(.driverCrashed, "driver \(name) ended its output"), awaitingExit: true)
        return
      }
      guard got > 0 else { return }
      for frame in output.lines.frames(buffer, count: got) {
        let problem: SensorFailure?
        switch frame {
        case .tooLarge:
          problem = SensorFailure(
            .driverProtocolError, "driver \(name) wrote a line over \(settings.lineLimit) bytes")
        case .line(let bytes):
          problem = handle(bytes, &output)
        }
        if let problem {
          end(problem, awaitingExit: false)
          return
        }
      }
    }
  }

  private func readErrors(_ process: DriverProcess, _ output: inout DriverOutput) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let got = ldp_read(process.stderrFD, &buffer, buffer.count)
    if got <= 0 {
      if got == 0 { output.stderrOpen = false }
      return
    }
    for frame in output.errors.frames(buffer, count: got) {
      switch frame {
      case .line(let bytes):
        logLine(&output) { "driver \(name) stderr: \(LogSanitizer.sanitize(bytes))" }
      case .tooLarge:
        logLine(&output) { "driver \(name) stderr: (a line over \(settings.lineLimit) bytes)" }
      }
    }
  }

  /// Logs one driver line (LOG or stderr) within the run's budget; `text` is built only when logged.
  private func logLine(_ output: inout DriverOutput, _ text: () -> String) {
    let admission = output.logBudget.admit()
    reportSuppressed(admission.reportSuppressed)
    guard admission.log else { return }
    log(text())
    if admission.runBudgetSpent {
      log("driver \(name): further log lines are not logged until it restarts")
    }
  }

  /// One counted entry for the lines held back.
  private func reportSuppressed(_ count: Int?) {
    guard let count else { return }
    log("driver \(name): \(count) log line\(count == 1 ? "" : "s") suppressed")
  }

  /// Handles one protocol line; returns the failure that ends the driver, if it broke the protocol.
  private func handle(_ bytes: [UInt8], _ output: inout DriverOutput) -> SensorFailure? {
    guard let message = DriverMessage(line: bytes) else {
      return SensorFailure(
        .driverProtocolError,
        "driver \(name) wrote a line that is not the protocol: \"\(LogSanitizer.sanitize(bytes, limit: 80))\""
      )
    }
    if case .log(let text) = message {
      logLine(&output) { "driver \(name): \(LogSanitizer.sanitize(text))" }
      return nil
    }
    var resume: (PendingCapture, CaptureEvent)? = nil
    let problem: String? = storage.withLock { s in
      if !s.sawHello {
        guard message == .hello(version: 1) else { return "expected HELLO 1 first" }
        s.sawHello = true
        return nil
      }
      switch message {
      case .hello: return "HELLO twice"
      case .log: return nil
      case .enrolled(let uid, let identities):
        return s.setEnrolled(identities, for: uid) ? nil : "too many owners"
      case .ready:
        if case .starting = s.phase { s.phase = .ready }
        return nil
      case .pong(let number):
        if s.ping?.number == number {
          s.ping = nil
          s.nextPingAt = .now + settings.pingInterval
        }
        return nil
      case .match(let id, _), .noMatch(let id), .retry(let id, _), .userCancel(let id):
        guard s.phase == .ready else { return "a capture result before READY" }
        guard id < s.nextCaptureID else { return "a result for capture \(id), never requested" }
        guard let pending = s.captures[id] else { return nil }  // cancelled meanwhile
        let event: CaptureEvent
        switch message {
        case .match(_, let identity):
          guard (s.enrolled[pending.owner] ?? []).contains(where: { $0.identity == identity })
          else {
            return "MATCH of \(identity), not enrolled for uid \(pending.owner)"
          }
          event = .match(identity: identity)
        case .noMatch: event = .noMatch
        case .retry(_, let reason): event = .retry(reason: reason)
        default: event = .userCancel
        }
        s.captures[id] = nil
        s.failuresInARow = 0
        if s.captures.isEmpty {
          s.ping = nil
          s.nextPingAt = nil
        }
        resume = (pending, event)
        return nil
      }
    }
    if let (pending, event) = resume { pending.continuation.resume(returning: event) }
    return problem.map { SensorFailure(.driverProtocolError, "driver \(name): \($0)") }
  }
}
