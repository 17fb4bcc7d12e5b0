import LocalAuthClientCore

// What to do next, added to errors a newcomer meets first: a mistyped subcommand and a daemon
// that is not there.

enum NextSteps {
  /// "unknown subcommand 'stauts' (did you mean 'status'?)": the nearest subcommand within two
  /// edits, if any.
  static func unknownSubcommand(_ name: String) -> String {
    let nearest = CommandParser.subcommands.map { ($0, editDistance($0, name)) }
      .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
    guard let nearest else { return "unknown subcommand '\(name)' (see localauthctl --help)" }
    return "unknown subcommand '\(name)' (did you mean '\(nearest.0)'?)"
  }

  /// The Levenshtein distance between two strings (insertions, deletions, substitutions).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      previous = current
    }
    return previous[b.count]
  }

  /// How to get a daemon on the socket that could not be reached.
  static func cannotConnect(_ error: ConnectionError) -> String {
    switch -error.errno {
    case 13:  // EACCES
      return
        "\(error.description); this user may not use that socket (LOCALAUTHD_SOCKET or --socket names another)"
    default:
      return
        "\(error.description); is localauthd running? Start the service with `sudo systemctl start localauthd.socket`, or `make run` in a clone (then export the LOCALAUTHD_SOCKET it prints)"
    }
  }
}
