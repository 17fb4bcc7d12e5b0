import LocalAuthentication

// Code that keeps contexts as NSObject: a registry keyed by session, as an Objective-C-era
// session manager writes it.

/// Holds one context per session, as NSObject.
final class SessionContexts {
  private var contexts: [String: NSObject] = [:]

  /// The session's context, made on first use.
  func context(for session: String) -> LAContext? {
    if let stored = contexts[session] { return stored as? LAContext }
    let context = LAContext()
    contexts[session] = context
    return context
  }

  /// Invalidates and forgets the session's context.
  func end(_ session: String) {
    (contexts.removeValue(forKey: session) as? LAContext)?.invalidate()
  }

  /// How many are held.
  var count: Int { contexts.count }
}
