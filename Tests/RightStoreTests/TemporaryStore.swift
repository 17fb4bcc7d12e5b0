import Foundation
import RightStore
import RightsStorage

/// A fresh state directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "rightstore-\(UUID().uuidString)"
      ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Opens a new `RightStore` instance on this directory.
  func openStore() throws -> RightStore { try RightStore(directory: path) }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

let alice = Owner(uid: 1000, appID: "com.example.wallet")
let mallory = Owner(uid: 1001, appID: "com.example.wallet")
