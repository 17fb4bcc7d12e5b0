import LocalAuthProtocol

/// LineFramer must emit the same frames however the stream is split into reads
/// (swift-nio's ByteToMessageDecoderVerifier idea), and never a line over its limit.
enum FramingProperties {
  /// Small, so fuzz inputs reach the too-large paths.
  static let limit = 48

  /// Checks the framer on `bytes`: all at once, one byte at a time, and split where the first byte says.
  static func check(_ bytes: [UInt8]) {
    let whole = frames(bytes, splits: [])
    for frame in whole {
      if case .line(let line) = frame {
        precondition(line.count <= limit, "framer emitted a line over its limit")
        precondition(!line.contains(0x0A), "framer emitted a line containing a newline")
      }
    }
    guard bytes.count <= 4096 else { return }
    precondition(
      frames(bytes, splits: Array(1..<max(bytes.count, 1))) == whole,
      "byte-at-a-time framing differs")
    if let first = bytes.first, bytes.count > 1 {
      let split = Int(first) % bytes.count
      precondition(frames(bytes, splits: [split]) == whole, "framing split at \(split) differs")
    }
  }

  /// The frames of `bytes` fed in pieces cut at the given offsets.
  static func frames(_ bytes: [UInt8], splits: [Int]) -> [Frame] {
    var framer = LineFramer(limit: limit)
    var out: [Frame] = []
    var start = 0
    for cut in splits + [bytes.count] where cut >= start {
      framer.feed(Array(bytes[start..<cut])) { out.append($0) }
      start = cut
    }
    return out
  }
}
