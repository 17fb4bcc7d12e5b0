import Foundation
import Glibc
import RightStore
import RightsStorage
import Testing

/// What the store refuses to open: a state directory someone else could write to, and a database whose
/// device key is gone; and how it reports a damaged database.
@Suite("State directory and device key")
struct StateDirectoryTests {
  @Test("A group- or world-writable state directory is refused, naming the mode")
  func writableDirectoryIsRefused() throws {
    for mode in [0o777, 0o770, 0o702] as [Int] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory.path)
      do {
        _ = try directory.openStore()
        Issue.record("mode 0\(String(mode, radix: 8)) was accepted")
      } catch let error as RightStoreError {
        guard case .unsafeStateDirectory(let detail) = error else {
          Issue.record("expected unsafeStateDirectory, got \(error)")
          continue
        }
        #expect(detail.contains("0\(String(mode, radix: 8))"), "\(detail)")
      }
      #expect(!FileManager.default.fileExists(atPath: directory.path + "/device.key"))
    }
  }

  @Test(
    "A state directory owned by another user is refused, naming the owner",
    .enabled(if: geteuid() == 0, "needs root: only root can give a directory away"))
  func foreignDirectoryIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(chown(directory.path, 65534, 65534) == 0)
    #expect(throws: RightStoreError.self) { _ = try directory.openStore() }
    do {
      _ = try directory.openStore()
    } catch let error as RightStoreError {
      #expect("\(error)".contains("owned by uid 65534"), "\(error)")
    }
  }

  @Test("A deleted device key with sealed rows is refused and explained, never replaced")
  func missingKeyWithRowsIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let keyPath = directory.path + "/device.key"
    let store = try directory.openStore()
    _ = try store.saveRight(
      owner: alice, identifier: "x", requirement: "default", domainStateHash: nil, secret: [1])
    try FileManager.default.removeItem(atPath: keyPath)
    do {
      _ = try directory.openStore()
      Issue.record("a missing device key was silently replaced")
    } catch let error as RightStoreError {
      guard case .deviceKeyMissing(let detail) = error else {
        Issue.record("expected deviceKeyMissing, got \(error)")
        return
      }
      #expect(detail.contains("1 saved right"), "\(detail)")
      #expect(detail.contains("Restore device.key"), "\(detail)")
    }
    #expect(!FileManager.default.fileExists(atPath: keyPath), "a new key was written")
  }

  @Test("A deleted device key over an empty database is simply created again")
  func missingKeyWithoutRowsIsCreated() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.openStore()
    try FileManager.default.removeItem(atPath: directory.path + "/device.key")
    let store = try directory.openStore()
    _ = try store.saveRight(
      owner: alice, identifier: "y", requirement: "default", domainStateHash: nil, secret: nil)
    #expect(FileManager.default.fileExists(atPath: directory.path + "/device.key"))
  }

  @Test("A database file of garbage is reported as corruption")
  func garbageIsCorruption() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
    #expect(
      FileManager.default.createFile(atPath: directory.path + "/rights.sqlite3", contents: garbage))
    do {
      _ = try directory.openStore()
      Issue.record("a garbage database was opened")
    } catch let error as RightStoreError {
      #expect(error.isCorruption, "\(error)")
    }
  }
}
