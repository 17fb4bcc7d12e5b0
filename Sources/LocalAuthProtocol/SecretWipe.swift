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

  /// A copy of `text` in storage of its own (never a literal's read-only bytes), made without any
  /// intermediate buffer, so that `wipe(_:)` may zero it.
  public static func ownedCopy(of text: String) -> String {
    var text = text
    return text.withUTF8 { source in
      String(unsafeUninitializedCapacity: source.count) { target in
        _ = target.initialize(from: source)
        return source.count
      }
    }
  }

  /// Zeroes the heap storage of `text` in place, for every copy that shares it (a native Swift
  /// string of more than 15 UTF-8 bytes). A small string lives inline in its values, not on the
  /// heap: it cannot be reached from here and is left as it is (docs/limits-and-threat-model.md).
  /// Only for strings this process built at run time (`ownedCopy(of:)`, the JSON parser's): a
  /// literal's bytes are read-only.
  public static func wipe(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      guard let base = buffer.baseAddress, buffer.count > 15 else { return }
      explicit_bzero(UnsafeMutableRawPointer(mutating: base), buffer.count)
    }
  }
}
