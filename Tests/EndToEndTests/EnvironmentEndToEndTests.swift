import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Synchronization
import Testing

/// LAEnvironment against the real daemon: the state, and observers fed by its notifications.
@Suite(.serialized)
struct EnvironmentEndToEndTests {
  /// Records every change it is told about.
  final class Recorder: LAEnvironmentObserver, Sendable {
    let changes = Mutex<[(old: LAEnvironmentState, new: LAEnvironmentState)]>([])
    func environment(
      _ environment: LAEnvironment, stateDidChangeFromOldState oldState: LAEnvironmentState
    ) {
      let new = environment.state
      changes.withLock { $0.append((oldState, new)) }
    }
  }

  @Test func theStateShowsTheDemoMechanisms() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let state = LAEnvironment(connection: daemon.connection()).state
    #expect(state.biometry?.biometryType == .faceID)
    #expect(state.biometry?.isEnrolled == true)
    #expect(state.biometry?.isUsable == true)
    #expect(state.biometry?.stateHash.isEmpty == false)
    #expect(state.userPassword?.isSet == true)
    #expect(state.allMechanisms.count == 2 + state.companions.count)
  }

  @Test func observersHearOfAnUnenrollmentUntilRemoved() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection()
    let environment = LAEnvironment(connection: connection)
    let recorder = Recorder()
    environment.addObserver(recorder)
    #expect(
      await eventually {
        environment.state.biometry?.isEnrolled == true
      }, "the environment to be followed")
    try await LocalAuthDaemon(connection: connection).unenroll(
      sensor: "face", identity: "demo-user")
    #expect(
      await eventually {
        recorder.changes.withLock { !$0.isEmpty }
      }, "the unenrollment to be observed")
    let change = try #require(recorder.changes.withLock { $0.first })
    #expect(change.old.biometry?.isEnrolled == true)
    #expect(change.new.biometry?.isEnrolled == false)
    #expect(change.new.biometry?.isUsable == false)

    environment.removeObserver(recorder)
    try await LocalAuthDaemon(connection: connection).enroll(sensor: "face", identity: "demo-user")
    // Not followed any more: the state is read afresh, and the recorder hears nothing.
    #expect(environment.state.biometry?.isEnrolled == true)
    #expect(recorder.changes.withLock { $0.count } == 1)
  }

  /// Counts the cooperative threads a test holds.
  final class Holders: Sendable {
    let count = Mutex(0)
  }

  /// Apple's observers hear of a change on the environment's own queue; these on its own thread,
  /// so a change is heard while every cooperative thread is blocked (an app in a synchronous call).
  @Test func observersHearOfAChangeWhileEveryCooperativeThreadIsBlocked() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection()
    let environment = LAEnvironment(connection: connection)
    let recorder = Recorder()
    environment.addObserver(recorder)
    defer { environment.removeObserver(recorder) }
    let heard: @Sendable () -> Bool = { recorder.changes.withLock { !$0.isEmpty } }
    let holders = Holders()
    let others = ProcessInfo.processInfo.activeProcessorCount - 1
    for _ in 0..<others {
      Task.detached {
        holders.count.withLock { $0 += 1 }
        _ = eventually(blocking: .milliseconds(10), heard)
      }
    }
    _ = eventually(blocking: .milliseconds(1)) { holders.count.withLock { $0 } == others }
    // This thread blocks too: only the observer thread can hear the change now.
    _ = try connection.callAndWait(
      UnenrollRequest.self, EnrollmentParams(sensor: "face", identity: "demo-user"))
    #expect(eventually(blocking: .milliseconds(10), heard), "the unenrollment to be observed")
    #expect(recorder.changes.withLock { $0.first?.new.biometry?.isEnrolled } == false)
  }
}
