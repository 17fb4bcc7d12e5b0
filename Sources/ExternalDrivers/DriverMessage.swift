import Sensors

/// One line a driver writes on its stdout (docs/driver-protocol.md, "Driver to daemon").
enum DriverMessage: Equatable {
  /// `HELLO 1`: the protocol version the driver speaks.
  case hello(version: Int)
  /// `ENROLLED <uid> [<identity>…]`: the complete enrolled set of one owner.
  case enrolled(uid: UInt32, identities: [String])
  /// `READY`: the sensor can take captures.
  case ready
  /// `MATCH <id> <identity>`.
  case match(capture: UInt64, identity: String)
  /// `NOMATCH <id>`.
  case noMatch(capture: UInt64)
  /// `RETRY <id> <reason>`: a word of the closed `RetryReason` vocabulary.
  case retry(capture: UInt64, reason: RetryReason)
  /// `CANCEL <id>`: the person cancelled at the sensor.
  case userCancel(capture: UInt64)
  /// `PONG <n>`.
  case pong(UInt64)
  /// `LOG <text>`: a line for the daemon's journal.
  case log([UInt8])

  /// The most identities one `ENROLLED` line may list.
  static let maxIdentities = 64

  /// Parses a line (without its newline); nil for anything that is not the protocol.
  init?(line: [UInt8]) {
    if line.starts(with: Array("LOG ".utf8)) {
      self = .log(Array(line.dropFirst(4)))
      return
    }
    guard let text = String(validating: line, as: UTF8.self) else { return nil }
    let fields = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    guard let verb = fields.first else { return nil }
    let arguments = Array(fields.dropFirst())
    func token(_ value: String) -> String? {
      ScriptCommand.isSaneIdentity(value) ? value : nil
    }
    switch (verb, arguments.count) {
    case ("HELLO", 1):
      guard let version = Int(arguments[0]) else { return nil }
      self = .hello(version: version)
    case ("READY", 0):
      self = .ready
    case ("ENROLLED", 1...):
      guard let uid = UInt32(arguments[0]), arguments.count - 1 <= Self.maxIdentities else {
        return nil
      }
      let identities = arguments.dropFirst().compactMap(token)
      guard identities.count == arguments.count - 1 else { return nil }
      self = .enrolled(uid: uid, identities: identities)
    case ("MATCH", 2):
      guard let id = UInt64(arguments[0]), let identity = token(arguments[1]) else { return nil }
      self = .match(capture: id, identity: identity)
    case ("NOMATCH", 1):
      guard let id = UInt64(arguments[0]) else { return nil }
      self = .noMatch(capture: id)
    case ("RETRY", 2):
      guard let id = UInt64(arguments[0]), let reason = RetryReason(rawValue: arguments[1]) else {
        return nil
      }
      self = .retry(capture: id, reason: reason)
    case ("CANCEL", 1):
      guard let id = UInt64(arguments[0]) else { return nil }
      self = .userCancel(capture: id)
    case ("PONG", 1):
      guard let n = UInt64(arguments[0]) else { return nil }
      self = .pong(n)
    default:
      return nil
    }
  }
}

/// One line the daemon writes on a driver's stdin (docs/driver-protocol.md, "Daemon to driver").
enum DriverCommand: Equatable {
  /// `CAPTURE <id> <uid> <user> <attempt>`.
  case capture(id: UInt64, uid: UInt32, user: String, attempt: Int)
  /// `CANCEL <id>`.
  case cancel(id: UInt64)
  /// `PING <n>`.
  case ping(UInt64)
  /// `ENROLL <uid> <identity>`.
  case enroll(uid: UInt32, identity: String)
  /// `UNENROLL <uid> <identity>`.
  case unenroll(uid: UInt32, identity: String)

  /// The line with its newline.
  var line: String {
    switch self {
    case .capture(let id, let uid, let user, let attempt):
      let name = ScriptCommand.isSaneIdentity(user) ? user : "-"
      return "CAPTURE \(id) \(uid) \(name) \(attempt)\n"
    case .cancel(let id): return "CANCEL \(id)\n"
    case .ping(let n): return "PING \(n)\n"
    case .enroll(let uid, let identity): return "ENROLL \(uid) \(identity)\n"
    case .unenroll(let uid, let identity): return "UNENROLL \(uid) \(identity)\n"
    }
  }
}
