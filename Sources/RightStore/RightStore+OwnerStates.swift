import FoundationEssentials
import LocalAuthCrypto
import RightsStorage

extension RightStore {
  /// Every owner's persisted state (read once at start).
  public func ownerStates() throws -> [OwnerStateRecord] {
    try withDatabase { database in
      try database.rows(
        """
        SELECT uid, biometric_failures, biometry_locked_out, passcode_failures,
               passcode_retry_not_before_ms, passcode_scrypt_cost_log2, passcode_scrypt_r,
               passcode_scrypt_p, passcode_salt, passcode_hash
        FROM owner_state
        """
      ) { row in
        var passcode: PasscodeHash?
        if !row.isNull(8), let salt = row.blob(8), let digest = row.blob(9) {
          passcode = PasscodeHash(
            costLog2: Int(row.integer(5)), blockSize: Int(row.integer(6)),
            parallelism: Int(row.integer(7)), salt: salt, digest: digest)
        }
        return OwnerStateRecord(
          uid: UInt32(truncatingIfNeeded: row.integer(0)), biometricFailures: Int(row.integer(1)),
          biometryLockedOut: row.integer(2) != 0, passcodeFailures: Int(row.integer(3)),
          passcodeRetryNotBeforeMilliseconds: row.isNull(4) ? nil : row.integer(4),
          passcode: passcode)
      }
    }
  }

  /// Writes one owner's state (insert or replace) in one fsynced transaction.
  public func saveOwnerState(_ record: OwnerStateRecord) throws {
    try withDatabase { database in
      try database.write { database in
        _ = try database.run(
          """
          INSERT OR REPLACE INTO owner_state (uid, biometric_failures, biometry_locked_out,
              passcode_failures, passcode_retry_not_before_ms, passcode_scrypt_cost_log2,
              passcode_scrypt_r, passcode_scrypt_p, passcode_salt, passcode_hash)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .integer(Int64(record.uid)), .integer(Int64(record.biometricFailures)),
            .integer(record.biometryLockedOut ? 1 : 0), .integer(Int64(record.passcodeFailures)),
            record.passcodeRetryNotBeforeMilliseconds.map(SQLValue.integer) ?? .null,
            record.passcode.map { .integer(Int64($0.costLog2)) } ?? .null,
            record.passcode.map { .integer(Int64($0.blockSize)) } ?? .null,
            record.passcode.map { .integer(Int64($0.parallelism)) } ?? .null,
            .optionalBlob(record.passcode?.salt), .optionalBlob(record.passcode?.digest),
          ])
      }
    }
  }
}
