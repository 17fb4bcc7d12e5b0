import CCryptoShim

/// Zeroes the stack below the caller, where the frames of calls that handled a secret were: a
/// secret of at most 15 UTF-8 bytes is a Swift small string, passed by value, so its bytes are
/// copied into those frames and stay there until overwritten.
public enum StackScrub {
  /// Zeroes 32 KiB of stack below the caller's frame.
  public static func scrub() { cshim_scrub_stack(32 * 1024) }
}
