import Foundation
import LocalAuthClient
import Testing

/// The shapes Apple-style code relies on, checked without a daemon.
@Suite struct AppleShapeTests {
  @Test func anLAErrorBridgesToNSErrorInApplesDomainWithApplesCode() {
    let error = LAError(.biometryLockout, requestID: "r-1")
    let bridged = error.nsError
    #expect(bridged.domain == "com.apple.LocalAuthentication")
    #expect(bridged.domain == LAErrorDomain)
    #expect(LAError.errorDomain == LAErrorDomain)
    #expect(bridged.code == -8)
    #expect(bridged.userInfo["requestID"] as? String == "r-1")
    let cast = error as NSError
    #expect(cast.domain == LAErrorDomain)
    #expect(cast.code == -8)
    #expect((error as any Error).localizedDescription == error.message)
    #expect(error.localizedDescription.contains("locked"))
  }

  @Test func applesInitializerTakesTheDescriptionFromUserInfo() {
    let error = LAError(
      .userCancel, userInfo: [NSLocalizedDescriptionKey: "Cancelled by the test."])
    #expect(error.code == .userCancel)
    #expect(error.localizedDescription == "Cancelled by the test.")
    #expect(LAError(.userCancel, userInfo: [:]).message == LAError(.userCancel).message)
  }

  @Test @available(*, deprecated) func deprecatedAliasesAndShortcutsNameApplesCodes() {
    #expect(LAError.Code.touchIDLockout == .biometryLockout)
    #expect(LAError.Code.touchIDNotAvailable == .biometryNotAvailable)
    #expect(LAError.Code.touchIDNotEnrolled == .biometryNotEnrolled)
    #expect(LAError.Code.watchNotAvailable == .companionNotAvailable)
    #expect(LAError.touchIDLockout == .biometryLockout)
    #expect(LAError.biometryNotPaired.rawValue == -12)
    #expect(LAError.biometryDisconnected.rawValue == -13)
    #expect(LAError.invalidDimensions.rawValue == -14)
    #expect(LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue == 3)
    #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch.rawValue == 4)
    let error: any Error = LAError(.biometryLockout)
    switch error {
    case LAError.touchIDLockout: break
    default: Issue.record("a biometryLockout error must match touchIDLockout")
    }
  }

  @Test func biometryTypesHaveApplesRawValues() {
    #expect(LABiometryType.allCases.map(\.rawValue) == [0, 1, 2, 4])
    #expect(LABiometryType(name: "opticID") == .opticID)
    #expect(LABiometryFallbackRequirement.default == .none)
  }

  @Test func theAlgorithmTypeReadsAsSecKeyAlgorithm() {
    let algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
    #expect(algorithm == LAKeyAlgorithm.ecdsaSignatureMessageX962SHA256)
    #expect(SecKeyKeyExchangeParameter.requestedSize.rawValue == "requestedSize")
  }

  /// A test double, as apps write them: LAContext is open.
  /// No `@unchecked Sendable` to restate: LAContext, like Apple's, is not Sendable.
  final class AlwaysUnavailableContext: LAContext {
    override func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
      error?.pointee = LAError(.biometryNotEnrolled).nsError
      return false
    }
  }

  @Test func aSubclassedContextStandsInForTheRealOne() {
    let context: LAContext = AlwaysUnavailableContext(
      connection: LocalAuthConnection(socketPath: "/nonexistent"))
    var error: NSError?
    #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
    #expect(error?.code == LAError.Code.biometryNotEnrolled.rawValue)
  }
}

/// An unreachable daemon is never an LAError code (issue 29, item 5).
@Suite struct ConnectionErrorCodeTests {
  @Test func anUnreachableDaemonHasAPositiveCodeInItsOwnDomain() {
    let context = LAContext(
      connection: LocalAuthConnection(
        socketPath: "/nonexistent/localauthd.sock", identity: ClientIdentity(name: "test")))
    var error: NSError?
    #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
    #expect(error?.domain == "localauthd.ConnectionError")
    #expect(error?.code == 1)
    // iOS code that maps codes without the domain does not read it as authenticationFailed.
    #expect(error.flatMap { LAError.Code(rawValue: $0.code) } == nil)
    let bridged = ConnectionError(socketPath: "/x", errno: ENOENT) as NSError
    #expect(bridged.code == 1 && bridged.domain == "localauthd.ConnectionError")
  }
}
