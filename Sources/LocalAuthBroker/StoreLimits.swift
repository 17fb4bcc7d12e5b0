/// What one uid, and everyone together, may make the rights store hold or do: the `[Broker]` keys of the
/// docs/limits-and-threat-model.md "Limits" table, every one with a default.
public struct StoreLimits: Sendable, Equatable {
  /// MaxStoreRequestsPerUID=: store requests of one uid admitted and not yet answered.
  public var maxRequestsPerUID = 16
  /// MaxStoreRequests=: store requests of everyone admitted and not yet answered.
  public var maxRequests = 256
  /// MaxHandoffsPerUID=: handoffs of one uid that are pending (or expired within the last minutes).
  public var maxHandoffsPerUID = 100
  /// MaxHandoffPayloadBytes=: the largest handoff payload.
  public var maxHandoffPayloadBytes = 16 * 1024
  /// MinHandoffTTLSec=: the shortest handoff lifetime a client may ask for, in seconds.
  public var minHandoffTTLSeconds = 1
  /// MaxHandoffTTLSec=: the longest handoff lifetime a client may ask for, in seconds.
  public var maxHandoffTTLSeconds = 86_400
  /// MaxSavedRightsPerUID=: saved rights of one uid, over all its apps.
  public var maxSavedRightsPerUID = 256
  /// MaxSecretBytes=: the largest secret a saved right may carry.
  public var maxSecretBytes = 32 * 1024
  /// MaxSSHKeysPerUID=: SSH keys of one uid (`localauthctl ssh-key create`).
  public var maxSSHKeysPerUID = 32

  /// The defaults.
  public init() {}

  /// The configuration key that names each limit in refusals (`data.limit`) and in the configuration file.
  public enum Key {
    /// See `maxRequestsPerUID`.
    public static let maxRequestsPerUID = "MaxStoreRequestsPerUID"
    /// See `maxRequests`.
    public static let maxRequests = "MaxStoreRequests"
    /// See `maxHandoffsPerUID`.
    public static let maxHandoffsPerUID = "MaxHandoffsPerUID"
    /// See `maxHandoffPayloadBytes`.
    public static let maxHandoffPayloadBytes = "MaxHandoffPayloadBytes"
    /// See `minHandoffTTLSeconds`.
    public static let minHandoffTTL = "MinHandoffTTLSec"
    /// See `maxHandoffTTLSeconds`.
    public static let maxHandoffTTL = "MaxHandoffTTLSec"
    /// See `maxSavedRightsPerUID`.
    public static let maxSavedRightsPerUID = "MaxSavedRightsPerUID"
    /// See `maxSecretBytes`.
    public static let maxSecretBytes = "MaxSecretBytes"
    /// See `maxSSHKeysPerUID`.
    public static let maxSSHKeysPerUID = "MaxSSHKeysPerUID"
  }
}
