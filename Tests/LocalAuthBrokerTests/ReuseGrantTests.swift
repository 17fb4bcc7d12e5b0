import LocalAuthProtocol
import Testing

@testable import LocalAuthBroker

/// `ReuseGrant.answers` on its own: which later evaluation a context's biometric success answers
/// without a prompt, as far as the grant says (the broker adds biometry's state and the enrolled set).
@Suite struct ReuseGrantTests {
  static let grant = ReuseGrant(
    at: .seconds(1_000), policy: .deviceOwnerAuthenticationWithBiometrics, owner: 64_131,
    domainState: "d")

  @Test func onlyTheSamePolicyAndOwner() {
    let grant = Self.grant
    #expect(
      grant.answers(
        .deviceOwnerAuthenticationWithBiometrics, owner: 64_131, at: .seconds(1_001), window: 0,
        explicit: true))
    #expect(
      !grant.answers(
        .deviceOwnerAuthentication, owner: 64_131, at: .seconds(1_001), window: 0, explicit: true))
    #expect(
      !grant.answers(
        .deviceOwnerAuthenticationWithBiometrics, owner: 64_132, at: .seconds(1_001), window: 0,
        explicit: true))
  }

  @Test func withinTheWindowWhenOneIsSetElseForAnExplicitContextsLifetime() {
    let grant = Self.grant
    let policy = Policy.deviceOwnerAuthenticationWithBiometrics
    #expect(grant.answers(policy, owner: 64_131, at: .seconds(1_010), window: 10, explicit: false))
    #expect(
      !grant.answers(
        policy, owner: 64_131, at: .seconds(1_010) + .milliseconds(1), window: 10, explicit: true))
    #expect(
      grant.answers(policy, owner: 64_131, at: .seconds(9_999_999), window: 0, explicit: true))
    #expect(!grant.answers(policy, owner: 64_131, at: .seconds(1_000), window: 0, explicit: false))
  }
}
