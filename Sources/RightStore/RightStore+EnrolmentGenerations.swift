import RightsStorage

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
