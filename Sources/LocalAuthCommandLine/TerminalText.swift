import LocalAuthProtocol

/// Makes untrusted text (client names, reasons, titles: anything a client chose) safe to print on a
/// terminal: control characters become visible escapes (`PrintableText.escaped`), and so do the
/// bidirectional overrides that could reorder what the person reads; long text is cut. The rule
/// is `DisplayText`'s, shared with the desktop's notifications.
public enum TerminalText {
  /// The text, escaped and cut to `limit` scalars.
  public static func sanitize(_ text: String, limit: Int = 512) -> String {
    DisplayText.sanitize(text, limit: limit)
  }
}
