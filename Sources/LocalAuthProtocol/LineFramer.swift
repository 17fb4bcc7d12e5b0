/// One unit the framer hands on: a complete line, or the notice that a line was too long.
public enum Frame: Sendable, Equatable {
  /// A complete line, without its terminating newline.
  case line([UInt8])
  /// A line longer than the limit was skipped up to its newline.
  case tooLarge
}

/// Splits a byte stream into newline-terminated frames with a size limit (docs/protocol.md,
/// "Transport and framing"). A line over the limit is reported once as `.tooLarge` and its bytes
/// are discarded up to the next newline, so the stream stays usable. Value type; one per
/// connection.
public struct LineFramer: Sendable {
  /// The longest line accepted, in bytes, not counting the newline.
  public let limit: Int
  /// Bytes of an unfinished line.
  public private(set) var pending: [UInt8] = []
  /// Whether the current line overflowed and is being skipped.
  public private(set) var skipping = false

  /// A framer that accepts lines of at most `limit` bytes.
  public init(limit: Int = 64 * 1024) {
    self.limit = limit
  }

  /// Feeds bytes in, calling `emit` for each frame they complete, in order.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (Frame) -> Void) {
    feedViews(bytes) { view in
      switch view {
      case .line(let line): emit(.line(Array(line)))
      case .tooLarge: emit(.tooLarge)
      }
    }
  }

  /// One frame as the framer sees it: a complete line in borrowed memory, valid only during the
  /// call, or the notice that a line was too long.
  public enum FrameView {
    /// A complete line, without its newline; the pointer is valid only inside `emit`.
    case line(UnsafeBufferPointer<UInt8>)
    /// A line longer than the limit was skipped up to its newline.
    case tooLarge
  }

  /// Feeds bytes in like `feed(_:emit:)`, but hands each line over without copying it when it
  /// lies whole in `bytes` (the server's hot path).
  public mutating func feedViews(_ bytes: UnsafeRawBufferPointer, emit: (FrameView) -> Void) {
    let buffer = bytes.bindMemory(to: UInt8.self)
    var start = 0
    while start < buffer.count {
      guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
        let rest = buffer.count - start
        if skipping { return }
        if pending.count + rest > limit {
          pending.removeAll(keepingCapacity: false)
          skipping = true
          emit(.tooLarge)
        } else {
          pending.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        return
      }
      let length = newline - start
      if skipping {
        skipping = false
      } else if pending.count + length > limit {
        pending.removeAll(keepingCapacity: false)
        emit(.tooLarge)
      } else if pending.isEmpty {
        emit(.line(UnsafeBufferPointer(rebasing: buffer[start..<newline])))
      } else {
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<newline]))
        let line = pending
        pending.removeAll(keepingCapacity: false)
        line.withUnsafeBufferPointer { emit(.line($0)) }
      }
      start = newline + 1
    }
  }

  /// Feeds bytes from an array; see `feed(_:emit:)`.
  public mutating func feed(_ bytes: [UInt8], emit: (Frame) -> Void) {
    bytes.withUnsafeBytes { feed($0, emit: emit) }
  }
}
