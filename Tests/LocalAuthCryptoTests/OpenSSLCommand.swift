import Foundation

/// Runs the `openssl` command-line tool in a private temporary directory, for cross-checking against OpenSSL itself.
struct OpenSSLCommand {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lacrypto-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// Writes `bytes` to `name` in the directory and returns its path.
  func write(_ bytes: [UInt8], to name: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// Runs `openssl arguments…` and returns its exit status and combined output.
  func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let outputURL = directory.appendingPathComponent("output-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    process.standardOutput = output
    process.standardError = output
    try process.run()
    process.waitUntilExit()
    try output.close()
    let text = try String(contentsOf: outputURL, encoding: .utf8)
    return (process.terminationStatus, text)
  }

  /// Removes the temporary directory.
  func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Lowercase hexadecimal of `bytes`.
func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
