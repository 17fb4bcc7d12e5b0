import LocalAuthCrypto
import LocalAuthProtocol
import RightsStorage

extension Broker {
  /// The domain state an app sees (`context.domainState`, Apple's evaluatedPolicyDomainState):
  /// base64 of 16 bytes, nil while nothing is enrolled. As Apple's, it differs from app to app
  /// (keyed by the client's app id and, when known, its executable), so two apps cannot match
  /// their values to track a user, and it changes with every enrolment change, even one undone
  /// later (an enrolment generation per owner, kept in the rights store across restarts).
  func appDomainState(owner: UInt32, client: ClientSession) -> String? {
    noteEnrolment(owner: owner)
    guard let enrolled = domainStateHash(owner: owner) else { return nil }
    let generation = device.enrolmentGenerations[owner, default: 0]
    let app = "\(client.appID)\u{0}\(client.peer.executable ?? "")"
    let text = "app\u{1}\(owner)\u{1}\(generation)\u{1}\(app)\u{1}\(enrolled)"
    let digest = HMACSHA256.authenticate(Array(text.utf8), key: device.digestKey)
    return Base64.encode(Array(digest.prefix(16)))
  }

  /// Counts a change of `owner`'s enrolled set since the last look (the first look only records
  /// it). Called around every enrolment change the broker makes and before every domain state.
  /// A change is written to the rights store (through the store worker) with the set seen, so
  /// after a restart the count goes on from there: a set that differs from the one last seen
  /// (enrolments made at run time and gone with the restart) counts as one more change.
  func noteEnrolment(owner: UInt32) {
    let current = domainStateHash(owner: owner) ?? ""
    guard let seen = device.observedEnrolments[owner] else {
      device.observedEnrolments[owner] = current
      return
    }
    guard seen != current else { return }
    let generation = device.enrolmentGenerations[owner, default: 0] + 1
    device.enrolmentGenerations[owner] = generation
    device.observedEnrolments[owner] = current
    let record = EnrolmentGenerationRecord(uid: owner, generation: generation, observed: current)
    let log = services.log
    rights.lane.submit { store in
      do {
        try store.saveEnrolmentGeneration(record)
      } catch {
        log.notice("cannot save the enrolment generation of uid \(record.uid): \(error)")
      }
    }
  }

  /// Every owner's enrolment generation and the set it last saw, from the records read at start.
  static func enrolments(from records: [EnrolmentGenerationRecord]) -> (
    generations: [UInt32: Int], observed: [UInt32: String]
  ) {
    var generations: [UInt32: Int] = [:]
    var observed: [UInt32: String] = [:]
    for record in records {
      generations[record.uid] = record.generation
      observed[record.uid] = record.observed
    }
    return (generations, observed)
  }
}
