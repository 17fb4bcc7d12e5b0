import LocalAuthBroker
import LocalAuthCrypto
import RightsStorage

extension BrokerStorage {
  /// Reads what the broker starts from out of `store` (owners' state, enrolment generations, the
  /// digest key), on the calling thread, before the broker exists. A store that cannot be read
  /// leaves that part empty, said in the log; without a store the digest key is random.
  public static func read(
    from store: (any RightsStorage)?, unavailable: String? = nil, log: any EvaluationLog,
    storeThread: any WorkerThread
  ) -> BrokerStorage {
    guard let store else {
      return BrokerStorage(
        store: nil, unavailable: unavailable, digestKey: SecureRandom.bytes(32),
        storeThread: storeThread)
    }
    var owners: [OwnerStateRecord] = []
    var enrolments: [EnrolmentGenerationRecord] = []
    do {
      owners = try store.ownerStates()
    } catch {
      log.notice("cannot read owners' state: \(error)")
    }
    do {
      enrolments = try store.enrolmentGenerations()
    } catch {
      log.notice("cannot read the enrolment generations: \(error)")
    }
    return BrokerStorage(
      store: store, unavailable: unavailable, owners: owners, enrolmentGenerations: enrolments,
      digestKey: store.digestKey, storeThread: storeThread)
  }
}
