import CLocalAuthSystem
import Foundation
import Glibc
import LocalAuthSocket
import Testing

/// The one safe bind the daemon and the SSH agent share (`SocketFile`): a stale socket is replaced,
/// a live one, a file that is not a socket and a directory others may write are refused, and the
/// agent's rule also wants the directory private and already there.
@Suite struct SocketFileTests {
  /// A fresh directory of this user with `mode`, removed by `remove()`.
  struct Directory {
    let path = NSTemporaryDirectory() + "socket-file-\(UUID().uuidString.prefix(8))"

    init(mode: mode_t = 0o700) throws {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      #expect(chmod(path, mode) == 0)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
  }

  /// The file type and permission bits at `path` (not following a link).
  func mode(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode : 0
  }

  @Test(arguments: [SocketFile.DirectoryRule.trustedChain, .privateToUser])
  func aStaleSocketIsReplacedAndGetsItsMode(rule: SocketFile.DirectoryRule) throws {
    let directory = try Directory()
    defer { directory.remove() }
    let path = directory.path + "/s.sock"
    let stale = las_listen_unix(path, 1)
    #expect(stale >= 0)
    close(stale)  // nobody listens now, the file stays
    let fd = try SocketFile.bind(path, mode: 0o600, directory: rule)
    defer { close(fd) }
    #expect(mode(path) & S_IFMT == S_IFSOCK)
    #expect(mode(path) & 0o7777 == 0o600)
    let client = las_connect_unix(path)
    #expect(client >= 0, "the new socket does not accept")
    if client >= 0 { close(client) }
  }

  @Test(arguments: [SocketFile.DirectoryRule.trustedChain, .privateToUser])
  func aLiveSocketIsRefusedAndKeepsServing(rule: SocketFile.DirectoryRule) throws {
    let directory = try Directory()
    defer { directory.remove() }
    let path = directory.path + "/s.sock"
    let live = try SocketFile.bind(path, directory: rule)
    defer { close(live) }
    let error = #expect(throws: SocketBindError.self) {
      try SocketFile.bind(path, directory: rule)
    }
    #expect(error?.errno == EADDRINUSE, "\(String(describing: error))")
    let client = las_connect_unix(path)
    #expect(client >= 0, "the live socket was removed")
    if client >= 0 { close(client) }
  }

  @Test(arguments: [SocketFile.DirectoryRule.trustedChain, .privateToUser])
  func aFileThatIsNotASocketIsRefusedAndLeftAlone(rule: SocketFile.DirectoryRule) throws {
    let directory = try Directory()
    defer { directory.remove() }
    let path = directory.path + "/s.sock"
    try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
    let error = #expect(throws: SocketBindError.self) {
      try SocketFile.bind(path, directory: rule)
    }
    #expect("\(String(describing: error))".contains("not a socket"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test(arguments: [
    (SocketFile.DirectoryRule.trustedChain, 0o777 as mode_t), (.trustedChain, 0o770),
    (.privateToUser, 0o777), (.privateToUser, 0o770), (.privateToUser, 0o755),
  ])
  func aDirectoryOthersMayWriteOrReadIsRefused(rule: SocketFile.DirectoryRule, mode: mode_t)
    throws
  {
    let directory = try Directory(mode: mode)
    defer { directory.remove() }
    let path = directory.path + "/s.sock"
    let error = #expect(throws: SocketBindError.self) {
      try SocketFile.bind(path, directory: rule)
    }
    // Writable by others fails the chain rule first; readable only, the agent's privacy rule.
    let reason = mode & 0o022 != 0 ? "writable by other users" : "must be yours with mode 0700"
    #expect("\(String(describing: error))".contains(reason), "\(String(describing: error))")
    #expect(self.mode(path) == 0, "a socket was made in a directory that was refused")
  }

  @Test func theAgentsRuleWantsTheDirectoryThereAndTheDaemonsMakesIt() throws {
    let directory = try Directory()
    defer { directory.remove() }
    let missing = directory.path + "/missing/s.sock"
    #expect(throws: SocketBindError.self) {
      try SocketFile.bind(missing, directory: .privateToUser)
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/missing"))
    let fd = try SocketFile.bind(missing, directory: .trustedChain)
    close(fd)
    #expect(mode(missing) & S_IFMT == S_IFSOCK)
  }
}
