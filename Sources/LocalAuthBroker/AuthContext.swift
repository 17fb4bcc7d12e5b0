import LocalAuthProtocol

/// The LAContext analogue: options, the last success (for reuse), at most one evaluation in flight.
/// Broker-isolated.
final class AuthContext {
  let id: String
  let options: ContextOptions
  /// Whether the client made it with context.create (else it lives for one request).
  let explicit: Bool
  var invalidated = false
  var inFlight: Evaluation?
  var lastSuccess: Duration?

  init(id: String, options: ContextOptions, explicit: Bool) {
    self.id = id
    self.options = options
    self.explicit = explicit
  }

  /// Whether the fallback button is shown at all (an empty title hides it, as on Apple's platforms).
  var fallbackButtonShown: Bool { options.localizedFallbackTitle != "" }
}
