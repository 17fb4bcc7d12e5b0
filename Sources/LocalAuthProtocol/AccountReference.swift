/// An account a request names in its `user` param (docs/protocol.md): a uid, as a number or as
/// ASCII digits, or an account name of 1…256 bytes. The one reading of `user`: the broker decides
/// with it whom a request is for, and the server which account to look up before the broker reads
/// its cache.
public enum AccountReference: Hashable, Sendable {
  /// The account with this uid.
  case uid(UInt32)
  /// The account with this name.
  case name(String)

  /// The account `value` names; nil when it names none (not a uid below 2³²−1, nor a name of
  /// 1…256 bytes).
  public init?(userParam value: JSONValue) {
    if let number = value.intValue, (0...Int(UInt32.max - 1)).contains(number) {
      self = .uid(UInt32(number))
    } else if let text = value.stringValue, !text.isEmpty, text.utf8.count <= 256 {
      if let uid = UInt32(text), text.allSatisfy(\.isASCII) {
        self = .uid(uid)
      } else {
        self = .name(text)
      }
    } else {
      return nil
    }
  }

  /// The account a request's params name in `user`; nil when there is no `user` or it names none.
  /// Inlined up to the first key of four bytes: the request path's params (`policy`, `context`)
  /// are passed over without a call, a copy or a string comparison.
  @inline(__always)
  public init?(requestedBy params: JSONObject) {
    var index = 0
    while index < params.members.count && params.members[index].key.utf8.count != 4 {
      index += 1
    }
    guard index < params.members.count, let raw = params["user"] else { return nil }
    self.init(userParam: raw)
  }
}
