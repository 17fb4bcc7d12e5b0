import LocalAuthConcurrency
import LocalAuthCrypto
import LocalAuthProtocol
import RightsStorage
import Sensors

extension Broker {
  /// The owner a client asks for by default: itself, or the one device owner in device mode.
  func defaultOwner(of client: ClientSession) -> SensorOwner {
    switch configuration.ownerMode {
    case .perUser: return account(of: client)
    case .device:
      if let cached = device.setupOwnerAccount, cached.uid == configuration.setupOwner {
        return cached
      }
      // Kept once found: the directory may not hold it yet (the server looks it up off the loop).
      guard let owner = services.accounts.account(uid: configuration.setupOwner) else {
        return .unnamed(configuration.setupOwner)
      }
      device.setupOwnerAccount = owner
      return owner
    }
  }

  /// The account behind a connection (its own owner in per-user mode), kept once found.
  func account(of client: ClientSession) -> SensorOwner {
    if let known = client.account { return known }
    guard let account = services.accounts.account(uid: client.peer.uid) else {
      return .unnamed(client.peer.uid)
    }
    client.account = account
    return account
  }

  /// The uid a client asks for by default, without an account lookup (the hot path).
  func defaultOwnerUID(of client: ClientSession) -> UInt32 {
    configuration.ownerMode == .device ? configuration.setupOwner : client.peer.uid
  }

  /// The account a request must wait for before the broker can answer it: one an admin names in
  /// `user` that the account directory has no fresh answer for (others may name only themselves,
  /// decided without a lookup). The server looks it up off the loop, then hands the request in.
  public func accountNeeded(by params: JSONObject, from client: ClientSession) -> AccountReference?
  {
    guard client.isAdmin, let account = AccountReference(requestedBy: params),
      !services.accounts.holdsFreshly(account)
    else { return nil }
    return account
  }

  /// The uid of the owner named by an optional `user` param, or the client's default.
  func requestedOwnerUID(_ params: ParamReader, client: ClientSession) throws(RPCError) -> UInt32 {
    guard let raw = params.object["user"], raw != .null else { return defaultOwnerUID(of: client) }
    return try requestedOwner(params, client: client).uid
  }

  /// The owner named by an optional `user` param (a name or a uid, as a string or a number). Only root and
  /// admins may name another account (the PAM module runs as root for the user who typed sudo); everyone
  /// else gets permissionDenied. In device mode every evaluation is for the one owner.
  func requestedOwner(_ params: ParamReader, client: ClientSession) throws(RPCError) -> SensorOwner
  {
    guard let raw = params.object["user"], raw != .null else { return defaultOwner(of: client) }
    if !client.isAdmin {
      // Everyone else may name only themselves: decided without an account lookup.
      let own = account(of: client)
      guard
        raw.intValue == Int(own.uid) || raw.stringValue == own.name
          || raw.stringValue == String(own.uid)
      else {
        throw RPCError(
          .permissionDenied,
          "Permission denied: only root and the admin group may act for another user.",
          data: ["field": "user"])
      }
      return defaultOwner(of: client)
    }
    let named: SensorOwner?
    switch AccountReference(userParam: raw) {
    case .uid(let uid): named = services.accounts.owner(uid: uid)
    case .name(let name): named = services.accounts.owner(name: name)
    case nil: throw .invalidParams("user", "must be an account name or a uid")
    }
    guard let owner = named else {
      throw RPCError(.notFound, "No such user.", data: ["field": "user"])
    }
    if owner.uid != client.peer.uid && !client.isAdmin {
      throw RPCError(
        .permissionDenied,
        "Permission denied: only root and the admin group may act for another user.",
        data: ["field": "user"])
    }
    return configuration.ownerMode == .device ? defaultOwner(of: client) : owner
  }

  /// An owner's state (a fresh one for an account never seen).
  func ownerState(_ uid: UInt32) -> OwnerState { device.owners[uid] }

  /// Changes an owner's state and writes it to the store through the store worker (never on the loop).
  func updateOwner(_ uid: UInt32, _ change: (inout OwnerState) -> Void) {
    guard let state = device.owners.update(uid, change) else { return }
    persist(state)
  }

  /// Queues the owner's state for the store thread; writes run in the order queued.
  func persist(_ state: OwnerState) {
    let record = OwnerStateRecord(
      uid: state.uid, biometricFailures: state.consecutiveBiometricFailures,
      biometryLockedOut: state.biometryLockedOut,
      passcodeFailures: state.consecutivePasscodeFailures,
      passcodeRetryNotBeforeMilliseconds: state.passcodeRetryNotBefore.map { notBefore in
        let remaining = notBefore - services.time.now()
        return Int64(services.time.sinceEpoch().milliseconds + max(0, remaining.milliseconds))
      },
      passcode: state.passcode?.storedHash)
    let log = services.log
    rights.lane.submit { store in
      do {
        try store.saveOwnerState(record)
      } catch {
        log.notice("cannot save the state of uid \(record.uid): \(error)")
      }
    }
  }

  /// Every owner's state from the records read at start; a saved back-off deadline (wall clock)
  /// becomes one on the broker's clock.
  static func owners(from records: [OwnerStateRecord], time: any TimeSource) -> [UInt32: OwnerState]
  {
    var owners: [UInt32: OwnerState] = [:]
    let wallNow = Int64(time.sinceEpoch().milliseconds)
    for record in records {
      var state = OwnerState(uid: record.uid)
      state.passcode = record.passcode.map(OwnerPasscode.hashed)
      state.consecutiveBiometricFailures = record.biometricFailures
      state.biometryLockedOut = record.biometryLockedOut
      state.consecutivePasscodeFailures = record.passcodeFailures
      if let notBefore = record.passcodeRetryNotBeforeMilliseconds {
        state.passcodeRetryNotBefore = time.now() + .milliseconds(max(0, notBefore - wallNow))
      }
      owners[record.uid] = state
    }
    return owners
  }
}

/// Computes passcode hashes (scrypt, slow on purpose) on a thread of their own, off the event loop.
final class PasscodeHasher: Sendable {
  let thread: any WorkerThread

  /// A hasher running on `thread` (not the rights store's: a hash takes scrypt's time).
  init(thread: any WorkerThread) { self.thread = thread }

  /// A fresh salted hash of `passcode`.
  nonisolated(nonsending) func hash(_ passcode: String) async throws -> PasscodeHash {
    try await withCheckedThrowingContinuation { continuation in
      thread.run { continuation.resume(with: Result { try PasscodeHash.make(passcode) }) }
    }
  }

  /// Whether `passcode` matches (constant-time compare; a stored hash is checked off the loop). Runs on
  /// the caller's executor (the broker's), so a configured passcode is checked without any hop.
  nonisolated(nonsending) func verify(_ passcode: String, against stored: OwnerPasscode) async
    -> Bool
  {
    switch stored {
    case .configured(let bytes):
      return ConstantTime.equal(Array(passcode.utf8), bytes)
    case .hashed(let hash):
      return await withCheckedContinuation { continuation in
        thread.run { continuation.resume(returning: hash.verify(passcode)) }
      }
    }
  }
}
