import LocalAuthProtocol

/// Why reuse windows close before their time (docs/rights-and-keys.md, "Reuse ends when the session
/// locks"): what logind said about a user's session or the machine.
public enum GrantClosing: String, Sendable {
  /// The user's session locked (logind's `Lock` on the session).
  case lock
  /// The machine is about to suspend or hibernate (`PrepareForSleep(true)`).
  case sleep
  /// A session of the user ended (`SessionRemoved`).
  case logout
}

extension Broker {
  /// Closes the reuse windows `uid` holds or whose success proved `uid`'s presence (every uid's
  /// when nil): app
  /// contexts' (touchIDAuthenticationAllowableReuseDuration) unless `CloseGrantsOnLock=no`, and
  /// SSH keys' `--reuse` windows unless the key keeps its window on lock. The next evaluation or
  /// signature needs a capture again. Returns how many windows closed; the journal says so.
  @discardableResult
  public func closeGrants(of uid: UInt32?, because reason: GrantClosing) -> Int {
    var closed = 0
    if configuration.closeGrantsOnLock {
      for client in sessions.clients.values {
        for context in client.contexts.values
        where context.reuseGrant.map({ grant in
          uid == nil || grant.owner == uid || client.peer.uid == uid
        }) == true {
          context.reuseGrant = nil
          closed += 1
        }
      }
    }
    closed += device.sshKeys.closeGrants(of: uid)
    let whose = uid.map { "uid \($0)" } ?? "every uid"
    services.log.notice(
      "reuse windows of \(whose) closed: \(reason.rawValue) (\(closed) were open)")
    return closed
  }
}

extension Broker {
  /// The last logind session of `uid` ended: with `[Login] DropPasswordAtLogout=yes` its kept login
  /// password is dropped, and the journal says so. Returns whether one was dropped.
  @discardableResult
  public func lastSessionEnded(of uid: UInt32) -> Bool {
    guard configuration.login.dropAtLastLogout, keptPasswords.drop(uid) else { return false }
    services.log.notice(
      "login password of uid \(uid) dropped (\(PasswordDropReason.lastSessionEnded.rawValue))")
    return true
  }
}
