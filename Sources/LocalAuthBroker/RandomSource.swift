/// Where the broker's random ids (request, context and right ids) come from, injected like the
/// clock: the core draws no randomness of its own. The daemon passes the system's generator
/// (LocalAuthServer's `SystemRandomSource`). Implementations are thread-safe.
public protocol RandomSource: Sendable {
  /// 64 random bits.
  func next() -> UInt64
}
