import Glibc

/// Reading a small file whole: the one reader of `/proc` files, configuration files and the like.
/// Callable from any thread; it blocks for as long as the file system does.
public enum SmallFile {
  /// The file's bytes (open(2) and read(2) until end of file, retrying EINTR); nil when it cannot
  /// be opened or read, or holds more than `limit` bytes.
  public static func bytes(_ path: String, limit: Int = 64 * 1024) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = close(fd) }
    var bytes: [UInt8] = []
    // Read in pages: the files read here (/proc's cgroup, comm, status) fit in one, and a chunk
    // the size of the limit was zeroed on every call (~33,000 instructions, twice per accepted
    // connection).
    var chunk = [UInt8](repeating: 0, count: min(max(limit, 1) + 1, 4096))
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
      if bytes.count > limit { return nil }
    }
  }

  /// The file's text (UTF-8, invalid sequences replaced); nil as for `bytes(_:limit:)`.
  public static func text(_ path: String, limit: Int = 64 * 1024) -> String? {
    bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
  }
}
