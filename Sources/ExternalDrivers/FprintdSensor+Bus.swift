import CFprintdBus
import Glibc
import Sensors

private let managerPath = "/net/reactivated/Fprint/Manager"
private let managerInterface = "net.reactivated.Fprint.Manager"
private let deviceInterface = "net.reactivated.Fprint.Device"

extension FprintdSensor {
  /// Opens the bus and looks for fprintd's device (loop thread).
  func connect() {
    var opened: OpaquePointer?
    let context = Unmanaged.passUnretained(self).toOpaque()
    let result = lfb_open(
      busAddress,
      { context, token, errorName, errorMessage, path, strings, count in
        let sensor = Unmanaged<FprintdSensor>.fromOpaque(context!).takeUnretainedValue()
        var list: [String] = []
        for index in 0..<Int(count) {
          if let item = strings?[index] { list.append(String(cString: item)) }
        }
        sensor.replied(
          token,
          FprintdReply(
            errorName: errorName.map { String(cString: $0) },
            errorMessage: errorMessage.map { String(cString: $0) },
            path: path.map { String(cString: $0) }, strings: list))
      },
      { context, member, result, done in
        let sensor = Unmanaged<FprintdSensor>.fromOpaque(context!).takeUnretainedValue()
        sensor.signalled(String(cString: member!), String(cString: result!), done)
      }, context, &opened)
    guard result == 0, let opened else {
      log("fprintd sensor \(name): cannot connect to the system bus (errno \(-result))")
      deviceLookupEnded()  // captures waiting for a reconnection fail now
      return
    }
    bus = opened
    findDevice()
    pump()
  }

  /// Processes the bus and re-arms the loop's watch with what sd-bus wants next (loop thread).
  func pump() {
    guard let bus else { return }
    let processed = lfb_process(bus)
    let fd = lfb_fd(bus)
    guard fd >= 0, processed != -ECONNRESET, processed != -ENOTCONN else { return busLost() }
    if fd != watchedFD { unwatchBus() }
    let events = UInt32(max(0, lfb_events(bus)))
    loop.watch(fd, events: events == 0 ? 1 : events) { [self] in pump() }
    watchedFD = fd
    // sd-bus expires a call that gets no reply (10 s) only when processed: while calls wait, the
    // loop processes the bus every second, so a fprintd that stops answering fails the call.
    if !calls.isEmpty && !timeoutCheckScheduled {
      timeoutCheckScheduled = true
      loop.after(.seconds(1)) { [self] in
        timeoutCheckScheduled = false
        pump()
      }
    }
  }

  /// Stops watching the bus's descriptor (loop thread).
  func unwatchBus() {
    guard watchedFD >= 0 else { return }
    loop.unwatch(watchedFD)
    watchedFD = -1
  }

  /// The bus connection ended (the bus daemon went away): it is closed, the calls waiting on it and
  /// the capture in progress fail, and the next capture connects again (loop thread).
  private func busLost() {
    guard let bus else { return }
    unwatchBus()
    lfb_close(bus)
    self.bus = nil
    device = nil
    cache.withLock { $0.present = false }
    log("fprintd sensor \(name): the system bus connection ended (connected again when needed)")
    let waiting = calls.sorted { $0.key < $1.key }.map(\.value)
    calls.removeAll()
    let lost = FprintdReply(
      errorName: "localauthd.BusLost", errorMessage: nil, path: nil, strings: [])
    for then in waiting { then(lost) }
    if let active {
      self.active = nil
      active.resume.finish(
        .failure(SensorFailure(.serviceUnavailable, "the system bus connection ended")))
      deviceReleased()
    }
  }

  private func call(
    _ path: String, _ interface: String, _ member: String, _ argument: String? = nil,
    kind: Int32 = 0, then: @escaping (FprintdReply) -> Void
  ) {
    guard let bus else {
      then(FprintdReply(errorName: "localauthd.NoBus", errorMessage: nil, path: nil, strings: []))
      return
    }
    let token = nextToken
    nextToken += 1
    calls[token] = then
    let result = lfb_call(bus, token, path, interface, member, argument, kind)
    if result < 0 {
      calls[token] = nil
      then(
        FprintdReply(errorName: "localauthd.SendFailed", errorMessage: nil, path: nil, strings: []))
    }
    pump()
  }

  func replied(_ token: UInt64, _ reply: FprintdReply) {
    let then = calls.removeValue(forKey: token)
    then?(reply)
  }

