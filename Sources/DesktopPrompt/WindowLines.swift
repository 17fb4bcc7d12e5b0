/// The line protocol between `localauthd-prompt` and its window process
/// (`localauthd-prompt-window`, over a socketpair on the window process's standard input and
/// output): what to show goes in as lines of tab-separated texts, what the person did comes out.
/// Every text sent is a `PromptWindow`'s, already sanitized (no control character: no tab, no
/// newline); a control byte that got there anyway is sent as a space, so a line stays one line.
public enum WindowLines {
  /// The most bytes of a typed secret that cross the pipe: the daemon's limit for a password.
  /// A longer one is announced with its length alone, and refused.
  public static let secretLimit = 512

  /// "window ID TITLE HEADING REQUESTER REASON SIGNING_KEY STATUS CANCEL FALLBACK SECRET": show
  /// window `id` (created and presented the first time) as `window` says; an empty signing key,
  /// fallback title or secret placeholder hides that part.
  public static func show(_ window: PromptWindow, id: UInt) -> [UInt8] {
    let fields = [
      "window", String(id), window.title, window.heading, window.requester, window.reason,
      window.signingKey ?? "", window.status, window.cancelTitle,
      window.showsFallback ? (window.fallbackTitle ?? "") : "",
      window.asksSecret ? window.secret.title : "",
    ]
    return line(fields)
  }

  /// "close ID": destroy window `id`.
  public static func close(id: UInt) -> [UInt8] { line(["close", String(id)]) }

  private static func line(_ fields: [String]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, field) in fields.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: "\t")) }
      bytes.append(contentsOf: field.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 })
    }
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// A line from the window process: what the person did in window `id`.
  public enum Action: Sendable, Equatable {
    /// "cancel ID": Cancel, Escape, or the window manager's close.
    case cancel(id: UInt)
    /// "fallback ID": the fallback button.
    case fallback(id: UInt)
    /// "secret ID LENGTH", then the secret's LENGTH bytes when LENGTH is at most `secretLimit`
    /// (none otherwise): Enter in the secret field.
    case secret(id: UInt, length: Int)
  }

  /// Parses an action line (without its newline); nil when it is none.
  public static func action(_ line: some Collection<UInt8>) -> Action? {
    let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard fields.count >= 2, let id = UInt(fields[1]) else { return nil }
    switch (fields[0], fields.count) {
    case ("cancel", 2): return .cancel(id: id)
    case ("fallback", 2): return .fallback(id: id)
    case ("secret", 3):
      guard let length = Int(fields[2]), length > 0 else { return nil }
      return .secret(id: id, length: length)
    default: return nil
    }
  }
}
