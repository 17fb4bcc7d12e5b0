import Testing

@testable import LocalAuthBroker

/// `OwnerBook` on its own: fresh states for unseen owners, changes reported only when they change
/// something, and one passcode change and one guess at a time per uid.
@Suite struct OwnerBookTests {
  @Test func anUnseenOwnerHasAFreshStateAndNoChangeIsReportedForNothing() {
    var book = OwnerBook()
    #expect(book[1000] == OwnerState(uid: 1000))
    let nothing = book.update(1000) { _ in }
    #expect(nothing == nil)
    #expect(book.states.isEmpty)
    let changed = book.update(1000) { $0.biometryLockedOut = true }
    #expect(changed?.biometryLockedOut == true)
    #expect(book[1000].biometryLockedOut)
    #expect(book[2000] == OwnerState(uid: 2000))
  }

  @Test func standingReadsThePasscodeAndTheLockoutOfThatOwnerOnly() {
    var book = OwnerBook()
    #expect(book.standing(1000) == (false, false))
    _ = book.update(1000) { $0.passcode = .configured(Array("1234".utf8)) }
    #expect(book.standing(1000) == (true, false))
    _ = book.update(1000) { $0.biometryLockedOut = true }
    #expect(book.standing(1000) == (true, true))
    _ = book.update(2000) { $0.biometryLockedOut = true }
    #expect(book.standing(2000) == (false, true))
    _ = book.update(1000) { $0.passcodeSucceeded() }
    #expect(book.standing(1000) == (true, false))
  }

  @Test func oneChangeAndOneGuessAtATimePerUid() {
    var book = OwnerBook()
    let first = book.beginPasscodeChange(by: 1000)
    let second = book.beginPasscodeChange(by: 1000)
    let other = book.beginPasscodeChange(by: 2000)
    #expect(first && !second && other)
    book.endPasscodeChange(by: 1000)
    let afterEnd = book.beginPasscodeChange(by: 1000)
    #expect(afterEnd)
    let guess = book.beginGuess(at: 1000)
    let concurrent = book.beginGuess(at: 1000)
    #expect(guess && !concurrent)
    book.endGuess(at: 1000)
    let next = book.beginGuess(at: 1000)
    #expect(next)
  }
}
