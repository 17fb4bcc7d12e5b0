import Dispatch
import Foundation
import LocalAuthClient

// Runs every sample against the daemon named by LOCALAUTHD_SOCKET (run.sh starts one in demo
// mode: its face sensor matches after about a second) and exits 1 if any result is wrong.

nonisolated(unsafe) var failures = 0

/// Records one check.
func check(_ condition: Bool, _ what: String) {
  print((condition ? "ok    " : "FAIL  ") + what)
  if !condition { failures += 1 }
}

// LAContext with an NSError pointer and the reply block.
let loggedIn = DispatchSemaphore(value: 0)
nonisolated(unsafe) var logInResult = (false, "")
logIn { success, message in
  logInResult = (success, message)
  loggedIn.signal()
}
loggedIn.wait()
check(
  logInResult.0,
  "LAContext: canEvaluatePolicy(_:error:) then evaluatePolicy(reply:) -> \(logInResult.1)")
check(await unlockVault(with: LAContext()) == "unlocked", "LAContext: async evaluatePolicy")
let context = LAContext()
check(
  context.evaluatedPolicyDomainState == nil,
  "LAContext: evaluatedPolicyDomainState nil before any check")
var error: NSError?
_ = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
check(
  context.evaluatedPolicyDomainState != nil,
  "LAContext: evaluatedPolicyDomainState set after a biometric check")
check(
  context.domainState.biometry.biometryType == .faceID,
  "LAContext: domainState.biometry.biometryType")

// LARight.
let manager = LoginManager()
check(await manager.canLogIn(), "LARight: checkCanAuthorize")
try await manager.logIn()
check(manager.isLoggedIn, "LARight: authorize")
await manager.logOut()
check(!manager.isLoggedIn, "LARight: deauthorize")
let fallback = DispatchSemaphore(value: 0)
nonisolated(unsafe) var fallbackError: (any Error)? = SampleFailure("no answer")
authorizeWithFallback { error in
  fallbackError = error
  fallback.signal()
}
fallback.wait()
check(fallbackError == nil, "LARight: authorize(localizedReason:completion:)")

// LARightStore and LAPersistedRight.
try? await removeSigningRight()
let saved = try await saveSigningRight()
check(
  saved.identifier == signingRightIdentifier, "LARightStore: saveRight of a right never authorized")
let payment = Data("pay 5 EUR to Bob".utf8)
let (signature, publicKey) = try await signPayment(payment)
check(
  await isGenuine(payment, signature: signature, publicKey: publicKey),
  "LAPersistedRight: a genuine signature verifies")
var forged = signature
forged[forged.count - 1] ^= 0x01
check(
  !(await isGenuine(payment, signature: forged, publicKey: publicKey)),
  "LAPublicKey: a forged signature fails verification")
check(
  !(await isGenuine(Data("pay 500 EUR to Mallory".utf8), signature: signature, publicKey: publicKey)),
  "LAPublicKey: a signature over other data fails verification")
check(
  try await roundTripSecretMessage(Data("hello".utf8)) == Data("hello".utf8),
  "LAPublicKey.encrypt / LAPrivateKey.decrypt")
check(try await loadSecret() == Data("sandcastle".utf8), "LASecret.rawData")
try await removeSigningRight()
let gone: Bool
do {
  _ = try await LARightStore.shared.right(forIdentifier: signingRightIdentifier)
  gone = false
} catch {
  gone = true
}
check(gone, "LARightStore: removeRight")

print(failures == 0 ? "all Apple samples passed" : "\(failures) Apple sample check(s) failed")
exit(failures == 0 ? 0 : 1)
