import LocalAuthProtocol

/// Makes untrusted text (client names, reasons, titles: anything a client chose) safe to print on a
/// terminal: the prompt agents' one rule (`PromptText.sanitize`), which the desktop prompt shares.
public enum TerminalText {
  /// The text, escaped and cut to `limit` scalars.
  public static func sanitize(_ text: String, limit: Int = 512) -> String {
    PromptText.sanitize(text, limit: limit)
  }
}
