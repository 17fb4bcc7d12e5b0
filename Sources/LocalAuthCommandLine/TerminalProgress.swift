/// When `localauthctl evaluate` shows its progress indicator (a spinner with the waiting time,
/// drawn with carriage returns and an erase-line sequence on standard error). It never prints
/// colour, so `NO_COLOR` holds whatever it says.
public enum TerminalProgress {
  /// Whether the indicator may be drawn: standard error is a terminal and `TERM` names one that
  /// can erase a line (set, and not `dumb`, as systemd's tools decide). `--json` turns it off
  /// separately, per command.
  public static func isShown(standardErrorIsTerminal: Bool, environment: [String: String]) -> Bool {
    guard standardErrorIsTerminal, let term = environment["TERM"], !term.isEmpty else {
      return false
    }
    return term != "dumb"
  }
}
