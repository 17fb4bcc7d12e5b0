import LocalAuthCrypto
import LocalAuthProtocol
import Sensors

/// Keeping a login password for a login by presence (issue 33; docs/pam.md, "The keyring"):
/// pam_localauthd's `keep_password` hands the password pam_unix accepted to `login.keepPassword`;
/// after a later login of the same user by finger or face, the module asks `login.releasePassword`
/// and sets it as PAM_AUTHTOK for pam_gnome_keyring. Every `login.*` method is root's alone.
extension Broker {
  /// The routes of `login.keepPassword`, `login.releasePassword` and `login.dropPassword`.
  static var loginPasswordRoutes: [MethodRoute] {
    [
      .deferred(KeepPasswordRequest.self) {
        (broker, params, _, client, makeResponder) throws(RPCError) in
        try broker.keepPassword(params, client: client, responder: makeResponder())
      },
      .answer(ReleasePasswordRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.releasePassword(params, client: client)
      },
      .answer(DropPasswordRequest.self) { (broker, params, client) throws(RPCError) in
        try broker.dropPassword(params, client: client)
      },
    ]
  }

  /// Gives the broker what keeping passwords needs (the daemon does, at start); without it
  /// `login.keepPassword` keeps nothing.
  public func setKeptPasswordServices(_ services: KeptPasswordServices?) {
    keptPasswords.services = services
  }

  /// For how many uids a password is kept now (`broker.status` for root).
  public var keptPasswordCount: Int {
    dropExpiredPasswords()
    return keptPasswords.count
  }

  /// `broker.status`, with `keptPasswords` for root (a count, never whose).
  func status(for client: ClientSession) -> BrokerStatus {
    var status = status()
    if client.peer.uid == 0 { status.keptPasswords = keptPasswordCount }
    return status
  }

  /// Remembers on the connection a system evaluation that succeeded by presence (a biometric
  /// sensor, not a reused success); any other system evaluation's end on it forgets the last one.
  func notePresence(_ evaluation: Evaluation, _ outcome: EvaluationOutcome) {
    guard let system = evaluation.system else { return }
    evaluation.client.presence = nil
    guard case .success(let success) = outcome, !success.reused,
      let name = evaluation.sensor,
      sensors.drivers.first(where: { $0.name == name })?.kind.isBiometric == true
    else { return }
    evaluation.client.presence = PresenceProof(
      requestID: evaluation.requestID, uid: evaluation.owner.uid, requester: system.requester,
      at: services.time.now())
  }

  /// permissionDenied unless the peer is root (the module's PAM path).
  private func requireRoot(_ client: ClientSession) throws(RPCError) {
    guard client.peer.uid == 0 else {
      throw RPCError(
        .permissionDenied,
        "Permission denied: login.* methods are pam_localauthd's, served to root's connections only.",
        data: ["reason": "notRoot"])
    }
  }

  private func keepPassword(
    _ params: KeepPasswordRequest.Params, client: ClientSession, responder: any Responder
  ) throws(RPCError) -> MethodAnswer {
    try requireRoot(client)
    let uid = try params.uid()
    let text = try params.password()
    guard configuration.login.keepPasswords else {
      throw RPCError(
        .permissionDenied, "The daemon keeps no login passwords (KeepPasswords=no).",
        data: ["reason": "keepingOff"])
    }
    guard let services = keptPasswords.services else {
      throw RPCError(
        .biometryNotAvailable,
        "The daemon has no sealing key in locked memory (mlock refused at start; see its journal).",
        data: ["reason": "noLockedMemory"])
    }
    guard keptPasswords.hasRoom(for: uid) else {
      throw .limit(
        "MaxKeptPasswords", KeptPasswords.maxEntries,
        "passwords are kept for too many users; drop some with login.dropPassword")
    }
    guard keptPasswords.beginCheck(uid) else {
      throw RPCError(
        .alreadyInProgress, "A password for this uid is being checked.",
        data: ["reason": "checking"])
    }
    var password = Array(text.utf8)
    Task {
      let check = await services.checker.check(password, uid: uid)
      let answer = self.keptPassword(password, uid: uid, check, sealer: services.sealer)
      SecretWipe.wipe(&password)
      responder.respond(answer)
      StackScrub.scrub()
    }
    return nil
  }

