import Foundation
import LocalAuthClient
import Testing

/// `SecAccessControlCreateWithFlags` and what its flags ask of the user (issue 29).
@Suite struct AccessControlTests {
  @Test func theFlagsAndOperationsHaveApplesRawValues() {
    #expect(SecAccessControlCreateFlags.userPresence.rawValue == 1)
    #expect(SecAccessControlCreateFlags.biometryAny.rawValue == 2)
    #expect(SecAccessControlCreateFlags.biometryCurrentSet.rawValue == 8)
    #expect(SecAccessControlCreateFlags.devicePasscode.rawValue == 16)
    #expect(SecAccessControlCreateFlags.or.rawValue == 1 << 14)
    #expect(SecAccessControlCreateFlags.and.rawValue == 1 << 15)
    #expect(SecAccessControlCreateFlags.privateKeyUsage.rawValue == 1 << 30)
    #expect(SecAccessControlCreateFlags.applicationPassword.rawValue == 1 << 31)
    #expect(LAAccessControlOperation.createItem.rawValue == 0)
    #expect(LAAccessControlOperation.useKeyKeyExchange.rawValue == 5)
  }

  @Test func theFlagsMapOntoPolicies() {
    let cases: [(SecAccessControlCreateFlags, [LAPolicy])] = [
      (.biometryAny, [.deviceOwnerAuthenticationWithBiometrics]),
      (.biometryCurrentSet, [.deviceOwnerAuthenticationWithBiometrics]),
      (.userPresence, [.deviceOwnerAuthentication]),
      (.devicePasscode, [.deviceOwnerAuthentication]),
      ([.biometryAny, .or, .devicePasscode], [.deviceOwnerAuthentication]),
      (
        [.biometryAny, .and, .devicePasscode],
        [.deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthentication]
      ),
      (.privateKeyUsage, []),
    ]
    for (flags, policies) in cases {
      #expect(AccessControlRequirement(flags).policies == policies, "flags \(flags.rawValue)")
    }
  }

  @Test func onlyTheCurrentSetFlagBindsTheEnrolledSet() {
    #expect(AccessControlRequirement(.biometryCurrentSet).bindsBiometrySet)
    #expect(!AccessControlRequirement(.biometryAny).bindsBiometrySet)
    #expect(AccessControlRequirement(.applicationPassword).needsApplicationPassword)
  }

  @Test func createWithFlagsReadsAsApplesCall() throws {
    var error: Unmanaged<CFError>?
    let access = try #require(
      SecAccessControlCreateWithFlags(
        nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, &error))
    #expect(error == nil)
    #expect(access.flags == .biometryCurrentSet)
    #expect(access.protection == "aku")
    let refused = SecAccessControlCreateWithFlags(nil, "aku" as NSString, [.or, .and], &error)
    #expect(refused == nil)
    let failure = try #require(error?.takeRetainedValue())
    #expect(failure.domain == NSOSStatusErrorDomain && failure.code == -50)
  }

  @Test func anApplicationPasswordNotSetFailsWithoutAskingTheDaemon() async throws {
    let context = LAContext(connection: LocalAuthConnection(socketPath: "/nonexistent"))
    let access = try #require(
      SecAccessControlCreateWithFlags(
        nil, kSecAttrAccessibleWhenUnlocked, .applicationPassword, nil))
    let error = await #expect(throws: LAError.self) {
      try await context.evaluateAccessControl(access, operation: .useItem, localizedReason: "Open")
    }
    #expect(error?.code == .notInteractive && error?.reason == "applicationPasswordNotSet")
    context.setCredential(Data("secret".utf8), type: .applicationPassword)
    let ok = try await context.evaluateAccessControl(
      access, operation: .useItem, localizedReason: "Open")
    #expect(ok)
  }

  @Test func anUnreachableDaemonIsNeverAnLAErrorCodeHereEither() async throws {
    let context = LAContext(
      connection: LocalAuthConnection(
        socketPath: "/nonexistent/localauthd.sock", identity: ClientIdentity(name: "test")))
    let access = try #require(
      SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, nil))
    do {
      _ = try await context.evaluateAccessControl(
        access, operation: .useItem, localizedReason: "Open")
      Issue.record("evaluated without a daemon")
    } catch {
      let bridged = error as NSError
      #expect(bridged.domain == "localauthd.ConnectionError" && bridged.code == 1)
    }
    let replied = await withCheckedContinuation { continuation in
      context.evaluateAccessControl(access, operation: .useKeySign, localizedReason: "Sign") {
        ok, error in
        continuation.resume(returning: (ok, (error as NSError?)?.code))
      }
    }
    #expect(replied.0 == false && replied.1 == 1)
  }
}
