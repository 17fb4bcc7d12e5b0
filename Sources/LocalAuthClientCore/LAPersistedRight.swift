import FoundationEssentials
import LocalAuthProtocol
import Synchronization

/// A right kept in the daemon's store with its own key pair and secret (Apple's LAPersistedRight).
/// Obtained from `LARightStore`: `saveRight` returns it authorized when the saved right was
/// (else `unknown`), `right(forIdentifier:)` returns it `unknown` until authorized. The public key
/// needs no authorization and is cached after its first export.
/// Thread-safe. `@unchecked Sendable`: its own state is immutable or behind LARight's Mutex.
public final class LAPersistedRight: LARight, @unchecked Sendable {
  /// The identifier it is saved under.
  public let identifier: String
  /// The right's private key, usable while the right is authorized.
  public var key: LAPrivateKey { LAPrivateKey(right: self) }
  /// The right's secret, readable while the right is authorized.
  public var secret: LASecret { LASecret(right: self) }

  /// The public key once exported (it never changes for a saved right).
  private let publicKeyCache = Mutex<PublicKeyExport?>(nil)

  init(
    handle: JSONValue, identifier: String, requirement: LAAuthenticationRequirement = .default,
    state: State, connection: LocalAuthConnection
  ) {
    self.identifier = identifier
    super.init(handle: handle, requirement: requirement, state: state, connection: connection)
  }

  /// After a reconnect the old handle is gone: load the right again (`rightStore.right`).
  override func makeHandle() async throws -> JSONValue {
    let result = try await connection.call(
      LoadRightRequest.self, LoadRightRequest.Params(identifier: identifier))
    return .string(result.right)
  }

  /// Fetches the public key at once, so later encryption and verification need no round trip.
  override func didAuthorize() async {
    _ = try? await publicKeyExport()
  }

  /// The public key, from the cache or `key.publicKey` (which needs no authorization).
  func publicKeyExport() async throws -> PublicKeyExport {
    if let cached = publicKeyCache.withLock({ $0 }) { return cached }
    let result = try await callWithRight(PublicKeyRequest.self)
    let export = PublicKeyExport(
      x963: Data(result.x963), der: Data(result.der), keyStore: result.keyStore)
    publicKeyCache.withLock { $0 = export }
    return export
  }

  /// Whether the public key is cached (encryption and verification then need no round trip).
  public var hasCachedPublicKey: Bool { publicKeyCache.withLock { $0 != nil } }
}

/// A public key as `key.publicKey` exports it.
struct PublicKeyExport: Sendable, Equatable {
  /// X9.63: 0x04 ‖ X ‖ Y, 65 bytes.
  var x963: Data
  /// DER SubjectPublicKeyInfo.
  var der: Data
  /// Where the private key lives ("tpm" or "file"), nil from a daemon that does not say.
  var keyStore: String?
}
