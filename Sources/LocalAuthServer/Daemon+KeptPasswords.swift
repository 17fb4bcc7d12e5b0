import LocalAuthBroker
import LocalAuthCrypto

extension Daemon {
  /// Gives the broker what keeping login passwords needs (docs/pam.md, "The keyring"): the password
  /// helper's checker and a sealer whose key is drawn now, in locked memory excluded from core
  /// dumps; a restart draws another, so nothing kept survives it. Without locked memory
  /// (LimitMEMLOCK=), nothing is kept, and the journal says so. Given whatever `KeepPasswords=`
  /// says, so that a reload can turn keeping on.
  func keepPasswords(_ configuration: DaemonConfiguration) {
    guard let sealer = BootSealer() else {
      log.notice("no locked memory for a sealing key (LimitMEMLOCK=): login passwords are not kept")
      return
    }
    let services = KeptPasswordServices(
      checker: HelperPasswordChecker(socketPath: configuration.loginPasswordSocket), sealer: sealer)
    broker.assumeIsolated { $0.setKeptPasswordServices(services) }
  }
}
