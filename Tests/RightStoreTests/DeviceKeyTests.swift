import Foundation
import RightStore
import RightsStorage
import Testing

@Suite("Device key file")
struct DeviceKeyTests {
  @Test("A new key file has mode 0600 and 32 bytes, and loads again")
  func createsPrivateFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/device.key"
    _ = try DeviceKey.loadOrCreate(at: path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect((attributes[.size] as? NSNumber)?.intValue == 32)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    _ = try DeviceKey.loadOrCreate(at: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers == ["device.key"])
  }

  @Test("A key readable by group or others is refused with a clear error")
  func refusesOpenPermissions() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/device.key"
    _ = try DeviceKey.loadOrCreate(at: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    #expect(throws: RightStoreError.self) { try DeviceKey.loadOrCreate(at: path) }
    do {
      _ = try RightStore(directory: directory.path)
      Issue.record("a 0644 device key was accepted")
    } catch {
      #expect("\(error)".contains("0644"))
    }
  }

  @Test("A key file of the wrong size is refused")
  func refusesWrongSize() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/device.key"
    #expect(
      FileManager.default.createFile(
        atPath: path, contents: Data(count: 31), attributes: [.posixPermissions: 0o600]))
    #expect(throws: RightStoreError.self) { try DeviceKey.loadOrCreate(at: path) }
  }
}
