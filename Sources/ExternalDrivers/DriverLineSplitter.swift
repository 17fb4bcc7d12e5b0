/// Splits a driver's output into lines of at most `limit` bytes (newline excluded). Bytes from a driver are
/// untrusted: a longer line is reported once as overlong and never buffered past the limit.
struct DriverLineSplitter {
  /// What the splitter found in the bytes fed so far.
  enum Piece: Equatable {
    /// A complete line without its newline.
    case line([UInt8])
    /// A line that went past the limit.
    case overlong
  }

  let limit: Int
  private var partial: [UInt8] = []
  private var discarding = false

  init(limit: Int) { self.limit = limit }

  /// Feeds bytes; returns the complete lines (and overlong markers) they finish.
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [Piece] {
    var pieces: [Piece] = []
    for byte in bytes {
      if byte == 0x0A {
        if !discarding { pieces.append(.line(partial)) }
        partial.removeAll(keepingCapacity: true)
        discarding = false
      } else if !discarding {
        if partial.count == limit {
          pieces.append(.overlong)
          partial.removeAll(keepingCapacity: true)
          discarding = true
        } else {
          partial.append(byte)
        }
      }
    }
    return pieces
  }
}
