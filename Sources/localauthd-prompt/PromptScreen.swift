import CPromptWindow
import DesktopPrompt
import Glibc
import LocalAuthClientCore
import LocalAuthConcurrency
import LocalAuthProtocol
import Synchronization

/// The program's windows: the agent's events, handed over from the connection's task, become
/// `PromptWindows` changes drawn with CPromptWindow; the person's actions become `agent.respond`
/// answers. Its state belongs to the GTK main loop's thread (`LoopBound`); `deliver` is the one
/// entry from other threads.
final class PromptScreen: Sendable {
  /// What reaches the loop from the connection's task.
  enum Input: Sendable {
    case event(LAAgentEvent)
    case disconnected
  }

  /// The loop-only state: the model and the drawn windows.
  struct State {
    var model = PromptWindows()
    var windows: [String: (id: UInt, window: OpaquePointer)] = [:]
    var requestIDs: [UInt: String] = [:]
    var nextID: UInt = 1
    var lostConnection = false
  }

  let agent: LAPromptAgent
  let state: LoopBound<State>
  let inbox = Mutex<[Input]>([])

  /// A screen for `agent`'s prompts, bound to the calling thread (the one that runs the loop).
  init(agent: LAPromptAgent, loop: LoopThread) {
    self.agent = agent
    state = LoopBound(State(), loop: loop)
  }

  /// Whether the loop ended because the daemon went away.
  var lostConnection: Bool { state.value.lostConnection }

  /// Hands an input to the loop's thread (from any thread).
  func deliver(_ input: Input) {
    inbox.withLock { $0.append(input) }
    prompt_loop_call_soon(
      { context in PromptScreen.from(context).drain() },
      Unmanaged.passUnretained(self).toOpaque())
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> PromptScreen {
    Unmanaged<PromptScreen>.fromOpaque(context!).takeUnretainedValue()
  }

  /// On the loop: applies what arrived.
  func drain() {
    let inputs = inbox.withLock { inbox in
      defer { inbox.removeAll() }
      return inbox
    }
    for input in inputs {
      switch input {
      case .event(let event):
        if let change = state.value.model.apply(event) { draw(change) }
      case .disconnected:
        state.value.lostConnection = true
        prompt_loop_quit()
      }
    }
  }

  /// On the loop: shows a change.
  func draw(_ change: PromptWindows.Change) {
    switch change {
    case .show(let prompt):
      let id = state.value.nextID
      state.value.nextID += 1
      guard
        let window = prompt_window_new(
          UInt(id),
          { context, id, action in PromptScreen.from(context).act(action, window: UInt(id)) },
          Unmanaged.passUnretained(self).toOpaque())
      else { return }
      state.value.windows[prompt.requestID] = (id, window)
      state.value.requestIDs[id] = prompt.requestID
      fill(window, with: prompt)
      // The one present(): a window is raised when it first shows, never again (docs/owners-and-agents.md,
      // "The desktop prompt": it never takes the focus back from another window).
      prompt_window_present(window)
    case .update(let prompt):
      guard let drawn = state.value.windows[prompt.requestID] else { return }
      fill(drawn.window, with: prompt)
    case .close(let requestID, let result):
      guard let drawn = state.value.windows.removeValue(forKey: requestID) else { return }
      state.value.requestIDs[drawn.id] = nil
      prompt_window_close(drawn.window)
      // Idle again: what the windows needed goes back to the system (docs/performance.md).
      if state.value.windows.isEmpty { prompt_memory_release_soon() }
      Log.note(
        "prompt \(PromptText.sanitize(requestID, limit: 64)) ended: \(PromptText.sanitize(result, limit: 64))"
      )
    }
  }

  private func fill(_ window: OpaquePointer, with prompt: PromptWindow) {
    prompt_window_set_texts(
      window, prompt.title, prompt.heading, prompt.requester, prompt.reason, prompt.signingKey,
      prompt.status)
    prompt_window_set_buttons(
      window, prompt.cancelTitle, prompt.showsFallback ? prompt.fallbackTitle : nil)
    prompt_window_set_secret(window, prompt.asksSecret ? prompt.secret.title : nil)
  }

  /// On the loop: what the person did in a window.
  func act(_ action: Int32, window id: UInt) {
    guard let requestID = state.value.requestIDs[id], let drawn = state.value.windows[requestID]
    else { return }
    switch action {
    case Int32(PROMPT_WINDOW_CANCEL.rawValue):
      guard state.value.model.answer(to: .cancel, in: requestID) == .cancel else { return }
      send(requestID) { agent in try await agent.cancel(requestID) }
    case Int32(PROMPT_WINDOW_FALLBACK.rawValue):
      guard state.value.model.answer(to: .fallback, in: requestID) == .fallback else { return }
      send(requestID) { agent in try await agent.fallback(requestID) }
    case Int32(PROMPT_WINDOW_SUBMIT.rawValue):
      submitSecret(of: requestID, from: drawn.window)
    default: break
    }
  }

  /// Takes the typed secret out of the field (which is cleared), sends it, and wipes every copy.
  private func submitSecret(of requestID: String, from window: OpaquePointer) {
    var typed = [UInt8](repeating: 0, count: 512)
    let length = typed.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        prompt_window_take_secret(window, $0.baseAddress, $0.count)
      }
    }
    defer { SecretWipe.wipe(&typed) }
    switch state.value.model.answer(to: .submit(length: length), in: requestID) {
    case .secret:
      // Built straight from the typed bytes, in storage of its own (at least 32 bytes: never a small
      // string inline in its copies), so the wipe after sending reaches its only bytes.
      let secret = typed.withUnsafeBufferPointer { bytes in
        String(unsafeUninitializedCapacity: max(length, 32)) { target in
          _ = target.initialize(from: bytes[..<length])
          return length
        }
      }
      send(requestID) { agent in
        defer { SecretWipe.wipe(secret) }
        try await agent.submitPasscode(secret, for: requestID)
      }
    case .refuse(let limit):
      if let change = state.value.model.say("Too long: at most \(limit) bytes.", in: requestID) {
        draw(change)
      }
    default: break
    }
  }

  /// Sends an answer from a task of its own; a refusal is shown in the window.
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
