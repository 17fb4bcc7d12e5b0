import Glibc
import LocalAuthBroker
import SSHAgent
import Synchronization
import SystemFacts

/// The system's known hosts (`SSHKnownHostsFile=`, default `/etc/ssh/ssh_known_hosts`) as the
/// broker's verified host names: a name counts only from a regular file that root owns and no group
/// or other may write, so no process of an ordinary user can put a name in a sign-in prompt. Read
/// again when the file changes (inode, size or modification time), at most
/// `KnownHosts.maxFileBytes`; thread-safe.
public final class KnownHostsFile: HostNameDirectory {
  /// The file's path.
  public let path: String
  private struct Read: Sendable {
    var stamp: [Int] = []
    var text: String? = nil
  }
  // The last read and the stamp it was read at, guarded by the Mutex.
  private let last = Mutex(Read())

  /// The directory over `path`.
  public init(path: String) { self.path = path }

  /// The first readable name `path` gives `hostKeyBlob`, or nil (no such file, not root's, or no
  /// plain name for the key).
  public func verifiedName(for hostKeyBlob: [UInt8]) -> String? {
    guard let text = trustedText() else { return nil }
    return KnownHosts.hostName(for: hostKeyBlob, in: text)
  }

  /// The file's text when root owns it and only root may write it; nil otherwise.
  private func trustedText() -> String? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == 0,
      status.st_mode & (S_IWGRP | S_IWOTH) == 0
    else { return nil }
    let stamp = [
      Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec,
    ]
    if let cached = last.withLock({ $0.stamp == stamp ? $0.text : nil }) { return cached }
    let text = SmallFile.text(path, limit: KnownHosts.maxFileBytes)
    last.withLock { $0 = Read(stamp: stamp, text: text) }
    return text
  }
}
