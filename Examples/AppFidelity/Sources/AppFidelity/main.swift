import LocalAuthentication
import OwnAsyncEvaluate

// Runs the app code against the daemon named by LOCALAUTHD_SOCKET (run.sh starts one in demo
// mode: its face sensor matches after about a second, passcode 1234) and exits 1 when any check
// fails. The same code is built in Swift 5 and in Swift 6 language mode.

nonisolated(unsafe) var failures = 0

/// Records one check.
func check(_ condition: Bool, _ what: String) {
  print((condition ? "ok    " : "FAIL  ") + what)
  if !condition { failures += 1 }
}

// Compile-time Apple shapes, checked at run time too.
check(LARight.State.authorized.rawValue == 2, "LARight.State raw values are Apple's Ints")
check(
  LARight.State(rawValue: 0) == .unknown && LARight.State(rawValue: 3) == .notAuthorized,
  "LARight.State(rawValue:) 0 and 3")
check(Int(kLAErrorUserCancel) == LAError.Code.userCancel.rawValue, "kLAErrorUserCancel")
check(Int(kLAErrorBiometryLockout) == LAError.biometryLockout.rawValue, "kLAErrorBiometryLockout")
let cancel = LAError(.userCancel)
check(Set([cancel, LAError(.userCancel), LAError(.appCancel)]).count == 2, "LAError is Hashable")
check(
  cancel.userInfo[NSLocalizedDescriptionKey] as? String == cancel.localizedDescription,
  "LAError.userInfo holds the localized description")
let bridged = LAError(_nsError: NSError(domain: LAErrorDomain, code: Int(kLAErrorAppCancel)))
check(bridged.code == .appCancel, "LAError(_nsError:)")
let someError: any Error = LAError(.userCancel)
check(
  (someError as NSError).code == -2 && someError.localizedDescription == cancel.message,
  "any Error holding an LAError: code -2 and the daemon's message")
let id = UUID()
check(!id.uuidString.isEmpty, "Foundation comes with the import (UUID, Data, DispatchQueue)")

// The helper and the continuation wrapper.
check(BiometricHelper.biometricType() == .faceID, "helper: biometricType() is faceID")
check(BiometricHelper.canUseBiometrics(), "helper: canUseBiometrics()")
check(
  (try? await BiometricHelper.authenticate(reason: "Log in")) == true,
  "helper: continuation wrapper over evaluatePolicy(reply:)")

// The @MainActor view model.
let viewModel = AuthViewModel()
viewModel.checkBiometry()
check(viewModel.biometryName == "Face ID", "view model: biometry name")
await viewModel.authenticate()
check(viewModel.isUnlocked, "view model: async evaluatePolicy unlocks")
let replied = DispatchSemaphore(value: 0)
viewModel.authenticateWithReply { replied.signal() }
await Task.detached { replied.wait() }.value
check(viewModel.isUnlocked, "view model: reply block hops to the main queue")

// The lock screen, with the real context and with test doubles.
let lockScreen = LockScreenViewModel()
lockScreen.prepare()
check(lockScreen.biometryIcon == "faceid", "lock screen: Face ID icon")
await lockScreen.unlock()
check(lockScreen.state == .unlocked, "lock screen: unlocks")
let cancelling = LockScreenViewModel {
  let mock = MockLAContext()
  mock.evaluateError = LAError(.userCancel)
  return mock
}
await cancelling.unlock()
check(cancelling.state == .locked, "test double: userCancel leaves the screen locked")
let touchScreen = LockScreenViewModel { TouchIDStubContext() }
touchScreen.prepare()
check(touchScreen.biometryIcon == "touchid", "test double: override var biometryType")
let mock = MockLAContext()
mock.canEvaluateResult = false
mock.canEvaluateError = LAError(.biometryNotEnrolled).nsError
check(
  laErrorCode(from: mock, policy: .deviceOwnerAuthenticationWithBiometrics)
    == .biometryNotEnrolled, "test double: override canEvaluatePolicy(_:error:)")

// Apple's documentation snippets against the daemon.
let context = LAContext()
configureReuse(context)
check(
  context.touchIDAuthenticationAllowableReuseDuration == 300 && context.localizedReason != "",
  "LATouchIDAuthenticationMaximumAllowableReuseDuration and localizedReason")
