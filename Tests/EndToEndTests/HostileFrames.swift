/// A small deterministic generator (SplitMix64), so a failing run can be replayed from its seed.
struct HostileRandom: RandomNumberGenerator {
  private var state: UInt64

  /// A generator from a seed.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Hostile frames: garbage, truncation, deep nesting, huge numbers and strings, invalid UTF-8,
/// and random params for every method. Each garbage line is non-blank and has no newline inside.
enum HostileFrames {
  /// Every method of protocol 1 (LocalAuthProtocol.Method), plus unknown ones.
  static let methods = [
    "session.hello", "session.setActive", "context.create", "context.canEvaluatePolicy",
    "context.evaluatePolicy",
    "context.invalidate", "context.domainState", "evaluation.cancel", "sensors.list",
    "sensors.script",
    "sensors.enroll", "sensors.unenroll", "sensors.setPasscode", "sensors.resetLockout",
    "broker.status",
    "broker.monitor", "no.such", "", "context.evaluatePolicy\u{0}",
  ]

  /// Param names the methods read, so random params sometimes hit a real field with a wrong value.
  static let fields = [
    "policy", "localizedReason", "context", "requestID", "id", "active", "client", "protocol",
    "sensor", "commands",
    "identity", "passcode", "interactionNotAllowed", "reuseDuration", "localizedFallbackTitle",
    "name",
  ]

  /// One garbage line of a random kind (never a valid request with an id, never blank).
  static func garbage(_ random: inout HostileRandom) -> [UInt8] {
    switch Int.random(in: 0..<12, using: &random) {
    case 0:  // random bytes, newline-free, with one visible byte so the line is not blank
      return [UInt8(ascii: "#")]
        + (0..<Int.random(in: 0..<200, using: &random)).map { _ in
          let byte = UInt8.random(in: 0...255, using: &random)
          return byte == 0x0A ? 0x0B : byte
        }
    case 1:  // a truncated request
      let full = Array(
        #"{"jsonrpc":"2.0","id":7,"method":"context.evaluatePolicy","params":{"policy":1,"localizedReason":"x"}}"#
          .utf8)
      return Array(full[0..<Int.random(in: 1..<full.count, using: &random)])
    case 2:  // deep nesting within the frame limit
      let depth = Int.random(in: 65..<30_000, using: &random)
      return Array(repeating: UInt8(ascii: "["), count: depth)
        + Array(repeating: UInt8(ascii: "]"), count: depth)
    case 3:  // huge numbers as id and as params
      let digits = String(repeating: "9", count: Int.random(in: 300..<20_000, using: &random))
      return Array(
        #"{"jsonrpc":"2.0","id":{"n":\#(digits)},"method":"x","params":{"policy":1e999999}}"#.utf8)
    case 4:  // a huge string in a wrong-typed id
      let text = String(repeating: "ab\\u00e9", count: Int.random(in: 1..<8_000, using: &random))
      return Array(
        #"{"jsonrpc":"2.0","id":["\#(text)"],"method":"context.canEvaluatePolicy"}"#.utf8)
    case 5:  // invalid UTF-8 in a string
      return Array(#"{"jsonrpc":"2.0","id":1,"method":"context.canEvaluate"#.utf8) + [
        0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xFF,
      ]
        + Array(#""}"#.utf8)
    case 6:  // wrong envelope
      return Array(#"{"jsonrpc":"1.0","id":2,"method":"broker.status"}"#.utf8)
    case 7:  // a scalar, not an object
      return Array(["1", "\"s\"", "null", "true", "-0.0e-0"].randomElement(using: &random)!.utf8)
    case 8:  // an empty batch or a batch of junk
      return Array(["[]", "[1,2,3]", "[[]]", "[{}]"].randomElement(using: &random)!.utf8)
    case 9:  // bad escapes
      return Array(#"{"jsonrpc":"2.0","id":3,"method":"\ud800\x\u12"}"#.utf8)
    case 10:  // a frame over the 64 KiB limit (answered with frameTooLarge)
      return [UInt8(ascii: "{")] + Array(repeating: UInt8(ascii: " "), count: 70_000) + [
        UInt8(ascii: "x")
      ]
    default:  // a NUL-laden line
      return [0, 0, UInt8(ascii: "{"), 0]
    }
  }

  /// A random JSON value (as text) of bounded size.
  static func value(_ random: inout HostileRandom, depth: Int = 0) -> String {
    switch Int.random(in: 0..<(depth > 2 ? 6 : 8), using: &random) {
    case 0: return "null"
    case 1: return Bool.random(using: &random) ? "true" : "false"
    case 2:
      return [
        "0", "1", "-1", "5", "2.5", "1e308", "-1e400", "300", "301", "9007199254740993",
        "123456789012345678901234567890",
      ]
      .randomElement(using: &random)!
    case 3: return "\"\""
    case 4:
      return "\"" + [
        "x", "face", "passcode", "ctx-00000000-0000-0000-0000-000000000000",
        "deviceOwnerAuthentication", "\\u0000",
        "é", "zz9", "bob",
      ].randomElement(using: &random)! + "\""
    case 5:
      return "\"" + String(repeating: "w", count: Int.random(in: 200..<5_000, using: &random))
        + "\""
    case 6:
      return "["
        + (0..<Int.random(in: 0..<4, using: &random)).map { _ in value(&random, depth: depth + 1) }
        .joined(separator: ",") + "]"
    default: return params(&random, depth: depth + 1)
    }
  }

  /// A random params object, keys mostly from real field names.
  static func params(_ random: inout HostileRandom, depth: Int = 0) -> String {
    let count = Int.random(in: 0..<5, using: &random)
    let members = (0..<count).map { _ in
      let key =
        Bool.random(using: &random)
        ? fields.randomElement(using: &random)! : "k\(Int.random(in: 0..<9, using: &random))"
      return "\"\(key)\":\(value(&random, depth: depth))"
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// A request with the given string id to a random method with random params.
  /// The tests run as root, so every client is an administrator: `sensors.setPasscode {passcode: null}`
  /// would legitimately clear the passcode (and with it biometry) under the well-behaved client.
  /// Random params never include that one valid state change; every other random value stays.
  static func randomRequest(id: String, _ random: inout HostileRandom) -> String {
    let method = methods.randomElement(using: &random)!.replacingNUL
    var params = Int.random(in: 0..<6, using: &random) == 0 ? value(&random) : params(&random)
    while method == "sensors.setPasscode" && params.contains(#""passcode":null"#) {
      params = Self.params(&random)
    }
    return #"{"jsonrpc":"2.0","id":"\#(id)","method":"\#(method)","params":\#(params)}"#
  }
}

extension String {
  /// The string with NUL written as the JSON escape `\u0000`.
  fileprivate var replacingNUL: String {
    var out = ""
    for scalar in unicodeScalars { out += scalar == "\u{0}" ? "\\u0000" : String(scalar) }
    return out
  }
}
