import LocalAuthClient
import LocalAuthProtocol

/// The post-mortem's app: one shared context, "reset" on the cancel path, and a view task that
/// evaluates again at once. Used by one test at a time.
final class SharedContextApp: @unchecked Sendable {
  // Touched only by the test's task.
  private let connection: LocalAuthConnection
  private var shared: LAContext

  init(connection: LocalAuthConnection) {
    self.connection = connection
    shared = LAContext(connection: connection)
  }

  /// Unlocks; on userCancel resets the shared context (`SharedBiometricContext.reset()`) and, as
  /// the re-run `.task` does, evaluates again. Returns the requestIDs of both attempts.
  func unlock() async throws -> (cancelled: String?, again: String?) {
    do {
      _ = try await shared.evaluate(
        .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
      return (nil, nil)
    } catch let error as LAError where error.code == .userCancel {
      shared.invalidate()
      shared = LAContext(connection: connection)
      let again = try await shared.evaluate(
        .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
      return (error.requestID, again.requestID)
    }
  }
}

/// The well-behaved app: one context per request, a re-entry guard, and a cancel that is final.
actor GuardedApp {
  private let connection: LocalAuthConnection
  private var inFlight = false

  init(connection: LocalAuthConnection) { self.connection = connection }

  /// Unlocks once per user action; a second call while one is in flight does nothing (nil).
  func unlock() async -> LAError.Code?? {
    guard !inFlight else { return nil }
    inFlight = true
    defer { inFlight = false }
    let context = LAContext(connection: connection)
    defer { context.invalidate() }
    do {
      _ = try await context.evaluate(
        .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
      return .some(nil)
    } catch let error as LAError {
      return .some(error.code)
    } catch {
      return .some(.authenticationFailed)
    }
  }
}