  /// Asks fprintd's well-known name for its device; the bus starts fprintd when it is not running.
  private func findDevice() {
    lookingForDevice = true
    call(managerPath, managerInterface, "GetDefaultDevice", kind: 1) { [self] reply in
      defer { deviceLookupEnded() }
      if let path = reply.path {
        device = path
        cache.withLock {
          $0.markReachable()
          $0.present = true
        }
        log("fprintd sensor \(name): using \(LogSanitizer.sanitize(path))")
        refreshWhenIdle(cache.withLock { $0.owners })
      } else {
        device = nil
        // Nothing on the bus can start it (not installed, no bus): unavailable until it appears.
        // A failed activation (masked, failed to start) or a silent fprintd is not remembered: an
        // administrator may fix it at any time, and the next capture's call fails fast again.
        let error = reply.errorName ?? ""
        if error == "org.freedesktop.DBus.Error.ServiceUnknown" || error.hasPrefix("localauthd.") {
          cache.withLock { $0.markUnreachable() }
        }
        log(
          "fprintd sensor \(name): fprintd not reachable (\(LogSanitizer.sanitize(reply.errorName ?? "-", limit: 80)))"
        )
      }
    }
  }

  /// Runs `then` with the device, activating fprintd first when it is not on the bus; `false` when it
  /// cannot be reached (loop thread).
  func withDevice(_ then: @escaping (Bool) -> Void) {
    if device != nil { return then(true) }
    afterDeviceLookup.append { [self] in then(device != nil) }
    guard !lookingForDevice else { return }
    if bus == nil, started, !stopped {
      lookingForDevice = true
      return connect()  // it looks for the device once connected
    }
    findDevice()
  }

  /// Refreshes these owners' enrolled sets once the device has been idle for `refreshDelay` (loop
  /// thread): never between a state read and the capture that follows it, nor during a capture,
  /// where fprintd would check the caller's rights for them before the Claim.
  func refreshWhenIdle(_ owners: [UInt32]) {
    refreshDue.formUnion(owners)
    guard !refreshArmed, !refreshDue.isEmpty else { return }
    refreshArmed = true
    loop.after(Self.refreshDelay) { [self] in
      refreshArmed = false
      guard active == nil, !stopped else { return }  // the release arms it again
      guard ContinuousClock.now - idleSince >= Self.refreshDelay else {
        return refreshWhenIdle([])
      }
      let owners = refreshDue
      refreshDue.removeAll()
      // fprintd left the bus meanwhile (its idle exit): no refresh may start it again, and its
      // return refreshes every owner. (An unreachable one is retried: that is how it is found.)
      if device == nil, cache.withLock({ $0.reachable && !$0.present }) { return }
      for owner in owners.sorted() { refreshInBackground(owner) }
    }
  }

  /// The device is free again (loop thread): the captures that waited for it begin, in order, and
  /// the refreshes due run once it stays idle.
  func deviceReleased() {
    idleSince = .now
    let waiting = afterRelease
    afterRelease.removeAll()
    for next in waiting { next() }
    refreshWhenIdle([])
  }

  /// Refreshes `owner`'s enrolled set, `user` being its account name (loop thread).
  func refresh(_ owner: UInt32, user: String) {
    withDevice { [self] found in
      guard found, let device else { return }
      call(device, deviceInterface, "ListEnrolledFingers", user, kind: 2) {
        [self] reply in
        store(reply, for: owner)
      }
    }
  }

  /// Keeps a ListEnrolledFingers answer; returns the fingers (nil: fprintd failed).
  @discardableResult
  private func store(_ reply: FprintdReply, for owner: UInt32) -> [String]? {
    let fingers = reply.strings.filter(ScriptCommand.isSaneIdentity)
    let ok = reply.errorName == nil || reply.errorName!.hasSuffix(".NoEnrolledPrints")
    cache.withLock { $0.store(owner, (ok, ok ? fingers : [])) }
    refreshDue.remove(owner)  // answered: a refresh a state read asked for is done
    return ok ? fingers : nil
  }

  func signalled(_ member: String, _ result: String, _ done: Int32) {
    if member == "NameOwnerChanged" {
      if result.isEmpty {
        // An idle exit, a crash or a restart: the next capture activates it again.
        device = nil
        cache.withLock { $0.present = false }
        log("fprintd sensor \(name): fprintd left the bus (activated again when needed)")
        if let active, !active.ending {
          self.active = nil
          active.resume.finish(
            .failure(SensorFailure(.serviceUnavailable, "fprintd left the bus during a capture")))
          deviceReleased()
        }
      } else if !lookingForDevice {
        cache.withLock { $0.present = true }
        findDevice()
      }
      return
    }
    guard let active, active.verifying, !active.ending else { return }
    switch FprintdStatus(result: result, matchedIdentity: active.identity) {
    case .event(let event): end(active, with: .success(event))
    case .failure(let what):
      end(active, with: .failure(SensorFailure(.serviceUnavailable, "fprintd: \(what)")))
    }
  }

