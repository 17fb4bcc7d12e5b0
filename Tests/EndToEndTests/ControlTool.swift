import Foundation
import LocalAuthTestSupport
import Testing

/// What one `localauthctl` run printed and how it exited.
struct ControlToolRun {
  var status: Int32
  var output: String
  var error: String
}

/// Runs the `localauthctl` binary with the arguments (after `--socket PATH` when given) and waits for it.
func runControlTool(_ arguments: [String], socket: String?, in directory: URL? = nil) throws
  -> ControlToolRun
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: try #require(RunningDaemon.controlPath))
  process.arguments = (socket.map { ["--socket", $0] } ?? []) + arguments
  if let directory { process.currentDirectoryURL = directory }
  var environment = ProcessInfo.processInfo.environment
  environment["LOCALAUTHD_SOCKET"] = nil
  process.environment = environment
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorData = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return ControlToolRun(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}

/// Runs a program found on PATH (openssl) and returns its exit status and combined output.
func runProgram(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  try runCapturing("/usr/bin/env", [name] + arguments)
}
