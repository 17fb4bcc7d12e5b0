import CCryptoShim
import Glibc

/// Bytes of a boot-only secret in a region of their own that is locked in RAM (never swapped) and
/// left out of core dumps (mlock(2), MADV_DONTDUMP), zeroed when wiped and when released. A
/// reference: no copy-on-write leaves a copy behind. Not thread-safe: one owner at a time.
// `@unchecked Sendable`: one owner at a time (the broker's executor) stands in for a lock.
public final class LockedSecret: @unchecked Sendable {
  /// The bytes (`count` of them; the region itself is a whole number of pages).
  public let bytes: UnsafeMutableBufferPointer<UInt8>
  private let regionSize: Int

  /// `count` zero bytes in locked memory, or nil when the kernel refuses to lock them
  /// (RLIMIT_MEMLOCK) or to map them.
  public init?(count: Int) {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let size = max(1, (count + page - 1) / page) * page
    guard count >= 0, let region = cshim_locked_alloc(size) else { return nil }
    regionSize = size
    bytes = UnsafeMutableBufferPointer(
      start: region.bindMemory(to: UInt8.self, capacity: size), count: count)
  }

  /// How many bytes.
  public var count: Int { bytes.count }

  /// Zeroes the bytes.
  public func wipe() {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    explicit_bzero(base, bytes.count)
  }

  deinit { cshim_locked_free(UnsafeMutableRawPointer(bytes.baseAddress), regionSize) }
}