  /// Starts a verify cycle for `user` (loop thread): activates fprintd when it is gone, and asks for
  /// the owner's fingers first when they were never asked about (`identity` nil).
  func begin(owner: UInt32, user: String, identity: String?, resume: Resumption) {
    guard !resume.isFinished else { return }
    guard !stopped else { return resume.finish(.failure(stoppedFailure)) }
    if let active {
      // The last capture has its answer (or was cancelled) and is releasing the device: this one
      // claims it next.
      guard active.ending || active.resume.isFinished else {
        resume.finish(.failure(SensorFailure(.deviceBusy, "a capture is already running")))
        return
      }
      afterRelease.append { [self] in
        begin(owner: owner, user: user, identity: identity, resume: resume)
      }
      return
    }
    guard let device else {
      withDevice { [self] found in
        guard found else {
          resume.finish(.failure(SensorFailure(.serviceUnavailable, "fprintd is not reachable")))
          return
        }
        begin(owner: owner, user: user, identity: identity, resume: resume)
      }
      return
    }
    guard let identity else {
      call(device, deviceInterface, "ListEnrolledFingers", user, kind: 2) { [self] reply in
        guard let fingers = store(reply, for: owner) else {
          let error = LogSanitizer.sanitize(reply.errorName ?? "-", limit: 80)
          return resume.finish(
            .failure(SensorFailure(.serviceUnavailable, "ListEnrolledFingers: \(error)")))
        }
        guard let first = fingers.first else {
          return resume.finish(.failure(SensorFailure(.notEnrolled, "fprintd has no prints")))
        }
        begin(owner: owner, user: user, identity: first, resume: resume)
      }
      return
    }
    let verify = ActiveVerify(resume: resume, user: user, identity: identity)
    active = verify
    call(device, deviceInterface, "Claim", user) { [self] reply in
      if let error = reply.errorName {
        clear(verify)
        let reason: SensorFailure.Reason =
          error.hasSuffix(".AlreadyInUse") ? .deviceBusy : .serviceUnavailable
        resume.finish(
          .failure(SensorFailure(reason, "Claim: \(LogSanitizer.sanitize(error, limit: 80))")))
        return
      }
      verify.claimed = true
      if verify.ending || resume.isFinished {
        release(verify)
        return
      }
      call(device, deviceInterface, "VerifyStart", "any") { [self] reply in
        if let error = reply.errorName {
          release(verify) {
            resume.finish(
              .failure(
                SensorFailure(
                  .serviceUnavailable, "VerifyStart: \(LogSanitizer.sanitize(error, limit: 80))")))
          }
          return
        }
        verify.verifying = true
        if verify.ending || resume.isFinished {
          end(verify, with: nil)
        } else {
          resume.verifying()
        }
      }
    }
  }

  /// A cancel: VerifyStop and Release at once (loop thread).
  func cancel(_ resume: Resumption) {
    guard let active, active.resume === resume, !active.ending else { return }
    if active.verifying {
      end(active, with: nil)
    } else {
      active.ending = true  // the Claim reply releases
    }
  }

  /// Resumes with `result` at once (nil: already resumed), then stops and releases: the answer does
  /// not wait for two more round trips to fprintd, and the next capture waits for the Release.
  private func end(_ verify: ActiveVerify, with result: Result<CaptureEvent, any Error>?) {
    verify.ending = true
    if let result { verify.resume.finish(result) }
    guard let device else { return clear(verify) }
    call(device, deviceInterface, "VerifyStop") { [self] _ in release(verify) }
  }

  /// Forgets `verify` as the capture in progress (when it still is) and frees the device.
  private func clear(_ verify: ActiveVerify) {
    guard active === verify else { return }
    active = nil
    deviceReleased()
  }

  /// Releases the device, then calls `then` (the next capture may claim it from there on).
  private func release(_ verify: ActiveVerify, then: @escaping () -> Void = {}) {
    guard let device, verify.claimed else {
      clear(verify)
      then()
      return
    }
    verify.claimed = false
    call(device, deviceInterface, "Release") { [self] _ in
      clear(verify)
      then()
    }
  }
}
