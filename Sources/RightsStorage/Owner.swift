/// Who a persisted right or handoff belongs to: the peer's uid (from SO_PEERCRED) and its application identifier.
public struct Owner: Sendable, Hashable {
  /// The owning user's uid.
  public var uid: UInt32
  /// The owning application's identifier.
  public var appID: String

  /// Creates an owner.
  public init(uid: UInt32, appID: String) {
    self.uid = uid
    self.appID = appID
  }
}
