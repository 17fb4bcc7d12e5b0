import LocalAuthProtocol

/// Text for a notification server: sanitized as every prompt sanitizes a client's words
/// (`PromptText`), and, for the body, escaped for the markup servers read there (the
/// specification's subset of HTML: `<b>`, `<i>`, `<a href>`, `<img>`), so a client's text can
/// neither format nor link.
public enum NotificationMarkup {
  /// The longest summary shown, in scalars.
  public static let maxSummary = 256
  /// The longest body shown, in scalars (before escaping).
  public static let maxBody = 1024

  /// A summary: control characters and bidi overrides made visible, cut to `maxSummary`.
  public static func summary(_ text: String) -> String {
    PromptText.sanitize(text, limit: maxSummary)
  }

  /// A body: sanitized, cut to `maxBody`, then `&`, `<`, `>`, `"` and `'` written as entities.
  public static func body(_ text: String) -> String {
    escaped(PromptText.sanitize(text, limit: maxBody))
  }

  /// The text with the markup's special characters written as entities.
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.append(character)
      }
    }
    return result
  }
}
