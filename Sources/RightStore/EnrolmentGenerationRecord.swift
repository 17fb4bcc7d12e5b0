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

extension RightStore {
  /// Every owner's enrolment generation (read once at start).
  public func enrolmentGenerations() throws -> [EnrolmentGenerationRecord] {
    try withDatabase { database in
      try database.rows("SELECT uid, generation, observed FROM enrolment_generations") { row in
        EnrolmentGenerationRecord(
          uid: UInt32(truncatingIfNeeded: row.integer(0)), generation: Int(row.integer(1)),
          observed: row.text(2) ?? "")
      }
    }
  }

  /// Writes one owner's enrolment generation (insert or replace) in one fsynced transaction.
  public func saveEnrolmentGeneration(_ record: EnrolmentGenerationRecord) throws {
    try withDatabase { database in
      try database.write { database in
        _ = try database.run(
          "INSERT OR REPLACE INTO enrolment_generations (uid, generation, observed) VALUES (?, ?, ?)",
          [
            .integer(Int64(record.uid)), .integer(Int64(record.generation)),
            .text(record.observed),
          ])
      }
    }
  }
}
