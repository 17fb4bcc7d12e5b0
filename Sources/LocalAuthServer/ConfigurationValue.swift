/// Values of configuration keys: integers in a range and systemd-style booleans.
extension ConfigurationParser {
  static func integer(_ value: String, _ range: ClosedRange<Int>)
    throws(ConfigurationValueError) -> Int
  {
    guard let number = Int(value), range.contains(number) else {
      throw .init("must be an integer from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  static func boolean(_ value: String) throws(ConfigurationValueError) -> Bool {
    switch value.lowercased() {
    case "yes", "true", "1", "on": return true
    case "no", "false", "0", "off": return false
    default: throw .init("must be yes or no")
    }
  }
}

/// Why one value cannot be used (the parser adds the file, line and key).
struct ConfigurationValueError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

extension StringProtocol {
  func trimmingWhitespace() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" || first == "\r" {
      slice.removeFirst()
    }
    while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
    return String(slice)
  }
}
