/// The help texts of the `doctor`, `trace` and `replay` subcommands.
extension Usage {
  /// `localauthctl doctor|trace|replay --help`.
  public static func diagnostics(_ subcommand: String) -> String {
    switch subcommand {
    case "doctor":
      """
      Usage: localauthctl doctor [--app ID]

      Explain, in plain words, what the detectors found since localauthd started (or for one app):
      evaluations started again soon after a cancel, two prompts of one client at once, and
      contexts reset and replaced around a cancel. Each finding names both requestIDs, the client
      and the time between them, with the likely cause and the fix.

        --app ID   Only this app id's findings
      """
    case "trace":
      """
      Usage: localauthctl trace [--app ID | --pid PID] [--json]

      Print a client's recent evaluations as a timeline with millisecond offsets: requestID,
      context, queue wait, sensor events, feedback and outcome. With --json, one JSON object per
      evaluation per line: a trace file for `localauthctl replay`.

        --app ID    Only this app id
        --pid PID   Only this process
      """
    default:
      """
      Usage: localauthctl replay TRACE [--passcode DIGITS]

      Script the simulated sensors (replacing what is queued) to answer as they did in the trace
      file TRACE: the same matches, cancels, retries and timings. Then run the app under test; it
      sees the same sequence again. Needs root or the admin group.

      While the replay's answers last, each sensor's default is WAIT, so a capture the trace never
      saw answered waits; after the last one the sensor's own default comes back. Until then a
      plain evaluation uses up the replay's answers: `localauthctl sensors` shows what is still
      queued (QUEUED) and the default (DEFAULT); `localauthctl sim SENSOR DEFAULT MATCH --replace`
      drops the rest.

        --passcode DIGITS   The passcode to type where the trace has a correct passcode entry
      """
    }
  }
}
