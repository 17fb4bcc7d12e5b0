import Glibc

/// Overwrites secrets in memory before they are released, with explicit_bzero(3) (which the optimizer
/// never drops).
public enum SecretWipe {
  /// Zeroes every byte of `bytes` and empties it.
  public static func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      explicit_bzero(base, raw.count)
    }
    bytes.removeAll()
  }

  /// A copy of `text` in heap storage of its own (never a literal's read-only bytes, never a small
  /// string's inline bytes: the capacity asked for is at least 32 bytes, so even a short secret
  /// is one native string whose every copy shares that storage), made without any intermediate
  /// buffer, so that `wipe(_:)` zeroes the only place its bytes are.
  public static func ownedCopy(of text: String) -> String {
    var text = text
    return text.withUTF8 { source in
      String(unsafeUninitializedCapacity: max(source.count, 32)) { target in
        _ = target.initialize(from: source)
        return source.count
      }
    }
  }

  /// Zeroes the heap storage of `text` in place, for every copy that shares it (a native Swift
  /// string: every `ownedCopy(of:)`, and the parser's of more than 15 UTF-8 bytes). A small string
  /// lives inline in its values: here only a temporary copy of it is zeroed, so the holder of a
  /// short parsed secret overwrites its own value (the server's request params do). Only for
  /// strings this process built at run time: a literal's bytes are read-only.
  public static func wipe(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
      explicit_bzero(UnsafeMutableRawPointer(mutating: base), buffer.count)
    }
  }
}

/// Bytes of a secret in one allocation of their own, zeroed when wiped and when released: shared by
/// reference, so no copy-on-write ever leaves an unwiped copy behind. Not thread-safe: one owner
/// at a time (it may be handed to another thread, never shared between two at once).
// `@unchecked Sendable`: the rule of one owner at a time stands in for a lock (HelperPasswordChecker
// fills it, hands it to its queue and never touches it again).
public final class SecretBuffer: @unchecked Sendable {
  /// The bytes.
  public let bytes: UnsafeMutableBufferPointer<UInt8>

  /// `count` zero bytes.
  public init(count: Int) {
    bytes = .allocate(capacity: max(1, count))
    bytes.initialize(repeating: 0)
    if count == 0 { explicit_bzero(bytes.baseAddress!, 1) }
  }

  /// Zeroes the bytes (explicit_bzero(3)).
  public func wipe() { explicit_bzero(bytes.baseAddress!, bytes.count) }

  deinit {
    wipe()
    bytes.deallocate()
  }
}
