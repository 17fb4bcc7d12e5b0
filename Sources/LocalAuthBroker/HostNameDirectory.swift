/// Verified names of SSH host keys as the broker sees them: names from a source no process of an
/// ordinary user can write (the system's `ssh_known_hosts`, owned by root). Injected, as
/// `AccountDirectory`, so the broker does no I/O: the daemon passes `KnownHostsFile`
/// (LocalAuthServer). Called on the broker's executor, so an implementation answers from memory or
/// from a bounded read.
public protocol HostNameDirectory: Sendable {
  /// The verified name of the host whose key is `hostKeyBlob` (SSH wire encoding), or nil.
  func verifiedName(for hostKeyBlob: [UInt8]) -> String?
}

/// No verified names: every host is named by its fingerprint, and a caller's name is shown as
/// unverified.
public struct NoVerifiedHostNames: HostNameDirectory {
  /// The empty directory.
  public init() {}
  /// Always nil.
  public func verifiedName(for hostKeyBlob: [UInt8]) -> String? { nil }
}
