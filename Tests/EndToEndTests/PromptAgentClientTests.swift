import Foundation
import LocalAuthClient
import LocalAuthTestSupport
import Testing

/// `LAPromptAgent` against the real daemon: a Swift app as the prompt agent of its user.
@Suite(.serialized)
struct PromptAgentClientTests {
  @Test func aSwiftAgentShowsThePromptAndTypesThePasscode() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let agent = LAPromptAgent(connection: daemon.connection())
    let (registration, events) = try await agent.register()
    #expect(registration.uid == Int(getuid()))
    // The demo face fails twice; Face ID stops trying, the agent takes the fallback, and
    // deviceOwnerAuthentication goes to the passcode (1234).
    try await daemon.script("face", ["NOMATCH", "NOMATCH"])
    let context = LAContext(connection: daemon.connection())
    let evaluation = Task {
      try await context.evaluatePolicy(
        .deviceOwnerAuthentication, localizedReason: "Unlock the vault")
    }
    var seen: [String] = []
    for await event in events {
      switch event {
      case .prompt(let prompt):
        #expect(prompt.localizedReason == "Unlock the vault")
        #expect(prompt.clientName == "client-tests")
        #expect(prompt.sensor == "face")
        seen.append("prompt")
      case .passcodeRequested(let requestID):
        seen.append("passcode")
        try await agent.submitPasscode("9999", for: requestID)
      case .feedback(let requestID, let feedback, _, _, _, let offered):
        if feedback == "awaitingChoice" {
          #expect(offered)
          seen.append("choice")
          try await agent.fallback(requestID)
        }
        if feedback == "wrongPasscode" {
          seen.append("wrong")
          try await agent.submitPasscode("1234", for: requestID)
        }
      case .ended(_, let result):
        seen.append(result)
      }
      if seen.last == "success" || seen.count > 20 { break }
    }
    #expect(seen == ["prompt", "choice", "passcode", "wrong", "success"])
    #expect(try await evaluation.value == true)
  }

  @Test func cancelFromASwiftAgentIsUserCancel() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    defer { daemon.stop() }
    let agent = LAPromptAgent(connection: daemon.connection())
    let (_, events) = try await agent.register(scope: .process(pid: getpid()))
    try await daemon.script("face", ["DEFAULT WAIT"])
    let context = LAContext(connection: daemon.connection())
    let evaluation = Task {
      try await context.evaluatePolicy(
        .deviceOwnerAuthenticationWithBiometrics, localizedReason: "Pay")
    }
    for await event in events {
      if case .prompt(let prompt) = event {
        try await agent.cancel(prompt.requestID)
      }
      if case .ended = event { break }
    }
    do {
      _ = try await evaluation.value
      Issue.record("the evaluation succeeded")
    } catch let error as LAError {
      #expect(error.code == .userCancel)
    }
  }
}
