import RightsStorage
import Sensors

/// The device's own state: every owner's counters and passcode, the key of domainState digests,
/// where the store keeps its keys, the enrolment generations, the setup owner's account and the SSH
/// keys signed with since start. Lives in the broker actor and is touched only on its executor;
/// what is persisted goes to the store through the broker's store worker.
struct DeviceState {
  /// Every owner's state by uid (loaded once at start from the store) and the passcode work in
  /// flight.
  var owners: OwnerBook
  /// The key of domainState digests: derived from the device key, or random for a run without a
  /// store.
  let digestKey: [UInt8]
  /// Where the store keeps its keys, for `broker.status`; nil without a store.
  let keyStore: KeyStoreStatus?
  /// Per owner: enrolment changes counted (kept in the rights store).
  var enrolmentGenerations: [UInt32: Int]
  /// Per owner: the enrolled set last seen (see `appDomainState`).
  var observedEnrolments: [UInt32: String]
  /// The setup owner's account, looked up once (device mode).
  var setupOwnerAccount: SensorOwner?
  /// The SSH keys signed with since start and their contexts (reuse grants).
  var sshKeys = SSHKeyCache()
}