check(warmUp(context) == .faceID, "@discardableResult canEvaluatePolicy(_:error:)")
check(context.setCredential(Data("hunter2".utf8), type: .applicationPassword), "setCredential")
check(context.isCredentialSet(.applicationPassword), "isCredentialSet(.applicationPassword)")
context.setCredential(nil, type: .applicationPassword)
check(!context.isCredentialSet(.applicationPassword), "setCredential(nil) clears it")
let invalidated = LAContext()
invalidated.invalidate()
check(
  laErrorCode(from: invalidated, policy: .deviceOwnerAuthentication) == .invalidContext,
  "error as? LAError on canEvaluatePolicy's NSError")
let caught = await nsErrorCode(evaluating: .deviceOwnerAuthentication, on: invalidated)
check(
  caught?.0 == LAErrorDomain && caught?.1 == Int(kLAErrorInvalidContext),
  "catch let error as NSError on a thrown LAError")
let (biometryPart, companionPart) = domainParts(LAContext())
check(
  biometryPart.biometryType == .faceID && companionPart.availableCompanionTypes.isEmpty,
  "LADomainStateBiometry / LADomainStateCompanion")
let mechanisms = describeMechanisms(LAEnvironment.currentUser.state)
check(mechanisms.contains("Face ID enrolled=true"), "LAEnvironment.State mechanisms: \(mechanisms)")
let observer = BiometryStatusObserver()
LAEnvironment.currentUser.addObserver(observer)
LAEnvironment.currentUser.removeObserver(observer)
check(observer.changes == 0, "LAEnvironment.Observer (an NSObject, not Sendable) registers")

// Documented behaviours.
check(
  (try? await logInTwice(with: LAContext())) == true,
  "a context that succeeded succeeds again without a new capture")
let stateContext = LAContext()
stateContext.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
check(
  stateContext.evaluatedPolicyDomainState?.count == 16,
  "evaluatedPolicyDomainState decodes to the daemon's 16 bytes")
let watch = EnrollmentWatch()
_ = watch.biometryChanged()
let broker = LocalAuthDaemon(connection: .shared)
_ = try await broker.enroll(sensor: "face", identity: "second-face")
_ = try await broker.unenroll(sensor: "face", identity: "second-face")
check(watch.biometryChanged(), "domain state differs after an enrolment added then removed")
do {
  _ = try await LARightStore.shared.right(forIdentifier: "com.example.never-saved")
  check(false, "LARightStore: a right never saved is not found")
} catch let error as NSError {
  // Apple documents no code here; localauthd answers with the keychain's errSecItemNotFound.
  check(
    error.domain == NSOSStatusErrorDomain && error.code == Int(errSecItemNotFound)
      && error.localizedDescription.contains("No persisted right"),
    "LARightStore not found: \(error.domain) \(error.code) \(error.localizedDescription)")
}
do {
  let identifier = "com.example.fidelity-\(UUID().uuidString)"
  _ = try await LARightStore.shared.saveRight(LARight(), identifier: identifier)
  do {
    _ = try await LARightStore.shared.saveRight(LARight(), identifier: identifier)
    check(false, "LARightStore: saveRight over a taken identifier fails")
  } catch let error as NSError {
    check(
      error.domain == NSOSStatusErrorDomain && error.code == Int(errSecDuplicateItem),
      "LARightStore already exists: \(error.domain) \(error.code) \(error.localizedDescription)")
  }
  try await LARightStore.shared.removeRight(forIdentifier: identifier)
}

// Apple's LAPolicy page: after two failed Face ID attempts the system offers the fallback and
// stops trying with Face ID. The person's press of the fallback button is scripted here.
_ = try await broker.script(
  sensor: "face", commands: ["NOMATCH", "NOMATCH", "FALLBACK"], replace: true)
do {
  _ = try await BiometricHelper.authenticate(reason: "Log in")
  check(false, "Face ID: two failed attempts, then the fallback button")
} catch BiometricError.userFallback {
  check(true, "Face ID: two failed attempts, then the fallback button gives userFallback")
} catch {
  check(false, "Face ID: two failed attempts, then the fallback button: \(error)")
}
_ = try await broker.script(
  sensor: "face", commands: ["NOMATCH", "NOMATCH", "MATCH"], replace: true)
