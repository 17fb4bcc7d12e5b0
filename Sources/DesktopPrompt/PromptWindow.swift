import LocalAuthClientCore
import LocalAuthProtocol

/// What one prompt window shows, as a value: its title, who asks, the reason, the sensor's live
/// state, which buttons and whether the secret field is there. Every string in it is already
/// sanitized (`PromptText`), so the window shows them as they are. Built from an `agent.prompt` and
/// changed by the prompt's feedback; the GTK program draws it and never decides anything itself.
public struct PromptWindow: Sendable, Equatable {
  /// The evaluation's requestID: every answer names it.
  public let requestID: String
  /// The window's title: the client and the reason, short.
  public var title: String
  /// Who asks, in words: "vault-app asks to verify it is alice".
  public var heading: String
  /// The requester's kernel facts and, when the daemon sent one, its app id.
  public var requester: String
  /// The app's reason, in full (the daemon's own words for SSH and git prompts).
  public var reason: String
  /// For an SSH signature, the key that signs, as the daemon names it ("SSH key: login"); nil for
  /// any other prompt.
  public var signingKey: String?
  /// The sensor's live state or the evaluation's last word ("Not recognized (attempt 1).").
  public var status: String
  /// The Cancel button's title (`localizedCancelTitle`).
  public var cancelTitle: String
  /// The fallback button's title (`localizedFallbackTitle`); nil when the app hid it.
  public var fallbackTitle: String?
  /// Whether the fallback button shows: the broker offered it, and the secret is not asked yet.
  public var showsFallback: Bool
  /// Whether the secret field (echo off) shows: the prompt asks for the passcode or password.
  public var asksSecret: Bool
  /// What the secret field asks for.
  public var secret: LAPasscodeSecret
  /// The most bytes a typed secret may have (the daemon's limit: 64 for a passcode, 512 for a password).
  public var secretLimit: Int { secret == .password ? 512 : 64 }
  /// Whether the broker has offered the fallback (after a failed match).
  public var fallbackOffered: Bool

  /// The window of a prompt. Its app id (`appID`, else the prompt's `client.appID`) is shown when
  /// it is other than the client's name, as verified (bound to the client's executable) or as only
  /// declared.
  public init(prompt: LAAgentPrompt, appID: String? = nil, appIDBound: Bool = false) {
    let (appID, appIDBound) =
      appID.map { ($0, appIDBound) } ?? (prompt.appID, prompt.appIDBound)
    let client = PromptText.sanitize(prompt.clientName, limit: 64)
    let reason = PromptText.sanitize(prompt.localizedReason, limit: 512)
    let user = PromptText.sanitize(prompt.user, limit: 64)
    requestID = prompt.requestID
    title = "\(client) — \(PromptText.sanitize(prompt.localizedReason, limit: 60))"
    heading = "\(client) asks to verify that you are \(user)"
    var facts = "pid \(prompt.clientPID) · uid \(prompt.clientUID)"
    if let appID, appID != prompt.clientName {
      let standing = appIDBound ? "verified" : "declared, not verified"
      facts += " · app id \(PromptText.sanitize(appID, limit: 128)) (\(standing))"
    }
    requester = facts
    self.reason = reason
    signingKey = prompt.ssh.map { "SSH key: \(PromptText.sanitize($0.key, limit: 64))" }
    status = Self.waiting(on: prompt.sensor)
    cancelTitle = PromptText.sanitize(prompt.cancelTitle, limit: 40)
    fallbackTitle = prompt.fallbackTitle.map { PromptText.sanitize($0, limit: 40) }
    showsFallback = false
    asksSecret = false
    secret = prompt.secret
    fallbackOffered = false
  }

  /// The status while the sensor waits for the person.
  static func waiting(on sensor: String?) -> String {
    guard let sensor else { return "Waiting…" }
    return "Waiting for the \(PromptText.sanitize(sensor, limit: 64)) sensor…"
  }

  /// The prompt asks for the secret now (`agent.passcode`).
  mutating func askSecret() {
    asksSecret = true
    showsFallback = false
    status = "Enter your \(secret.rawValue)."
  }

  /// A feedback of the prompt (`agent.feedback`), in the window's words.
  mutating func apply(
    feedback: String, attempt: Int?, retryAfter: Int?, lockedOut: Bool, offered: Bool
  ) {
    if offered { fallbackOffered = true }
    showsFallback = fallbackOffered && fallbackTitle != nil && !asksSecret
    if lockedOut {
      status = "Not recognized. Too many failed attempts: biometry is locked out."
      return
    }
    status = Self.describe(feedback, attempt: attempt, retryAfter: retryAfter, window: self)
  }

  /// The evaluation's own words for a feedback.
  static func describe(_ feedback: String, attempt: Int?, retryAfter: Int?, window: PromptWindow)
    -> String
  {
    let attemptText = attempt.map { " (attempt \($0))" } ?? ""
    let word = window.secret.rawValue
    switch feedback {
    case "noMatch": return "Not recognized\(attemptText). Try again."
    case "wrongPasscode": return "Wrong \(word)\(attemptText)."
    case "passcodeDelay": return "Too many wrong \(word)s: the next try waits \(retryAfter ?? 0) s."
    case "fallback": return "Switching to the \(word)."
    case "awaitingChoice":
      guard let fallback = window.fallbackTitle else {
        return "No more tries on this sensor: \(window.cancelTitle) ends the request."
      }
      return "No more tries on this sensor: choose \(fallback) or \(window.cancelTitle)."
    case "fallbackNotOffered":
      return "The fallback is not offered yet: it comes after a failed match."
    default: return "\(PromptText.sanitize(feedback, limit: 64))\(attemptText)."
    }
  }
}
