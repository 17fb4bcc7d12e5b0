import RightsStorage

/// What the broker is given of its storage at start, as values: the store (or why there is none),
/// what it had saved, and the key of domainState digests. The server reads them
/// (LocalAuthServer's `BrokerStorage.read(from:unavailable:log:)`); the broker itself never reads
/// storage outside the store worker's thread.
public struct BrokerStorage: Sendable {
  /// The rights store, or nil when rights are unavailable.
  public var store: (any RightsStorage)?
  /// Why rights are unavailable, when the store could not be opened.
  public var unavailable: String?
  /// Every owner's saved state.
  public var owners: [OwnerStateRecord]
  /// Every owner's saved enrolment generation.
  public var enrolmentGenerations: [EnrolmentGenerationRecord]
  /// The key of domainState digests: the store's, or a random one for a run without a store.
  public var digestKey: [UInt8]
  /// The rights store's thread.
  public var storeThread: any WorkerThread
  /// Where the store keeps its keys (the TPM or files); nil without a store.
  public var keyStore: KeyStoreStatus? { store?.keyStore }

  /// Storage as read at start.
  public init(
    store: (any RightsStorage)?, unavailable: String? = nil, owners: [OwnerStateRecord] = [],
    enrolmentGenerations: [EnrolmentGenerationRecord] = [], digestKey: [UInt8],
    storeThread: any WorkerThread
  ) {
    self.store = store
    self.unavailable = unavailable
    self.owners = owners
    self.enrolmentGenerations = enrolmentGenerations
    self.digestKey = digestKey
    self.storeThread = storeThread
  }
}
