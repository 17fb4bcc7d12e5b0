import DesktopPrompt
import Glibc
import LocalAuthClientCore
import LocalAuthProtocol
import Synchronization

/// The program's windows: the agent's events become `PromptWindows` changes, sent as
/// `WindowLines` to the window process (started with the first window, ended with the last, so
/// that the agent holds no toolkit while idle); the person's actions, read back, become
/// `agent.respond` answers. Its state is under one lock: events arrive from the connection's task,
/// actions from the window process's reader thread.
final class PromptScreen: Sendable {
  /// The state under the lock: the model, the window ids, and the window process while any
  /// window is open.
  struct State: ~Copyable {
    var model = PromptWindows()
    var ids: [String: UInt] = [:]
    var requestIDs: [UInt: String] = [:]
    var nextID: UInt = 1
    var process: WindowProcess?
  }

  let agent: LAPromptAgent
  let state = Mutex(State())

  /// A screen for `agent`'s prompts.
  init(agent: LAPromptAgent) { self.agent = agent }

  /// Applies an agent event (from the connection's task).
  func apply(_ event: LAAgentEvent) {
    state.withLock { state in
      if let change = state.model.apply(event) { draw(change, in: &state) }
    }
  }

  /// Shows a change: starts the window process for the first window, ends it after the last.
  private func draw(_ change: PromptWindows.Change, in state: inout State) {
    switch change {
    case .show(let prompt):
      let id = state.nextID
      state.nextID += 1
      state.ids[prompt.requestID] = id
      state.requestIDs[id] = prompt.requestID
      if state.process == nil {
        state.process = WindowProcess(
          handler: { [self] action, secret in act(action, secret: secret) }, note: { Log.note($0) },
          ended: { [self] pid in windowProcessEnded(pid) })
      }
      state.process?.send(WindowLines.show(prompt, id: id))
    case .update(let prompt):
      guard let id = state.ids[prompt.requestID] else { return }
      state.process?.send(WindowLines.show(prompt, id: id))
    case .close(let requestID, let result):
      guard let id = state.ids.removeValue(forKey: requestID) else { return }
      state.requestIDs[id] = nil
      state.process?.send(WindowLines.close(id: id))
      // Idle again: the window process, and GTK with it, goes (docs/performance.md).
      if state.ids.isEmpty {
        state.process?.finish()
        state.process = nil
      }
      Log.note(
        "prompt \(PromptText.sanitize(requestID, limit: 64)) ended: \(PromptText.sanitize(result, limit: 64))"
      )
    }
  }

  /// The window process `pid` ended. Ended while it still showed windows (it crashed, or lost
  /// its display), the prompts it showed can no longer be seen: each is cancelled, so no touch
  /// answers a prompt its person cannot see, and the next prompt starts a new window process.
  func windowProcessEnded(_ pid: pid_t) {
    state.withLock { state in
      guard let process = state.process, process.pid == pid else { return }
      state.process = nil
      let unseen = state.ids.keys.sorted()
      state.ids = [:]
      state.requestIDs = [:]
      for requestID in unseen {
        Log.note(
          "prompt \(PromptText.sanitize(requestID, limit: 64)) cancelled: its window is gone")
        send(requestID) { agent in try await agent.cancel(requestID) }
      }
    }
  }

  /// What the person did in a window (from the window process's reader thread); a secret's
  /// bytes (`typed`, wiped by the reader when this returns) are copied only into what is sent.
  func act(_ action: WindowLines.Action, secret typed: [UInt8]) {
    state.withLock { state in
      switch action {
      case .cancel(let id):
        guard let requestID = state.requestIDs[id],
          state.model.answer(to: .cancel, in: requestID) == .cancel
        else { return }
        send(requestID) { agent in try await agent.cancel(requestID) }
      case .fallback(let id):
        guard let requestID = state.requestIDs[id],
          state.model.answer(to: .fallback, in: requestID) == .fallback
        else { return }
        send(requestID) { agent in try await agent.fallback(requestID) }
      case .secret(let id, let length):
        guard let requestID = state.requestIDs[id] else { return }
        submit(typed, length: length, of: requestID, in: &state)
      }
    }
  }

  /// Sends a typed secret, or says in the window why not.
  private func submit(_ typed: [UInt8], length: Int, of requestID: String, in state: inout State) {
    switch state.model.answer(to: .submit(length: length), in: requestID) {
    case .secret where typed.count == length:
      // Built straight from the typed bytes, in storage of its own (at least 32 bytes: never a small
      // string inline in its copies), so the wipe after sending reaches its only bytes.
      let secret = typed.withUnsafeBufferPointer { bytes in
        String(unsafeUninitializedCapacity: max(length, 32)) { target in
          _ = target.initialize(from: bytes)
          return length
        }
      }
      send(requestID) { agent in
        defer { SecretWipe.wipe(secret) }
        try await agent.submitPasscode(secret, for: requestID)
      }
    case .refuse(let limit):
      if let change = state.model.say("Too long: at most \(limit) bytes.", in: requestID) {
        draw(change, in: &state)
      }
    default: break
    }
  }

  /// Sends an answer from a task of its own; a refusal is logged.
  private func send(
    _ requestID: String, _ answer: @escaping @Sendable (LAPromptAgent) async throws -> Void
  ) {
    let agent = self.agent
    Task.detached {
      do {
        try await answer(agent)
      } catch {
        let text = PromptText.sanitize(String(describing: error), limit: 200)
        Log.note("answer to \(PromptText.sanitize(requestID, limit: 64)) refused: \(text)")
      }
    }
  }
}
