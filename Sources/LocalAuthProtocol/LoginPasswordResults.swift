/// `login.keepPassword`'s answer.
public struct KeptPasswordResult: MethodResult, Equatable {
  /// Whether the password was kept (false: it is not the account's password).
  public var kept: Bool
  /// An answer.
  public init(kept: Bool) { self.kept = kept }
  /// `{kept}`.
  public var json: JSONValue { ["kept": .bool(kept)] }
  /// From `{kept}`.
  public init?(json: JSONValue) {
    guard let kept = json.objectValue?["kept"]?.boolValue else { return nil }
    self.kept = kept
  }
}

/// `login.releasePassword`'s answer: the kept password, for PAM_AUTHTOK.
public struct ReleasedPasswordResult: MethodResult {
  /// The password.
  public var password: String
  /// An answer.
  public init(password: String) { self.password = password }
  /// `{password}`.
  public var json: JSONValue { ["password": .string(password)] }
  /// From `{password}`.
  public init?(json: JSONValue) {
    guard let password = json.objectValue?["password"]?.stringValue else { return nil }
    self.password = password
  }
}

/// `login.dropPassword`'s answer.
public struct DroppedPasswordResult: MethodResult, Equatable {
  /// Whether a password was kept for the uid.
  public var dropped: Bool
  /// An answer.
  public init(dropped: Bool) { self.dropped = dropped }
  /// `{dropped}`.
  public var json: JSONValue { ["dropped": .bool(dropped)] }
  /// From `{dropped}`.
  public init?(json: JSONValue) {
    guard let dropped = json.objectValue?["dropped"]?.boolValue else { return nil }
    self.dropped = dropped
  }
}
