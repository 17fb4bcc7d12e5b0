import Glibc
import RightStore
import TPMKeys

extension Daemon {
  /// `localauthd --migrate-device-key` (docs/rights-and-keys.md, "Moving the device key into the
  /// TPM"): seals the state directory's device key by the TPM at `[Keys] TCTI=` and removes
  /// `device.key`; the key itself does not change, so everything sealed under it goes on opening.
  /// Root only: the TPM is opened as root, then the process becomes the state directory's owner
  /// (the daemon's user) for every file it touches. Refused with `[Keys] Store=file`, under which
  /// the daemon could no longer start. Answers what it did, as one line.
  public func migrateDeviceKey() throws -> String {
    try Self.checkMayMigrateDeviceKey()
    let keys = configuration.keys
    guard keys.store != .file else {
      throw StartupError(
        "[Keys] Store=file: the daemon would not start with its device key in the TPM; set Store=tpm (or auto) and TCTI= first"
      )
    }
    let directory = options.resolvedStateDirectory
    setenv("TSS2_LOG", "all+NONE", 0)
    let tpm: TPM
    do {
      tpm = try TPM(tcti: keys.tcti)
    } catch {
      throw StartupError("no TPM answers at TCTI=\(keys.tcti): \(error); device.key is kept")
    }
    try Self.becomeOwner(of: directory)
    switch try DeviceKeyMigration.run(directory: directory, tpm: tpm) {
    case .moved:
      return
        "the device key of \(directory) is sealed by the TPM at \(keys.tcti) (\(directory)/device.key.tpm); device.key is removed. Restart localauthd to have it say so; remove old copies of device.key from backups"
    case .alreadyInTPM:
      return "the device key of \(directory) is already sealed by the TPM; nothing to do"
    }
  }

  /// Throws unless the process is root, the one who may run `--migrate-device-key`; checked before
  /// the configuration is read, so anyone else hears that first.
  public static func checkMayMigrateDeviceKey() throws {
    guard geteuid() == 0 else {
      throw StartupError(
        "--migrate-device-key is for root only: run it as root (it works on the state directory as its owner)"
      )
    }
  }

  /// Drops root for the owner of `directory` (its uid and group, no other group: `setgroups`,
  /// `setgid`, `setuid`), so every file is read and made as the daemon does; nothing when root owns
  /// it. The TPM, opened before, stays open.
  private static func becomeOwner(of directory: String) throws {
    var status = stat()
    guard stat(directory, &status) == 0 else {
      throw StartupError("cannot stat \(directory): \(String(cString: strerror(errno)))")
    }
    guard status.st_uid != 0 else { return }
    var group = status.st_gid
    guard setgroups(1, &group) == 0, setgid(status.st_gid) == 0, setuid(status.st_uid) == 0,
      geteuid() == status.st_uid
    else {
      throw StartupError(
        "cannot become uid \(status.st_uid), the owner of \(directory): \(String(cString: strerror(errno)))"
      )
    }
  }
}
