/// How many times one owner's enrolled set has changed, and the set last seen (its keyed digest,
/// never identities): what keeps an app's domain state from returning to an old value across
/// daemon restarts (Apple: after an enrolment is added and removed, "the final state would be
/// different").
public struct EnrolmentGenerationRecord: Sendable, Equatable {
  /// The owner's uid.
  public var uid: UInt32
  /// Enrolment changes counted so far.
  public var generation: Int
  /// The digest of the enrolled set when last seen ("" for none).
  public var observed: String

  /// A record.
  public init(uid: UInt32, generation: Int, observed: String) {
    self.uid = uid
    self.generation = generation
    self.observed = observed
  }
}
