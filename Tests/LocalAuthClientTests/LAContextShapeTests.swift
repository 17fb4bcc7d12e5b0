import Foundation
import LocalAuthClient
import Testing

// An app's own extension re-declaring Apple's async evaluatePolicy (open2fa and SwiftKit ship
// it): it builds, because the library declares the member on LAContext itself, and a plain call
// in the app's module picks the app's declaration, as on Apple platforms. fileprivate, so only
// this file sees it.
extension LAContext {
  fileprivate func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool
  {
    localizedReason == "app's own"
  }
}

/// LAContext as Apple declares it: an NSObject with every member its own (issue 29).
@Suite struct LAContextShapeTests {
  @Test func anLAContextIsAnNSObject() {
    let stored: NSObject = LAContext(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    #expect(stored is LAContext)
    #expect(stored.isEqual(stored))
  }

  @Test func anAppsExtensionReDeclaringAsyncEvaluatePolicyIsTheOneCalled() async throws {
    let context = LAContext(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    let answer = try await context.evaluatePolicy(
      .deviceOwnerAuthentication, localizedReason: "app's own")
    #expect(answer)
  }

  /// An app protocol whose reply is `@Sendable`, as Apple's SDK declares it, is matched by
  /// LAContext's method. (A plain reply: see Examples/AppFidelity's BiometricContext.)
  protocol SendableReplyContext {
    func evaluatePolicy(
      _ policy: LAPolicy, localizedReason: String,
      reply: @escaping @Sendable (Bool, Error?) -> Void)
  }

  @Test func anAppProtocolOverLAContextIsWitnessedByItsMethod() async {
    let context: any SendableReplyContext = LAContext(
      connection: LocalAuthConnection(socketPath: "/nonexistent"))
    let failed = await withCheckedContinuation { continuation in
      context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { ok, error in
        continuation.resume(returning: !ok && error != nil)
      }
    }
    #expect(failed)
  }
}

extension LAContext: LAContextShapeTests.SendableReplyContext {}
