/// The params of `login.keepPassword`: `{uid, password}` (root only: pam_localauthd's
/// `keep_password`, after pam_unix in a login's auth stack; docs/pam.md, "The keyring").
public struct KeepPasswordParams: MethodParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params that keep `password` for `uid`.
  public init(uid: UInt32, password: String) {
    object = ["uid": .int(Int(uid)), "password": .string(password)]
  }
  /// `uid`, required: the account the password is for.
  public func uid() throws(RPCError) -> UInt32 { try reader.accountUID("uid") }
  /// `password`, required, 1–512 bytes without NUL (the password helper's limit).
  public func password() throws(RPCError) -> String {
    let password = try reader.string("password")
    guard (1...512).contains(password.utf8.count), !password.utf8.contains(0) else {
      throw .invalidParams("password", "must be 1–512 bytes without NUL")
    }
    return password
  }
}

/// `login.keepPassword {uid, password}` → `{kept}`: root only. The daemon checks the password with
/// localauthd-password-helper, then keeps it sealed in memory for this boot.
public enum KeepPasswordRequest: RequestType {
  /// `login.keepPassword`
  public static let method = "login.keepPassword"
  /// `{kept}`.
  public typealias Result = KeptPasswordResult
  /// `{uid, password}`.
  public typealias Params = KeepPasswordParams
}

/// The params of `login.releasePassword`: `{requestID, service}`, the login's evaluation on this
/// connection and the PAM service it authenticated for.
public struct ReleasePasswordParams: MethodParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params that ask for the password kept for the owner of evaluation `requestID`.
  public init(requestID: String, service: String) {
    object = ["requestID": .string(requestID), "service": .string(service)]
  }
  /// `requestID`, required.
  public func requestID() throws(RPCError) -> String { try reader.nonEmptyString("requestID") }
  /// `service`, required: the PAM service (PAM_SERVICE), at most 128 bytes.
  public func service() throws(RPCError) -> String {
    let service = try reader.nonEmptyString("service")
    guard service.utf8.count <= 128 else {
      throw .invalidParams("service", "must be at most 128 bytes")
    }
    return service
  }
}

/// `login.releasePassword {requestID, service}` → `{password}`: root only, on the connection whose
/// system evaluation `requestID` (asked by root) succeeded by presence less than 30 s ago, for a
/// service of `ReleasePasswordTo=`, once.
public enum ReleasePasswordRequest: RequestType {
  /// `login.releasePassword`
  public static let method = "login.releasePassword"
  /// `{password}`.
  public typealias Result = ReleasedPasswordResult
  /// `{requestID, service}`.
  public typealias Params = ReleasePasswordParams
}

/// Why a kept password is dropped on request.
public enum PasswordDropReason: String, Sendable, CaseIterable {
  /// An administrator's command (`localauthctl login drop-password USER`).
  case admin
  /// The account's password changed (pam_localauthd's `pam_sm_chauthtok`).
  case passwordChanged
  /// The user's last logind session ended, with `[Login] DropPasswordAtLogout=yes` (the daemon's
  /// own reason: login.dropPassword does not take it).
  case lastSessionEnded
}

/// The params of `login.dropPassword`: `{uid, reason}`.
public struct DropPasswordParams: MethodParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// The params that drop `uid`'s kept password.
  public init(uid: UInt32, reason: PasswordDropReason) {
    object = ["uid": .int(Int(uid)), "reason": .string(reason.rawValue)]
  }
  /// `uid`, required.
  public func uid() throws(RPCError) -> UInt32 { try reader.accountUID("uid") }
  /// `reason`, required: admin or passwordChanged.
  public func reason() throws(RPCError) -> PasswordDropReason {
    guard let reason = PasswordDropReason(rawValue: try reader.string("reason")),
      reason != .lastSessionEnded
    else {
      throw .invalidParams("reason", "must be 'admin' or 'passwordChanged'")
    }
    return reason
  }
}

/// `login.dropPassword {uid, reason}` → `{dropped}`: root only.
public enum DropPasswordRequest: RequestType {
  /// `login.dropPassword`
  public static let method = "login.dropPassword"
  /// `{dropped}`.
  public typealias Result = DroppedPasswordResult
  /// `{uid, reason}`.
  public typealias Params = DropPasswordParams
}

extension ParamReader {
  /// A uid member: an integer 0…2³²−2.
  func accountUID(_ key: String) throws(RPCError) -> UInt32 {
    guard let number = object[key]?.intValue, (0...Int(UInt32.max - 1)).contains(number) else {
      throw .invalidParams(key, "must be a uid (an integer)")
    }
    return UInt32(number)
  }
}
