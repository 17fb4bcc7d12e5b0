/// A `localauthd.conf` for a test's daemon, built from typed calls instead of a string literal per
/// test: `DaemonConfig().broker("MaxQueue", 1000).face(enrolled: ["alice"], answer: .wait)
/// .passcode("1234")`. Sections keep the order of their first call; keys within one keep the order
/// they were set, and a key set twice keeps its last value. `DaemonConfigBuilderTests`
/// (LocalAuthServerTests) holds every key and section it writes to the daemon's parser. A value.
public struct DaemonConfig: Sendable, CustomStringConvertible {
  /// What a simulated sensor does with a capture nobody scripted (`Default=`).
  public enum Answer: String, Sendable {
    /// Waits for a script command (`Default=WAIT`).
    case wait = "WAIT"
    /// Matches the first enrolled identity (`Default=MATCH`).
    case match = "MATCH"
    /// Does not match (`Default=NOMATCH`).
    case noMatch = "NOMATCH"
  }

  private var sections: [(name: String, entries: [(key: String, value: String)])] = []
  private var trailing = ""

  /// An empty configuration (the daemon's defaults, no sensors).
  public init() {}

  /// `[Broker] key=value`.
  public func broker(_ key: String, _ value: some CustomStringConvertible) -> Self {
    setting("Broker", key, "\(value)")
  }

  /// `[Diagnostics] key=value`.
  public func diagnostics(_ key: String, _ value: some CustomStringConvertible) -> Self {
    setting("Diagnostics", key, "\(value)")
  }

  /// `[Sensor.NAME]` with `Kind=kind` and `settings` (`key=value`, in order).
  public func sensor(
    _ name: String, kind: String, _ settings: KeyValuePairs<String, String> = [:]
  ) -> Self {
    var config = setting("Sensor.\(name)", "Kind", kind)
    for (key, value) in settings { config = config.setting("Sensor.\(name)", key, value) }
    return config
  }

  /// A simulated Face ID sensor, `[Sensor.NAME]` (`face` unless named): who is enrolled, what it
  /// answers unscripted, how long each answer takes.
  public func face(
    _ name: String = "face", enrolled: [String] = [], answer: Answer? = nil,
    delayMs: Int? = nil
  ) -> Self {
    var config = sensor(name, kind: "faceID")
    if !enrolled.isEmpty {
      config = config.setting("Sensor.\(name)", "Enrolled", enrolled.joined(separator: " "))
    }
    if let answer { config = config.setting("Sensor.\(name)", "Default", answer.rawValue) }
    if let delayMs { config = config.setting("Sensor.\(name)", "DefaultDelayMs", "\(delayMs)") }
    return config
  }

  /// The passcode sensor, `[Sensor.passcode]`, with root's passcode when one is given.
  public func passcode(_ passcode: String? = nil) -> Self {
    let config = sensor("passcode", kind: "passcode")
    guard let passcode else { return config }
    return config.setting("Sensor.passcode", "Passcode", passcode)
  }

  /// Text appended as is after the sections: only for tests of the parser's refusals (an unknown
  /// section, a malformed line), which a builder of valid files cannot spell.
  public func appending(raw text: String) -> Self {
    var config = self
    config.trailing += text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"
    return config
  }

  /// `[section] key=value`, replacing an earlier value of the key.
  public func setting(_ section: String, _ key: String, _ value: String) -> Self {
    var config = self
    let index =
      config.sections.firstIndex { $0.name == section }
      ?? {
        config.sections.append((section, []))
        return config.sections.count - 1
      }()
    if let existing = config.sections[index].entries.firstIndex(where: { $0.key == key }) {
      config.sections[index].entries[existing].value = value
    } else {
      config.sections[index].entries.append((key, value))
    }
    return config
  }

  /// The file's text.
  public var text: String {
    sections.map { section in
      "[\(section.name)]\n" + section.entries.map { "\($0.key)=\($0.value)\n" }.joined()
    }.joined() + trailing
  }

  /// The file's text.
  public var description: String { text }
}
