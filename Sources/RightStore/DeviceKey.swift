import Glibc
import LocalAuthCrypto
import RightsStorage

/// The 32-byte key that seals every private key and secret at rest: the simulated Secure Enclave's root key.
/// It lives in one file, mode 0600, owned by the daemon's user, and never leaves the daemon.
public struct DeviceKey: Sendable {
  /// The key's length in bytes.
  public static let byteCount = 32

  /// The raw key bytes.
  let bytes: [UInt8]

  /// Loads the key at `path`, or creates it if there is no file there.
  ///
  /// Creation writes 32 random bytes to a fresh temporary file (O_EXCL, mode 0600), fsyncs it, then publishes it
  /// atomically with link(2) (a rename that never replaces a key another process published first), and fsyncs the
  /// directory. A file of the wrong size, not a regular file, owned by another user, or with any group/other
  /// permission bit is refused.
  public static func loadOrCreate(at path: String) throws -> DeviceKey {
    for _ in 0..<3 {
      if let key = try load(at: path) { return key }
      try create(at: path)
    }
    throw RightStoreError.deviceKey("\(path) keeps disappearing while being created")
  }

  /// Whether anything (even a dangling link) is at `path`.
  static func exists(at path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 || errno != ENOENT
  }

  /// Reads and checks an existing key file; returns nil if there is none.
  private static func load(at path: String) throws -> DeviceKey? {
    guard let bytes = try readPrivateFile(at: path, sizes: byteCount...byteCount) else {
      return nil
    }
    return DeviceKey(bytes: bytes)
  }

  /// Reads a file only this process's user may read (regular, mode 0600 or stricter, owned by the
  /// effective uid) whose size is in `sizes`; nil if there is none.
  static func readPrivateFile(at path: String, sizes: ClosedRange<Int>) throws -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw RightStoreError.deviceKey("cannot open \(path): \(systemError())")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw RightStoreError.deviceKey("fstat \(path): \(systemError())")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw RightStoreError.deviceKey("\(path) is not a regular file")
    }
    let permissions = status.st_mode & 0o777
    guard permissions & 0o077 == 0 else {
      throw RightStoreError.deviceKey(
        "\(path) has mode 0\(String(permissions, radix: 8)); it must not be accessible to group or others (use 0600)"
      )
    }
    guard status.st_uid == geteuid() else {
      throw RightStoreError.deviceKey(
        "\(path) is owned by uid \(status.st_uid), not by this process (\(geteuid()))")
    }
    guard sizes.contains(Int(status.st_size)) else {
      let expected =
        sizes.count == 1 ? "exactly \(sizes.lowerBound)" : "\(sizes.lowerBound)…\(sizes.upperBound)"
      throw RightStoreError.deviceKey("\(path) is \(status.st_size) bytes; it must be \(expected)")
    }
    let size = Int(status.st_size)
    var bytes = [UInt8](repeating: 0, count: size)
    let count = read(descriptor, &bytes, size)
    guard count == size else {
      throw RightStoreError.deviceKey("short read of \(path): \(systemError())")
    }
    return bytes
  }

  /// Writes a new random key to a temporary file and links it into place unless a key appeared meanwhile.
  private static func create(at path: String) throws {
    try publishPrivateFile(SecureRandom.bytes(byteCount), at: path)
  }

  /// Writes `bytes` to a fresh temporary file (O_EXCL, mode 0600), fsyncs it and links it into place
  /// at `path` unless a file appeared there meanwhile (then that one stays), and fsyncs the directory.
  static func publishPrivateFile(_ bytes: [UInt8], at path: String) throws {
    let temporary =
      "\(path).tmp-\(getpid())-\(SecureRandom.bytes(6).map { String($0, radix: 16) }.joined())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RightStoreError.deviceKey("cannot create \(temporary): \(systemError())")
    }
    defer { unlink(temporary) }
    let written = write(descriptor, bytes, bytes.count)
    let synced = fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
    let closed = close(descriptor) == 0
    guard written == bytes.count, synced, closed else {
      throw RightStoreError.deviceKey("cannot write \(temporary): \(systemError())")
    }
    if link(temporary, path) != 0 && errno != EEXIST {
      throw RightStoreError.deviceKey("cannot publish \(path): \(systemError())")
    }
    syncDirectory(containing: path)
  }

  /// fsyncs the directory holding `path` so the new directory entry survives a crash.
  static func syncDirectory(containing path: String) {
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let descriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }
}

/// The current `errno` as text (strerror).
func systemError() -> String { String(cString: strerror(errno)) }