  /// Keeps `password` when the check found it right.
  private func keptPassword(
    _ password: [UInt8], uid: UInt32, _ check: PasswordCheck, sealer: BootSealer
  ) -> BrokerAnswer {
    keptPasswords.endCheck(uid)
    switch check {
    case .wrong:
      services.log.notice("login password of uid \(uid) not kept: it is not the account's password")
      return .success(KeptPasswordResult(kept: false))
    case .unavailable:
      services.log.notice(
        "login password of uid \(uid) not kept: the password helper could not be asked")
      return .failure(
        RPCError(
          .biometryNotAvailable, "The password helper could not check the password.",
          data: ["reason": "passwordHelperUnavailable"]))
    case .right:
      let sealed = password.withUnsafeBufferPointer {
        sealer.seal($0, authenticating: KeptPasswords.binding(uid))
      }
      guard let sealed else {
        services.log.notice(
          "login password of uid \(uid) not kept: no locked memory (LimitMEMLOCK=)")
        return .failure(
          RPCError(
            .limitExceeded, "No locked memory to keep the password in.",
            data: ["reason": "noLockedMemory"]))
      }
      keptPasswords.keep(sealed, uid: uid, at: services.time.now())
      services.log.notice(
        "login password of uid \(uid) kept for this boot (sealed, in memory only)")
      return .success(KeptPasswordResult(kept: true))
    }
  }

  private func releasePassword(_ params: ReleasePasswordRequest.Params, client: ClientSession)
    throws(RPCError) -> ReleasedPasswordResult
  {
    try requireRoot(client)
    let requestID = try params.requestID()
    let service = try params.service()
    // One release per presence: whatever the answer, the proof is spent.
    let proof = client.presence
    client.presence = nil
    guard configuration.login.releaseTo.contains(service),
      !LoginPasswordConfiguration.neverReleasedTo.contains(service)
    else {
      throw refusal("serviceNotListed", "the service is not in ReleasePasswordTo=", requestID)
    }
    guard let proof, proof.requestID == requestID, proof.requester == 0,
      services.time.now() - proof.at <= KeptPasswords.releaseWindow
    else {
      throw refusal(
        "noPresence",
        "no system evaluation asked by root succeeded by presence on this connection in the last 30 s",
        requestID)
    }
    dropExpiredPasswords()
    guard let entry = keptPasswords.entry(proof.uid),
      let services = keptPasswords.services,
      let opened = services.sealer.open(
        entry.sealed, authenticating: KeptPasswords.binding(proof.uid))
    else {
      throw RPCError(
        .notFound, "No password is kept for this user.",
        data: ["reason": "notKept", "requestID": .string(requestID)])
    }
    // Native storage of its own (never a small string's inline bytes, which would be copied into
    // the answer's members): the server wipes it once the answer is encoded.
    let password = String(unsafeUninitializedCapacity: max(opened.count, 32)) { target in
      _ = target.initialize(from: opened.bytes)
      return opened.count
    }
    opened.wipe()
    self.services.log.notice(
      "login password of uid \(proof.uid) released to \(service) after evaluation \(requestID)")
    return ReleasedPasswordResult(password: password)
  }

  private func refusal(_ reason: String, _ why: String, _ requestID: String) -> RPCError {
    services.log.notice("login password not released (evaluation \(requestID)): \(why)")
    return RPCError(
      .permissionDenied, "Permission denied: \(why).",
      data: ["reason": .string(reason), "requestID": .string(requestID)])
  }

  private func dropPassword(_ params: DropPasswordRequest.Params, client: ClientSession)
    throws(RPCError) -> DroppedPasswordResult
  {
    try requireRoot(client)
    let uid = try params.uid()
    let reason = try params.reason()
    let dropped = keptPasswords.drop(uid)
    if dropped { services.log.notice("login password of uid \(uid) dropped (\(reason.rawValue))") }
    return DroppedPasswordResult(dropped: dropped)
  }

  /// Drops the passwords past KeptPasswordMaxAge=, each logged.
  func dropExpiredPasswords() {
    for uid in keptPasswords.dropExpired(
      now: services.time.now(), maxAge: configuration.login.maxAge)
    {
      services.log.notice("login password of uid \(uid) dropped (maxAge)")
    }
  }
}
