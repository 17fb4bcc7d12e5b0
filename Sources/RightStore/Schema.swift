import RightsStorage

/// The store's tables, versioned with `PRAGMA user_version`: migration n brings the file to version n + 1.
enum Schema {
  /// Every migration in order; append, never edit a released one.
  static let migrations: [String] = [
    """
    CREATE TABLE rights (
        uid INTEGER NOT NULL,
        app_id TEXT NOT NULL,
        identifier TEXT NOT NULL,
        requirement TEXT NOT NULL,
        domain_state_hash TEXT,
        public_key BLOB NOT NULL,
        sealed_private_key BLOB NOT NULL,
        sealed_secret BLOB,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (uid, app_id, identifier)
    ) WITHOUT ROWID;
    CREATE TABLE handoffs (
        id TEXT PRIMARY KEY NOT NULL,
        uid INTEGER NOT NULL,
        app_id TEXT NOT NULL,
        payload BLOB NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        authorized_at_ms INTEGER,
        redeemed_at_ms INTEGER
    );
    CREATE INDEX handoffs_by_uid ON handoffs (uid, expires_at_ms);
    """,
    """
    CREATE TABLE owner_state (
        uid INTEGER PRIMARY KEY NOT NULL,
        biometric_failures INTEGER NOT NULL,
        biometry_locked_out INTEGER NOT NULL,
        passcode_failures INTEGER NOT NULL,
        passcode_retry_not_before_ms INTEGER,
        passcode_scrypt_cost_log2 INTEGER,
        passcode_scrypt_r INTEGER,
        passcode_scrypt_p INTEGER,
        passcode_salt BLOB,
        passcode_hash BLOB
    );
    """,
    """
    CREATE TABLE ssh_keys (
        uid INTEGER NOT NULL,
        name TEXT NOT NULL,
        policy TEXT NOT NULL,
        reuse_seconds INTEGER NOT NULL,
        public_key BLOB NOT NULL,
        sealed_private_key BLOB NOT NULL,
        created_at_ms INTEGER NOT NULL,
        last_used_ms INTEGER,
        PRIMARY KEY (uid, name)
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE enrolment_generations (
        uid INTEGER PRIMARY KEY NOT NULL,
        generation INTEGER NOT NULL,
        observed TEXT NOT NULL
    );
    """,
    // Where each key lives ('file': sealed_private_key; 'tpm': tpm_key holds its TPM blobs and
    // sealed_private_key is empty).
    """
    ALTER TABLE ssh_keys ADD COLUMN key_store TEXT NOT NULL DEFAULT 'file';
    ALTER TABLE ssh_keys ADD COLUMN tpm_key BLOB;
    ALTER TABLE rights ADD COLUMN key_store TEXT NOT NULL DEFAULT 'file';
    ALTER TABLE rights ADD COLUMN tpm_key BLOB;
    """,
    // Whether a key's reuse window outlives a lock of the session (1) or closes with it (0).
    """
    ALTER TABLE ssh_keys ADD COLUMN keep_on_lock INTEGER NOT NULL DEFAULT 0;
    """,
  ]

  /// Brings `database` to the latest version in one transaction; refuses a file from a newer build.
  static func migrate(_ database: Database) throws {
    try database.write { database in
      let version = try database.firstRow("PRAGMA user_version") { $0.integer(0) } ?? 0
      guard version <= migrations.count else {
        throw RightStoreError.corrupt(
          "schema version \(version) is newer than this build (\(migrations.count))")
      }
      for migration in migrations.dropFirst(Int(version)) { try database.execute(migration) }
      if version < migrations.count {
        try database.execute("PRAGMA user_version = \(migrations.count)")
      }
    }
  }
}
