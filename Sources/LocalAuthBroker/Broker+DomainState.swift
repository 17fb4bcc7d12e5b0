import LocalAuthCrypto
import LocalAuthProtocol

extension Broker {
  /// The domain state an app sees (`context.domainState`, Apple's evaluatedPolicyDomainState):
  /// base64 of 16 bytes, nil while nothing is enrolled. As Apple's, it differs from app to app
  /// (keyed by the client's app id and, when known, its executable), so two apps cannot match
  /// their values to track a user, and it changes with every enrolment change, even one undone
  /// later (an enrolment generation, counted per owner while the daemon runs).
  func appDomainState(owner: UInt32, client: ClientSession) -> String? {
    noteEnrolment(owner: owner)
    guard let enrolled = domainStateHash(owner: owner) else { return nil }
    let generation = enrolmentGenerations[owner, default: 0]
    let app = "\(client.appID)\u{0}\(client.peer.executable ?? "")"
    let text = "app\u{1}\(owner)\u{1}\(generation)\u{1}\(app)\u{1}\(enrolled)"
    let digest = HMACSHA256.authenticate(Array(text.utf8), key: digestKey)
    return Base64.encode(Array(digest.prefix(16)))
  }

  /// Counts a change of `owner`'s enrolled set since the last look (the first look only records
  /// it). Called around every enrolment change the broker makes and before every domain state.
  func noteEnrolment(owner: UInt32) {
    let current = domainStateHash(owner: owner) ?? ""
    if let seen = observedEnrolments[owner], seen != current {
      enrolmentGenerations[owner, default: 0] += 1
    }
    observedEnrolments[owner] = current
  }
}
