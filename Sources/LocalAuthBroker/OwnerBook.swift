/// Every owner's state by uid (failed matches, lockout, passcode and its back-off) and the passcode
/// work in flight per uid: one passcode change per caller's uid and one guess judged per owner at a
/// time (docs/owners-and-agents.md). Owns the states; persisting them is the broker's (through the
/// store worker). A change to what an owner remembers goes here or in `OwnerState`. Value type,
/// held by the Broker actor.
struct OwnerBook {
  /// The states of the owners seen, by uid.
  private(set) var states: [UInt32: OwnerState]
  private var passcodeChanges: Set<UInt32> = []
  private var passcodeGuesses: Set<UInt32> = []

  /// A book of these states (read from the store at start).
  init(_ states: [UInt32: OwnerState] = [:]) { self.states = states }

  /// An owner's state; a fresh one for an account never seen.
  subscript(uid: UInt32) -> OwnerState { states[uid] ?? OwnerState(uid: uid) }

  /// Whether `uid` has a passcode and whether its biometry is locked out, read in place (the
  /// availability check's two facts, without copying the state).
  func standing(_ uid: UInt32) -> (hasPasscode: Bool, biometryLockedOut: Bool) {
    guard let index = states.index(forKey: uid) else { return (false, false) }
    return states.values[index].standing
  }

  /// Changes an owner's state; returns the new state when it changed (to be persisted), nil when
  /// the change left it as it was.
  mutating func update(_ uid: UInt32, _ change: (inout OwnerState) -> Void) -> OwnerState? {
    let before = self[uid]
    var state = before
    change(&state)
    guard state != before else { return nil }
    states[uid] = state
    return state
  }

  /// Starts a passcode change by `uid`; false while one of its changes is being hashed.
  mutating func beginPasscodeChange(by uid: UInt32) -> Bool {
    passcodeChanges.insert(uid).inserted
  }

  /// Ends a passcode change by `uid`.
  mutating func endPasscodeChange(by uid: UInt32) { passcodeChanges.remove(uid) }

  /// Starts judging a guess at `owner`'s passcode; false while another is being judged.
  mutating func beginGuess(at owner: UInt32) -> Bool { passcodeGuesses.insert(owner).inserted }

  /// Ends judging a guess at `owner`'s passcode.
  mutating func endGuess(at owner: UInt32) { passcodeGuesses.remove(owner) }
}
