import Glibc
import RightStore
import RightsStorage
import TPMKeys

extension Daemon {
  /// The key store `[Keys]` asks for: `Store=file` the device key file; `Store=tpm` the TPM at
  /// `TCTI=`, none answering a start-up error naming it; `Store=auto` the TPM when one answers,
  /// else the file key, logged.
  func chooseKeyStore() throws -> KeyStoreChoice {
    let keys = configuration.keys
    if keys.store == .file { return .file }
    // tss2 logs its own warnings to stderr; the daemon words every TPM failure itself.
    setenv("TSS2_LOG", "all+NONE", 0)
    do {
      return .tpm(try TPM(tcti: keys.tcti))
    } catch {
      if keys.store == .tpm {
        throw StartupError(
          "[Keys] Store=tpm, but no TPM answers at TCTI=\(keys.tcti): \(error). Set TCTI= to the TPM's TCTI, or Store=auto to fall back to the device key file"
        )
      }
      log.notice(
        "[Keys] Store=auto: no TPM answers at TCTI=\(keys.tcti) (\(error)); keys are sealed with the device key file"
      )
      return .file
    }
  }

  /// Where keys live, as the start entry and `status` say it: `tpm (TCTI, device key sealed by
  /// the TPM)`, `tpm (TCTI, device key in its file)`, or `file`; and why keys are unavailable.
  static func keyStoreSummary(_ status: KeyStoreStatus?) -> String {
    guard let status else { return "none (no rights store)" }
    var text = status.newKeys.rawValue
    if let tcti = status.tcti {
      let deviceKey =
        status.deviceKey == .tpm
        ? "device key sealed by the TPM" : "device key in its file"
      text += " (\(tcti), \(deviceKey))"
    }
    if let unavailable = status.unavailable { text += "; keys unavailable: \(unavailable)" }
    return text
  }
}