do {
  _ = try await BiometricHelper.authenticate(reason: "Log in")
  check(false, "Face ID stops trying after two failed attempts (a third face is not looked at)")
} catch BiometricError.authenticationFailed {
  let left = try await broker.sensors().first { $0.name == "face" }?.queuedCommands
  check(left == 1, "Face ID stops trying after two failed attempts (a third face is not looked at)")
} catch {
  check(false, "Face ID stops trying after two failed attempts: \(error)")
}
_ = try await broker.script(sensor: "face", commands: [], replace: true)

// Issue 29's Apple-fidelity samples: a non-Sendable class capturing self in the reply, an app
// protocol over LAContext, an app's own async evaluatePolicy, LAContext as NSObject, a spy with
// a plain-reply override, and keychain-style access controls.
let controller = UnlockController()
await withCheckedContinuation { done in controller.unlock { done.resume() } }
check(controller.isUnlocked, "a non-Sendable class capturing self in the reply block")
let signedIn = await withCheckedContinuation { done in
  signIn(with: LAContext()) { done.resume(returning: $0) }
}
check(signedIn, "an app protocol over LAContext, witnessed by LAContext's own methods")
let fake = FakeBiometricContext()
fake.answer = false
let fakeSignedIn = await withCheckedContinuation { done in
  signIn(with: fake) { done.resume(returning: $0) }
}
check(!fakeSignedIn, "the app protocol's fake stands in for LAContext")
check(
  (try? await logInWithOwnAsyncEvaluate(LAContext())) == true,
  "an app's own extension LAContext with Apple's async evaluatePolicy")
let sessions = SessionContexts()
let first = sessions.context(for: "alice")
check(
  first != nil && sessions.context(for: "alice") === first && sessions.count == 1,
  "LAContext stored as NSObject and cast back")
sessions.end("alice")
check(sessions.count == 0, "an LAContext held as NSObject is invalidated and dropped")
let spy = SpyLAContext()
_ = await withCheckedContinuation { done in signIn(with: spy) { done.resume(returning: $0) } }
check(spy.calls == 1, "a subclass overriding the reply form with a plain closure is called")

let anyBiometry = try makeAccessControl(.biometryAny)
check(await unlockItem(anyBiometry), "evaluateAccessControl(.biometryAny) on a face match")
_ = try await broker.script(sensor: "face", commands: ["NOMATCH", "NOMATCH"], replace: true)
check(!(await unlockItem(anyBiometry)), "evaluateAccessControl(.biometryAny) fails on no match")
_ = try await broker.script(sensor: "face", commands: [], replace: true)
let presence = try makeAccessControl(.userPresence)
let presenceOutcome = await withCheckedContinuation { done in
  unlockItem(presence, context: LAContext()) { ok, error in done.resume(returning: ok) }
}
check(presenceOutcome, "evaluateAccessControl(.userPresence) with the reply block")
let nothingToProve = try makeAccessControl(.privateKeyUsage)
check(await unlockItem(nothingToProve), "an access control with no user constraint succeeds")
do {
  _ = try makeAccessControl([.or, .and])
  check(false, "SecAccessControlCreateWithFlags refuses .or with .and")
} catch let error as AccessControlUnavailable {
  let code = (error.underlying as NSError?)?.code
  check(code == Int(errSecParam), "SecAccessControlCreateWithFlags refuses .or with .and")
}
let currentSet = try makeAccessControl(.biometryCurrentSet)
check(await unlockItem(currentSet), "evaluateAccessControl(.biometryCurrentSet) binds the set")
check(await unlockItem(currentSet), "…and succeeds again while the set is unchanged")
_ = try await broker.enroll(sensor: "face", identity: "third-face")
do {
  _ = try await LAContext().evaluateAccessControl(
    currentSet, operation: .useItem, localizedReason: "Read")
  check(false, "evaluateAccessControl(.biometryCurrentSet) fails after an enrolment change")
} catch let error as LAError {
  check(
    error.code == .authenticationFailed && error.reason == "biometrySetChanged",
    "evaluateAccessControl(.biometryCurrentSet) fails after an enrolment change")
}
_ = try await broker.unenroll(sensor: "face", identity: "third-face")
check(
  await unlockItem(try makeAccessControl(.biometryCurrentSet)),
  "a new .biometryCurrentSet access control binds the set enrolled now")

print(failures == 0 ? "all app fidelity checks passed" : "\(failures) app fidelity check(s) failed")
exit(failures == 0 ? 0 : 1)
