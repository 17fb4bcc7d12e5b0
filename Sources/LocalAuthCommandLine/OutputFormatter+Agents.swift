import LocalAuthClient
import LocalAuthProtocol

extension OutputFormatter {
  /// `agent --list`: a table of pid, scope, what it serves and since when (UTC), or the JSON list.
  public func agents(_ agents: [LAAgentInfo]) -> String {
    if json {
      let list: [JSONValue] = agents.map { agent in
        [
          "pid": .int(agent.pid), "scope": .string(agent.scope),
          "session": agent.session.map(JSONValue.string),
          "process": agent.process.map(JSONValue.int), "since": .int(agent.since),
        ]
      }
      return encode(["agents": .array(list)])
    }
    guard !agents.isEmpty else { return "no prompt agent registered" }
    let header = ["PID", "SCOPE", "SERVES", "SINCE"]
    let rows = agents.map { agent in
      let serves =
        agent.session.map { "session \($0)" } ?? agent.process.map { "process \($0)" } ?? "-"
      return [String(agent.pid), agent.scope, serves, Self.utcTimestamp(agent.since)].map(
        PrintableText.escaped)
    }
    return table([header] + rows)
  }

  /// Seconds since the epoch as `YYYY-MM-DD HH:MM:SS UTC` (no Foundation, no time zone database).
  static func utcTimestamp(_ epochSeconds: Int) -> String {
    let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
    let secondsOfDay = epochSeconds - days * 86_400
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    return
      "\(year)-\(two(month))-\(two(day)) \(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60)) UTC"
  }
}
