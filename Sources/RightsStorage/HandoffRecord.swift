import FoundationEssentials

/// A pending deferred authorization (docs/protocol.md, "Handoffs"), as listed to the interactive
/// client of the same uid.
public struct HandoffRecord: Sendable, Equatable {
  /// The single-use handoff id (32 lowercase hex digits, 128 random bits).
  public var id: String
  /// The creator's uid and app.
  public var owner: Owner
  /// The creator's payload, shown to the authorizing user and returned once on redemption.
  public var payload: [UInt8]
  /// When it was created (millisecond precision).
  public var createdAt: Date
  /// After this instant it can no longer be authorized or redeemed.
  public var expiresAt: Date
  /// Whether a user has authorized it.
  public var isAuthorized: Bool

  /// A record of these fields (the store makes them; tests and tools may too).
  public init(
    id: String, owner: Owner, payload: [UInt8], createdAt: Date, expiresAt: Date, isAuthorized: Bool
  ) {
    self.id = id
    self.owner = owner
    self.payload = payload
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.isAuthorized = isAuthorized
  }
}
