import ExternalDrivers
import Foundation
import LocalAuthConcurrency
import Sensors

/// A temporary directory with driver scripts, an `ExecSensor` over one, and the journal lines it
/// wrote: the exec driver tests' rig (ExternalDriversTests, and the hostile drivers of
/// ProcessFaultTests). `@unchecked Sendable`: set up once in init; `lines` is behind its own lock.
public final class DriverHarness: @unchecked Sendable {
  /// The temporary directory (removed when the harness goes).
  public let directory: String
  private let lines = StateLock<[String]>([])

  /// A fresh directory.
  public init() throws {
    directory = NSTemporaryDirectory() + "localauthd-driver-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// Writes an executable /bin/sh script and returns its path.
  public func script(_ name: String, _ body: String) throws -> String {
    let path = directory + "/" + name
    try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
    chmod(path, 0o755)
    return path
  }

  /// The example driver of Examples/drivers, with its FIFO and state file in the directory. What
  /// the sensor sends it is copied to `received` on the way (`tee`), so a test can wait for a line to
  /// reach the driver (`waitUntilReceived`): the driver itself never says that it waits.
  public var exampleCommand: [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let driver = root.appendingPathComponent("Examples/drivers/virtual-face.py").path
    return [
      "/bin/sh", "-c", #"tee -a "$1" | exec /usr/bin/python3 "$2" --control "$3" --state "$4""#,
      "sh", directory + "/received", driver, directory + "/camera", directory + "/enrolled.json",
    ]
  }

  /// What the sensor has sent the example driver so far.
  public var received: String {
    (try? String(contentsOfFile: directory + "/received", encoding: .utf8)) ?? ""
  }

  /// Waits until a line the sensor sent the example driver satisfies `matches` (e.g. the CAPTURE of
  /// one attempt); whether one did.
  public func waitUntilReceived(_ matches: (Substring) -> Bool) async -> Bool {
    await eventually { received.split(separator: "\n").contains(where: matches) }
  }

  /// Writes a line to the example driver's camera FIFO.
  public func camera(_ line: String) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/camera"))
    try handle.write(contentsOf: Data((line + "\n").utf8))
    try handle.close()
  }

  /// A started sensor over `command`, with short timeouts so failures are found quickly.
  public func sensor(
    _ command: [String], startTimeoutMs: Int = 20_000, hangTimeoutMs: Int = 20_000
  ) -> ExecSensor {
    var settings = ExecDriverSettings(command: command)
    settings.startTimeout = .milliseconds(startTimeoutMs)
    settings.pingInterval = .milliseconds(50)
    settings.hangTimeout = .milliseconds(hangTimeoutMs)
    settings.restartDelay = .milliseconds(10)
    settings.restartMaxDelay = .milliseconds(50)
    let lines = self.lines
    let sensor = ExecSensor(
      name: "face", kind: .faceID, settings: settings,
      log: { line in lines.withLock { $0.append(line) } })
    sensor.start()
    return sensor
  }

  /// The journal lines so far.
  public var journal: [String] { lines.withLock { $0 } }

  /// Alice, the owner most tests capture for.
  public static let alice = SensorOwner(uid: 1000, name: "alice")

  /// A capture request for `owner`.
  public static func request(_ owner: SensorOwner = alice, attempt: Int = 1) -> CaptureRequest {
    CaptureRequest(requestID: "r\(attempt)", attempt: attempt, owner: owner)
  }

  /// The failure a capture threw, or nil when it returned or threw something else.
  public static func failure(of capture: () async throws -> CaptureEvent) async -> SensorFailure? {
    do {
      _ = try await capture()
      return nil
    } catch let failure as SensorFailure {
      return failure
    } catch {
      return nil
    }
  }
}
