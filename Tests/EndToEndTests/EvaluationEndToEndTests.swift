import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Synchronization
import Testing

/// LAContext against the real daemon: racing evaluations, cancel, non-interactive clients.
@Suite(.serialized)
struct EvaluationEndToEndTests {
  @Test func twoEvaluationsFromOneAppGetOneContextEachAndAreQueued() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection()
    let (firstContext, secondContext) = (
      LAContext(connection: connection), LAContext(connection: connection)
    )
    let first = firstContext.startEvaluation(.deviceOwnerAuthentication, localizedReason: "one")
    let second = secondContext.startEvaluation(.deviceOwnerAuthentication, localizedReason: "two")
    let firstSuccess = try await first.outcome
    let secondSuccess = try await second.outcome
    #expect(firstSuccess.requestID != secondSuccess.requestID)
    #expect(firstSuccess.sensor == "face" && secondSuccess.sensor == "face")
    var firstEvents: [LAEvaluationEvent] = []
    for await event in first.events { firstEvents.append(event) }
    var secondEvents: [LAEvaluationEvent] = []
    for await event in second.events { secondEvents.append(event) }
    // Whichever reached the broker second waited in the queue; each saw only its own events.
    let queued = [firstEvents, secondEvents].filter {
      $0.first.map { if case .queued(_, 1) = $0 { true } else { false } } ?? false
    }
    #expect(queued.count == 1)
    #expect(firstEvents.allSatisfy { $0.requestID == firstSuccess.requestID })
    #expect(secondEvents.allSatisfy { $0.requestID == secondSuccess.requestID })
    #expect(
      firstEvents.contains(
        .started(requestID: firstSuccess.requestID, policy: .deviceOwnerAuthentication)))
    #expect(
      secondEvents.contains(
        .started(requestID: secondSuccess.requestID, policy: .deviceOwnerAuthentication)))
    withExtendedLifetime((firstContext, secondContext)) {}
  }

  @Test func aBusyExplicitContextRefusesASecondEvaluationAtOnce() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    // The first prompt waits until the test lets it match, however slow the machine is.
    try await daemon.script("face", ["DEFAULT WAIT"])
    let context = LAContext(connection: daemon.connection())
    let first = context.startEvaluation(.deviceOwnerAuthentication, localizedReason: "first")
    let started = await firstEvent(of: first)
    guard case .started? = started else {
      Issue.record("expected the first evaluation to start, got \(String(describing: started))")
      return
    }
    let refused = await #expect(throws: RPCError.self) {
      try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "second")
    }
    #expect(refused?.code == .alreadyInProgress)
    try await daemon.script("face", ["MATCH"])
    #expect(try await first.outcome.requestID == started?.requestID)
  }

  @Test func cancelDeliversAppCancelExactlyOnceWithTheRequestID() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let context = LAContext(connection: daemon.connection())
    let replies = Mutex<[String]>([])
    let replied = Mutex<(any Error)?>(nil)
    let evaluation = context.startEvaluation(
      .deviceOwnerAuthenticationWithBiometrics, localizedReason: "cancel me")
    guard case .started(let requestID, _)? = await firstEvent(of: evaluation) else {
      Issue.record("the evaluation did not start")
      return
    }
    let waiter = Task {
      do { _ = try await evaluation.outcome } catch {
        replies.withLock { $0.append("\(error)") }
        replied.withLock { $0 = error }
      }
    }
    evaluation.cancel()
    evaluation.cancel()
    await waiter.value
    // The sleep is the point: a second reply, which must never come, has time to arrive.
    try await Task.sleep(for: .milliseconds(200))
    #expect(replies.withLock { $0.count } == 1)
    let error = try #require(replied.withLock { $0 } as? LAError)
    #expect(error.code == .appCancel)
    #expect(error.requestID == requestID)
    #expect(evaluation.requestID == requestID)
  }

  @Test func theCompletionHandlerFormRepliesOnce() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let connection = daemon.connection()
    let context = LAContext(connection: connection)
    let replies = Mutex<[String]>([])
    context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "reply") {
      success, error in
      replies.withLock { $0.append("\(success) \((error as? LAError)?.code.name ?? "-")") }
    }
    #expect(
      try await eventually {
        try await LocalAuthDaemon(connection: connection).status().evaluating == 1
      }, "the evaluation to run")
    context.invalidate()
    #expect(await eventually { replies.withLock { !$0.isEmpty } }, "the reply")
    // The sleep is the point: a second reply, which must never come, has time to arrive.
    try await Task.sleep(for: .milliseconds(200))
    #expect(replies.withLock { $0 } == ["false appCancel"])
    #expect(throws: LAError(.invalidContext)) {
      try context.canEvaluatePolicy(.deviceOwnerAuthentication)
    }
    let later = await #expect(throws: LAError.self) {
      try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "after")
    }
    #expect(later?.code == .invalidContext)
  }

  @Test func aDroppedContextLivesUntilItsReplyAsApplesDoes() async throws {
    // Apple's own sample evaluates on a local `let context = LAContext()` with the reply form.
    let daemon = try RunningDaemon()
    try daemon.start()
    // The face matches after 2 s: the context below is dropped long before.
    try await daemon.script("face", ["SLEEP 2000", "MATCH"])
    let connection = daemon.connection()
    let replies = Mutex<[String]>([])
    do {
      let context = LAContext(connection: connection)
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "dropped") {
        success, error in
        replies.withLock {
          $0.append(
            success ? "success" : (error as? LAError)?.code.name ?? "\(String(describing: error))")
        }
      }
      #expect(
        try await eventually {
          try await LocalAuthDaemon(connection: connection).status().evaluating == 1
        }, "the evaluation to run")
    }
    #expect(await eventually { replies.withLock { !$0.isEmpty } }, "the reply")
    #expect(replies.withLock { $0 } == ["success"])
  }

  @Test func cancellingTheAwaitingTaskEndsWithAppCancel() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT WAIT"])
    let connection = daemon.connection()
    let context = LAContext(connection: connection)
    let task = Task {
      try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "task")
    }
    #expect(
      try await eventually {
        try await LocalAuthDaemon(connection: connection).status().evaluating == 1
      }, "the evaluation to run")
    task.cancel()
    let error = await #expect(throws: LAError.self) { try await task.value }
    #expect(error?.code == .appCancel)
    #expect(error?.requestID != nil)
    // Cancelled at once, before any notification told the client the requestID: cancel by JSON-RPC id.
    let early = Task {
      try await LAContext(connection: connection).evaluatePolicy(
        .deviceOwnerAuthentication, localizedReason: "early")
    }
    early.cancel()
    let earlyError = await #expect(throws: LAError.self) { try await early.value }
    #expect(earlyError?.code == .appCancel)
    #expect(
      try await eventually {
        let status = try await LocalAuthDaemon(connection: connection).status()
        return status.evaluating == 0 && status.queued == 0
      }, "nothing left running")
  }

  @Test func aNonInteractiveClientGetsNotInteractive() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let background = LAContext(connection: daemon.connection(interactive: false))
    let error = await #expect(throws: LAError.self) {
      try await background.evaluatePolicy(
        .deviceOwnerAuthentication, localizedReason: "from an extension")
    }
    #expect(error?.code == .notInteractive)
    #expect(error?.requestID != nil)
    let context = LAContext(connection: daemon.connection())
    context.interactionNotAllowed = true
    await #expect(throws: LAError.self) {
      _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "no UI")
    }
  }

  @Test func manyContextsShareOneConnection() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    let connection = daemon.connection()
    let ids = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<4 {
        group.addTask {
          try await LAContext(connection: connection).evaluate(
            .deviceOwnerAuthentication, localizedReason: "n\(index)"
          )
          .requestID
        }
      }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(ids.count == 4)
    let status = try await LocalAuthDaemon(connection: connection).status()
    #expect(status.outcomes["success"] == 4)
  }

  @Test func canEvaluatePolicyAndDomainStateFollowEnrollment() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    let connection = daemon.connection()
    let context = LAContext(connection: connection)
    // As Apple's: nil until a biometric check or evaluation succeeded on this context.
    #expect(context.evaluatedPolicyDomainState == nil)
    var error: NSError?
    #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
    #expect(error == nil)
    #expect(context.biometryType == .faceID)
    #expect(context.biometryType.rawValue == 2)
    let before = context.domainState.biometry.stateHash
    #expect(before != nil)
    #expect(context.domainState.biometry.biometryType == .faceID)
    #expect(context.evaluatedPolicyDomainState == before)
    try await LocalAuthDaemon(connection: connection).unenroll(
      sensor: "face", identity: "demo-user")
    #expect(throws: LAError(.biometryNotEnrolled)) {
      do { try context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics) } catch var error
        as LAError
      {
        error.requestID = nil
        error.reason = nil
        throw error
      }
    }
    #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
    #expect(error?.domain == LAErrorDomain)
    #expect(error?.code == LAError.Code.biometryNotEnrolled.rawValue)
    #expect(context.domainState.biometry.stateHash == nil)
    try await LocalAuthDaemon(connection: connection).enroll(
      sensor: "face", identity: "someone-else")
    #expect(context.domainState.biometry.stateHash != before)
  }
}
