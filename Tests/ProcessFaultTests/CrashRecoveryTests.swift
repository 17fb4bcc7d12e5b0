import Foundation
import Glibc
import LocalAuthTestSupport
import RightStore
import RightsStorage
import Testing

@Suite("Crash recovery")
struct CrashRecoveryTests {
  /// The `rightstore-stress` executable, built next to the test bundle.
  static func stressExecutable() throws -> URL {
    var candidates: [URL] = []
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(here.deletingLastPathComponent())
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    var directory = here
    while directory.path != "/" {
      if directory.pathExtension == "xctest" {
        candidates.append(directory.deletingLastPathComponent())
      }
      directory.deleteLastPathComponent()
    }
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    for scratch in [".build-store", ".build"] {
      candidates.append(packageRoot.appendingPathComponent("\(scratch)/debug"))
    }
    for candidate in candidates {
      let binary = candidate.appendingPathComponent("rightstore-stress")
      if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
    }
    throw CocoaError(
      .fileNoSuchFile, userInfo: [NSFilePathErrorKey: "rightstore-stress near \(here.path)"])
  }

  @Test("SIGKILL at random moments loses no acknowledged right and never corrupts the file")
  func killNineLosesNothing() throws {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory() + "rightstore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let executable = try Self.stressExecutable()
    var acknowledged: [String] = []
    for round in 0..<12 {
      let outputPath = directory.path + "/acknowledged-\(round).txt"
      #expect(FileManager.default.createFile(atPath: outputPath, contents: nil))
      let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
      let process = Process()
      process.executableURL = executable
      process.arguments = [directory.path]
      process.standardOutput = output
      try process.run()
      // The sleep is the point: the kill lands at a random moment of the stress run.
      usleep(UInt32.random(in: 50_000...300_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      try output.close()
      #expect(process.terminationReason == .uncaughtSignal)
      let text = try String(contentsOfFile: outputPath, encoding: .utf8)
      var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
      // A line cut off by the kill is not an acknowledgement.
      if !text.isEmpty && !text.hasSuffix("\n") { lines.removeLast() }
      acknowledged += lines
    }
    #expect(acknowledged.count > 0)

    let raw = try RawDatabase(path: directory.path + "/rights.sqlite3")
    #expect(try raw.query("PRAGMA integrity_check") == [["ok"]])
    let store = try RightStore(directory: directory.path)
    let owner = Owner(uid: 4242, appID: "com.example.stress")
    var missing: [String] = []
    for identifier in acknowledged {
      guard let record = try store.right(owner: owner, identifier: identifier) else {
        missing.append(identifier)
        continue
      }
      #expect(try store.secret(for: record) == Array(identifier.utf8))
      let signature = try store.privateKey(for: record).signature(for: [1])
      #expect(record.publicKey.isValidSignature(signature, for: [1]))
    }
    #expect(missing.isEmpty, "acknowledged but missing: \(missing)")
  }
}
