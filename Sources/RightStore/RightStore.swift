import FoundationEssentials
import Glibc
import LocalAuthCrypto
import RightsStorage
import Synchronization

/// The persisted rights of every (uid, appID) owner (LARightStore), with their sealed P-256 keys and secrets, and
/// the pending deferred authorizations (handoffs), in `rights.sqlite3` next to `device.key` in one state directory.
///
/// Safe to share between threads: the one SQLite connection is guarded by a `Mutex`. Every call blocks on disk I/O
/// (each write is an fsynced `BEGIN IMMEDIATE` transaction), so call it from a dedicated thread or queue rather than
/// from Swift concurrency's cooperative pool. Several processes may open the same directory; SQLite serializes them.
public final class RightStore: Sendable {
  /// The state directory holding `rights.sqlite3` and `device.key`.
  public let directory: String
  /// The device key's sealer and digests, and the TPM new keys are made in.
  let keys: StoreKeys
  /// A key derived from the device key (HMAC-SHA-256 of a fixed label) for keyed digests such as domainState.
  public var digestKey: [UInt8] { keys.digestKey }
  /// Where the store keeps its keys.
  public var keyStore: KeyStoreStatus { keys.status }
  /// The only connection; the lock serializes its use.
  private let connection: Mutex<Database>

  /// How long every use of the connection holds it, on top of the real work: a simulated slow disk
  /// (`LOCALAUTHD_SIMULATE_SLOW_DISK_MS`), for tests that the event loop never waits on the store. Zero normally.
  let simulatedDiskDelay: Duration

  /// Opens the store in `directory`, creating the directory (mode 0700), the device key and the database as needed,
  /// and migrating the schema to the current version.
  ///
  /// Refuses (`.unsafeStateDirectory`) a directory owned by another user or writable by group or others, and
  /// (`.deviceKeyMissing`) a missing `device.key` while the database holds rows sealed under the old one: a new
  /// key would make every one of them unreadable. With `keys: .tpm`, the device key is sealed by
  /// the TPM and new SSH keys are made inside it (`StoreKeys.open`).
  public init(
    directory: String, keys choice: KeyStoreChoice = .file, simulatedDiskDelay: Duration = .zero
  ) throws {
    if mkdir(directory, 0o700) != 0 && errno != EEXIST {
      throw RightStoreError.invalidArgument(
        "cannot create state directory \(directory): \(systemError())")
    }
    try StateDirectory.check(directory)
    self.directory = directory
    self.simulatedDiskDelay = simulatedDiskDelay
    let databasePath = directory + "/rights.sqlite3"
    try Self.restrictToOwner(databasePath)
    let database = try Database(path: databasePath)
    try Schema.migrate(database)
    keys = try StoreKeys.open(choice, directory: directory, database: database)
    connection = Mutex(database)
  }

  /// Throws `.deviceKeyMissing` when `database` holds sealed keys, secrets or payloads that only the missing key
  /// at `keyPath` opens.
  static func refuseNewKey(_ keyPath: String, over database: Database) throws {
    let rights =
      try database.firstRow(
        "SELECT (SELECT COUNT(*) FROM rights) + (SELECT COUNT(*) FROM ssh_keys)"
      ) { $0.integer(0) } ?? 0
    let handoffs =
      try database.firstRow("SELECT COUNT(*) FROM handoffs WHERE length(payload) > 0") {
        $0.integer(0)
      } ?? 0
    guard rights + handoffs > 0 else { return }
    throw RightStoreError.deviceKeyMissing(
      "\(keyPath) is missing, but the database holds \(rights) saved right(s) or SSH key(s) and \(handoffs) pending "
        + "handoff(s) sealed under it; a new key would make all of them unreadable. Restore device.key "
        + "from a backup, or move rights.sqlite3* aside to start with an empty store")
  }

