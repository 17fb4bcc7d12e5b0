import LocalAuthServer
import Testing

@Suite("UIDShare") struct UIDShareTests {
  @Test("A uid past its share of a turn waits for the next one; another uid has its own")
  func aFloodingUIDWaitsForTheNextTurn() {
    let flooding = UIDShare(uid: 1000, bytesPerTurn: 1000)
    let other = UIDShare(uid: 1001, bytesPerTurn: 1000)
    #expect(flooding.mayRead(turn: 1))
    flooding.didRead(600)
    #expect(flooding.mayRead(turn: 1))
    flooding.didRead(400)
    #expect(!flooding.mayRead(turn: 1), "1000 bytes spent: no more in this turn")
    #expect(other.mayRead(turn: 1), "another uid has its own share")
    #expect(flooding.mayRead(turn: 2), "a new turn starts afresh")
  }
}
