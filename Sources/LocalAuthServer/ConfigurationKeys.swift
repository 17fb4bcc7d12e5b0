/// The keys `localauthd.conf` knows, per section: the one list the parser accepts and the
/// docs/configuration.md and `localauthd.conf(5)` are checked against. A key added to the parser goes here too
/// (the parser refuses any key not listed).
public enum ConfigurationKeys {
  /// The keys of `[Broker]`.
  public static let broker: [String] = [
    "Overlap",
    "MaxQueue",
    "MaxQueuePerClient",
    "MaxQueuePerUID",
    "MaxContextsPerConnection",
    "MaxRightsPerConnection",
    "MaxTextBytes",
    "MaxPendingPerConnection",
    "MaxConnectionsPerUID",
    "MaxStoreRequestsPerUID",
    "MaxStoreRequests",
    "MaxHandoffsPerUID",
    "MaxHandoffPayloadBytes",
    "MinHandoffTTLSec",
    "MaxHandoffTTLSec",
    "MaxSavedRightsPerUID",
    "MaxSecretBytes",
    "MaxSSHKeysPerUID",
    "RequireAppIDBinding",
    "CloseGrantsOnLock",
    "PromptTimeoutSec",
    "MaxBiometricAttempts",
    "LockoutThreshold",
    "PasscodeDelayFromFailure",
    "FrameLimit",
    "OutputHighWater",
    "OutputLimit",
    "AdminGroup",
    "ExitOnIdleSec",
    "Owners",
    "SetupOwner",
    "MaxAgentsPerUser",
    "SSHKnownHostsFile",
  ]

  /// The keys of `[Diagnostics]`: the re-prompt detectors and evaluation traces.
  public static let diagnostics: [String] = [
    "RepromptDetector",
    "OverlapDetector",
    "ChurnDetector",
    "RepromptWindowMs",
    "ChurnWindowMs",
    "QuietApps",
    "TracePerClient",
    "TraceTotal",
    "TraceEventsPerEvaluation",
    "FindingsKept",
  ]

  /// The keys of every `[Sensor.NAME]` section.
  public static let sensor: [String] = [
    "Kind",
    "Available",
    "Removable",
    "Enrolled",
    "Script",
    "Default",
    "DefaultDelayMs",
    "Passcode",
    "Biometry",
    "Exec",
    "StartTimeoutMs",
    "PingIntervalMs",
    "HangTimeoutMs",
    "RestartDelayMs",
    "RestartMaxDelayMs",
    "Socket",
  ]

  /// The keys of `[Keys]`: where keys are made and kept (the TPM or files).
  public static let keys: [String] = ["Store", "TCTI"]

  /// The keys of `[Login]`: login passwords kept for a login by presence (issue 33).
  public static let login: [String] = [
    "KeepPasswords", "ReleasePasswordTo", "KeptPasswordMaxAgeSec", "DropPasswordAtLogout",
    "PasswordSocket",
  ]

  /// The keys of every `[AppID.ID]` section.
  public static let appID: [String] = ["Executable"]
}
