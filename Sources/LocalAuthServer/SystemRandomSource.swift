import LocalAuthBroker

/// The system's random generator (getrandom) as the broker's source of ids. Thread-safe: it keeps
/// no state.
public struct SystemRandomSource: RandomSource {
  /// The system generator.
  public init() {}

  /// 64 bits from getrandom.
  public func next() -> UInt64 {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }
}
