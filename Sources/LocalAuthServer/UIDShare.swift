/// What the connections of one uid share: how many there are (`MaxConnectionsPerUID`), and how many
/// bytes they may still read in this loop turn. The loop serves every ready connection once per
/// turn, so without a share per uid a user flooding from many connections would delay everyone
/// else's next turn in proportion to its connection count. Loop thread only.
public final class UIDShare {
  /// The uid.
  public let uid: UInt32
  /// Bytes the uid's connections may read together in one turn.
  public let bytesPerTurn: Int
  /// The uid's open connections.
  public var connections = 0
  /// The supplementary groups its latest connection came with: a connection with the same groups
  /// keeps this array (one copy per uid, not one per connection).
  var groups: [UInt32] = []
  private var turn: UInt64 = 0
  private var spent = 0

  /// A share of `bytesPerTurn` per loop turn for `uid`'s connections.
  public init(uid: UInt32, bytesPerTurn: Int) {
    self.uid = uid
    self.bytesPerTurn = bytesPerTurn
  }

  /// `groups`, as the array this share already holds when equal (so connections share its storage).
  func shared(_ groups: [UInt32]) -> [UInt32] {
    if groups != self.groups { self.groups = groups }
    return self.groups
  }

  /// Whether one of the uid's connections may read in `turn`; a new turn starts afresh. A
  /// connection that may not stays readable (level-triggered epoll) and reads in a later turn.
  public func mayRead(turn: UInt64) -> Bool {
    if turn != self.turn {
      self.turn = turn
      spent = 0
    }
    return spent < bytesPerTurn
  }

  /// Counts `bytes` read by one of the uid's connections in the current turn.
  public func didRead(_ bytes: Int) { spent += bytes }
}