  /// Creates `path` if needed and makes it mode 0600 before SQLite opens it, so the database (and the -wal and -shm
  /// files, which SQLite creates with the database's mode) never reveal to other users which rights exist.
  private static func restrictToOwner(_ path: String) throws {
    let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RightStoreError.invalidArgument("cannot open \(path): \(systemError())")
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, 0o600) == 0 else {
      throw RightStoreError.invalidArgument("cannot make \(path) private: \(systemError())")
    }
  }

  /// The thread that must never touch a database (the daemon's event loop, as `pthread_self()`); 0 for none.
  private static let forbiddenThread = Atomic<UInt>(0)

  /// Declares that the calling thread (the daemon's event loop) must never use a store: from now on, in debug
  /// builds, a store call on it stops the process at once instead of making every client wait on the disk.
  public static func forbidUseOnCurrentThread() {
    forbiddenThread.store(UInt(pthread_self()), ordering: .relaxed)
  }

  /// Runs `body` with exclusive use of the connection. Never on the thread `forbidUseOnCurrentThread` named.
  func withDatabase<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
    assert(
      Self.forbiddenThread.load(ordering: .relaxed) != UInt(pthread_self()),
      "the rights store was used on the event loop thread")
    return try connection.withLock { database throws -> T in
      if simulatedDiskDelay > .zero { Self.pause(simulatedDiskDelay) }
      return try body(database)
    }
  }

  /// Blocks the calling thread for `duration` (nanosleep, resumed after signals).
  private static func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  /// Refuses text a row is keyed or sealed by when it holds a NUL byte: callers reject it first, and the
  /// store never keeps what it would have to compare or seal differently from what it was given.
  static func checkNoNUL(_ text: String, _ field: String) throws {
    guard !text.utf8.contains(0) else {
      throw RightStoreError.invalidArgument("\(field) must not contain a NUL byte")
    }
  }

  /// Saves a new right for `owner` under `identifier` with a new P-256 key pair and an optional
  /// secret, in one transaction: the key made inside the TPM when the store makes new keys there
  /// (sign and ECDH, its auth value derived from the device key), else generated here and sealed
  /// under the device key; the secret always sealed under the device key. Throws `.alreadyExists` if the owner already
  /// has a right with this identifier, and `.limitReached(.savedRightsPerUID)` when the owner's uid already has
  /// `maxRightsPerUID` rights (of all its apps).
  public func saveRight(
    owner: Owner, identifier: String, requirement: String, domainStateHash: String?,
    secret: [UInt8]?, maxRightsPerUID: Int = .max
  ) throws -> PersistedRightRecord {
    guard !identifier.isEmpty else {
      throw RightStoreError.invalidArgument("a right identifier must not be empty")
    }
    try Self.checkNoNUL(identifier, "a right identifier")
    try Self.checkNoNUL(owner.appID, "an app ID")
    let keyAAD = try SealingContext.aad(.privateKey, owner: owner, identifier: identifier)
    let key = try newKey(
      sealingContext: keyAAD, kind: .signingAndExchangeKey, what: "the key of right \(identifier)")
    let sealedSecret = try secret.map { secret in
      let aad = try SealingContext.aad(.secret, owner: owner, identifier: identifier)
      return try mapCryptoError { try keys.sealing().seal(secret, authenticating: aad) }
    }
    let createdAt = Milliseconds(Date())
    try withDatabase { database in
      try database.write { database in
        let existing = try database.firstRow(
          "SELECT 1 FROM rights WHERE uid = ? AND app_id = ? AND identifier = ?",
          [.integer(Int64(owner.uid)), .text(owner.appID), .text(identifier)]
        ) { _ in true }
        guard existing == nil else { throw RightStoreError.alreadyExists }
        let saved =
          try database.firstRow(
            "SELECT COUNT(*) FROM rights WHERE uid = ?", [.integer(Int64(owner.uid))]
          ) { $0.integer(0) } ?? 0
        guard saved < maxRightsPerUID else {
          throw RightStoreError.limitReached(.savedRightsPerUID, maxRightsPerUID)
        }
        try database.run(
          """
          INSERT INTO rights (uid, app_id, identifier, requirement, domain_state_hash, public_key,
                              sealed_private_key, sealed_secret, created_at_ms, key_store, tpm_key)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            .integer(Int64(owner.uid)), .text(owner.appID), .text(identifier), .text(requirement),
            .optionalText(domainStateHash), .blob(key.publicKey.x963), .blob(key.sealed),
            .optionalBlob(sealedSecret), .integer(createdAt.value),
            .text(key.residence.rawValue), .optionalBlob(key.tpmKey),
          ])
      }
    }
    return PersistedRightRecord(
      identifier: identifier, owner: owner, requirement: requirement,
      domainStateHash: domainStateHash,
      publicKey: key.publicKey, createdAt: createdAt.date, residence: key.residence)
  }

  /// The owner's right saved under `identifier`, or nil. Another owner's right is reported exactly like a missing one.
  public func right(owner: Owner, identifier: String) throws -> PersistedRightRecord? {
    let row = try withDatabase { database in
      try database.firstRow(
        """
        SELECT requirement, domain_state_hash, public_key, created_at_ms, key_store FROM rights
        WHERE uid = ? AND app_id = ? AND identifier = ?
        """,
        [.integer(Int64(owner.uid)), .text(owner.appID), .text(identifier)]
      ) { row in
        (row.text(0) ?? "", row.text(1), row.blob(2) ?? [], row.integer(3), row.text(4) ?? "")
      }
    }
    guard let (requirement, domainStateHash, point, createdAt, store) = row else { return nil }
    guard let publicKey = try? P256PublicKey(x963: point) else {
      throw RightStoreError.corrupt(
        "the stored public key of right \(identifier) is not a valid P-256 point")
    }
    guard let residence = KeyResidence(rawValue: store) else {
      throw RightStoreError.corrupt("right \(identifier) lives in an unknown key store '\(store)'")
    }
    return PersistedRightRecord(
      identifier: identifier, owner: owner, requirement: requirement,
      domainStateHash: domainStateHash,
      publicKey: publicKey, createdAt: Milliseconds(value: createdAt).date, residence: residence)
  }

  /// Removes the owner's right saved under `identifier`; returns whether there was one.
  public func removeRight(owner: Owner, identifier: String) throws -> Bool {
    try withDatabase { database in
      try database.write { database in
        try database.run(
          "DELETE FROM rights WHERE uid = ? AND app_id = ? AND identifier = ?",
          [.integer(Int64(owner.uid)), .text(owner.appID), .text(identifier)]) > 0
      }
    }
  }

  /// Removes every right of `owner`; returns how many there were.
  public func removeAllRights(owner: Owner) throws -> Int {
    try withDatabase { database in
      try database.write { database in
        try database.run(
          "DELETE FROM rights WHERE uid = ? AND app_id = ?",
          [.integer(Int64(owner.uid)), .text(owner.appID)])
      }
    }
  }
}

/// Runs `body`, turning a `CryptoError` into `RightStoreError.crypto`.
func mapCryptoError<T>(_ body: () throws -> T) throws -> T {
  do { return try body() } catch let error as CryptoError {
    throw RightStoreError.crypto(error.description)
  }
}

/// An instant stored as whole milliseconds since 1970, the unit of every `*_ms` column.
struct Milliseconds {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  let value: Int64

  /// The instant `date`, truncated to whole milliseconds.
  init(_ date: Date) { value = Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

  /// A stored value.
  init(value: Int64) { self.value = value }

  /// The instant as a `Date`.
  var date: Date { Date(timeIntervalSince1970: Double(value) / 1000) }
}
