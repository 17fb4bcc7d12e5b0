import LocalAuthClientCore

/// The prompt windows on screen, fed the agent's events in order: each event becomes at most one
/// change for the GTK program to draw. Events of a prompt that has no window (ended, or never
/// shown) change nothing. Used on one thread: the GTK main loop's.
public struct PromptWindows: Sendable {
  /// The open windows, by requestID.
  public private(set) var open: [String: PromptWindow] = [:]

  /// No windows.
  public init() {}

  /// What an event does to the screen.
  public enum Change: Sendable, Equatable {
    /// Show a new window.
    case show(PromptWindow)
    /// Redraw a window with its new state.
    case update(PromptWindow)
    /// Close the window: the evaluation ended (here, by a touch elsewhere, or by the app).
    case close(requestID: String, result: String)
  }

  /// Applies an agent event; nil when it changes no window. `appID` is the prompt's app id when
  /// the event carries one, `appIDBound` whether the daemon verified it.
  public mutating func apply(_ event: LAAgentEvent, appID: String? = nil, appIDBound: Bool = false)
    -> Change?
  {
    switch event {
    case .prompt(let prompt):
      let window = PromptWindow(prompt: prompt, appID: appID, appIDBound: appIDBound)
      open[prompt.requestID] = window
      return .show(window)
    case .passcodeRequested(let requestID):
      guard var window = open[requestID] else { return nil }
      window.askSecret()
      open[requestID] = window
      return .update(window)
    case .feedback(
      let requestID, let feedback, let attempt, let retryAfter, let lockedOut, let offered):
      guard var window = open[requestID] else { return nil }
      window.apply(
        feedback: feedback, attempt: attempt, retryAfter: retryAfter, lockedOut: lockedOut,
        offered: offered)
      open[requestID] = window
      return .update(window)
    case .ended(let requestID, let result):
      guard open.removeValue(forKey: requestID) != nil else { return nil }
      return .close(requestID: requestID, result: result)
    }
  }

  /// Shows `status` in a window (what the program itself has to say: a refused secret, a failed
  /// answer); nil when the window is closed.
  public mutating func say(_ status: String, in requestID: String) -> Change? {
    guard var window = open[requestID] else { return nil }
    window.status = status
    open[requestID] = window
    return .update(window)
  }

  /// What the person's action in a window sends, or nil when it sends nothing (a button that
  /// does not show, a window already closed). A secret's bytes never pass through here: only its
  /// length, checked against the limit.
  public func answer(to action: PromptAction, in requestID: String) -> PromptAnswer? {
    guard let window = open[requestID] else { return nil }
    switch action {
    case .cancel: return .cancel
    case .fallback: return window.showsFallback ? .fallback : nil
    case .submit(let length):
      guard window.asksSecret, length > 0 else { return nil }
      return length <= window.secretLimit ? .secret : .refuse(tooLong: window.secretLimit)
    }
  }
}

/// What the person did in a prompt window.
public enum PromptAction: Sendable, Equatable {
  /// The Cancel button, Escape, or the window manager's close.
  case cancel
  /// The fallback button.
  case fallback
  /// Enter in the secret field, with the typed secret's length in bytes.
  case submit(length: Int)
}

/// What an action sends to the daemon (`agent.respond`).
public enum PromptAnswer: Sendable, Equatable {
  /// `cancel`: the evaluation ends with `userCancel`.
  case cancel
  /// `fallback`: the passcode (or `userFallback`).
  case fallback
  /// `passcode` with the typed secret, which is then wiped.
  case secret
  /// Nothing is sent: the typed secret is longer than the daemon takes; it is wiped, and the
  /// window says so.
  case refuse(tooLong: Int)
}
