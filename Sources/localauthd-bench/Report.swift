import LocalAuthProtocol

/// Prints the bench table and writes it as JSON.
enum Report {
  /// The table as Markdown.
  static func table(_ rows: [Measurement]) -> String {
    var text = "| measurement | median | runs | target | met |\n|---|---|---|---|---|\n"
    for row in rows {
      let runs = row.samples.map { format($0) }.joined(separator: ", ")
      let met = row.met.map { $0 ? "yes" : "NO" } ?? "-"
      var cell = "\(format(row.median)) \(row.unit)"
      for (name, value) in row.details { cell += "; \(name) \(format(value))" }
      text += "| \(row.title) | \(cell) | \(runs) | \(row.target) | \(met) |\n"
    }
    return text
  }

  /// The rows that carry issue 23's targets ("close to the floor"), in its order.
  static let floorTargets = [
    "canEvaluateThroughput", "serverCPUPerRequest", "serverCPUPerRefusal", "latencyP99",
    "idleConnectionRSS", "hostileP99",
    "latencyP99UnderStoreFlood",
  ]

  /// The rows issue 23 asks to be no slower than before (their own targets).
  static let keptTargets = [
    "evaluationThroughput", "socketActivatedFirstAnswer", "systemOverParkedPrompt",
  ]

  /// The summary: each of issue 23's figures against its target, from the same run as the table,
  /// then the rows that must not get slower.
  static func summary(_ rows: [Measurement]) -> String {
    var text = "\nSummary (docs/performance.md, \"Close to the floor\"):\n"
    for key in floorTargets {
      guard let row = rows.first(where: { $0.key == key }) else { continue }
      text += "- \(row.title): \(summaryFigure(row)); target \(row.target): \(verdict(row))\n"
    }
    let kept = keptTargets.compactMap { key in rows.first(where: { $0.key == key }) }
    if !kept.isEmpty { text += "Not slower (their own targets):\n" }
    for row in kept {
      text += "- \(row.title): \(summaryFigure(row)); target \(row.target): \(verdict(row))\n"
    }
    return text
  }

  private static func verdict(_ row: Measurement) -> String {
    row.met.map { $0 ? "met" : "NOT met" } ?? "-"
  }

  /// A row's median with its ratio: to the floor's, or (the hostile rows) to the quiet p99 of the
  /// same run, which is what the flood costs.
  private static func summaryFigure(_ row: Measurement) -> String {
    let figure = "\(format(row.median)) \(row.unit)"
    if let percent = row.details.first(where: { $0.0 == "percentOfFloor" }) {
      return "\(format(percent.1))% of the floor (\(figure))"
    }
    if let ratio = row.details.first(where: { $0.0 == "ratioToFloor" }) {
      return "\(format(ratio.1))x the floor (\(figure))"
    }
    if let quiet = row.details.first(where: { $0.0 == "quietP99" }), quiet.1 > 0 {
      return "\(figure) = \(format(row.median / quiet.1))x the quiet p99 of the same run "
        + "(\(format(quiet.1)) \(row.unit))"
    }
    return figure
  }

  /// The rows as a JSON document.
  static func json(_ rows: [Measurement], configuration: JSONObject) -> String {
    let entries: [JSONValue] = rows.map { row in
      var details = JSONObject()
      for (name, value) in row.details { details[name] = number(value) }
      return [
        "key": .string(row.key), "title": .string(row.title), "unit": .string(row.unit),
        "median": number(row.median), "samples": .array(row.samples.map(number)),
        "target": .string(row.target),
        "met": row.met.map(JSONValue.bool) ?? .null, "details": .object(details),
      ]
    }
    return JSONWriter.string(["configuration": .object(configuration), "results": .array(entries)])
      + "\n"
  }

  private static func number(_ value: Double) -> JSONValue {
    .number(JSONNumber((value * 100).rounded() / 100))
  }

  /// A figure with at most two decimals, thousands unseparated.
  static func format(_ value: Double) -> String {
    if value >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
