import FoundationEssentials
import LocalAuthProtocol

/// What an evaluation must prove, with Apple's case names and raw values (LAPolicy).
public typealias LAPolicy = Policy

/// The kind of biometry the device offers (LABiometryType).
public typealias LABiometryType = BiometryType

/// The state of the enrolled identities (LADomainState): its hash changes whenever
/// the set of enrolled identities changes, and is nil while nothing is enrolled.
public struct LADomainState: Sendable, Equatable {
  /// The biometry part of the domain state (LADomainStateBiometry).
  public struct Biometry: Sendable, Equatable {
    /// The hash of the enrolled set, or nil when nothing is enrolled.
    public var stateHash: Data?
  }

  /// The biometry part.
  public var biometry: Biometry
  /// The hash of the whole domain state (the biometry hash in this version).
  public var stateHash: Data? { biometry.stateHash }

  /// Reads a `context.domainState` result `{biometry: {stateHash}}`; the hash is base64 or opaque text.
  init(json: JSONValue) {
    let text = json.objectValue?["biometry"]?.objectValue?["stateHash"]?.stringValue
    biometry = Biometry(stateHash: text.map { Data(base64Encoded: $0) ?? Data($0.utf8) })
  }
}
