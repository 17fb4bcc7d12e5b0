import Foundation
import LocalAuthProtocol
import Synchronization

/// What authorizing a right requires (LAAuthenticationRequirement), as sent in `right.create`.
public struct LAAuthenticationRequirement: Sendable, Equatable {
    /// The requirement's name on the wire: default, biometry or biometryCurrentSet.
    public let name: String
    /// The fallback when biometry is not available ("devicePasscode"), if any.
    public let fallback: String?

    /// Biometry or the device passcode.
    public static let `default` = LAAuthenticationRequirement(name: "default", fallback: nil)
    /// Biometry only.
    public static let biometryCurrentSet = LAAuthenticationRequirement(name: "biometryCurrentSet", fallback: nil)
    /// Biometry only, any enrolled set.
    public static let biometry = LAAuthenticationRequirement(name: "biometry", fallback: nil)

    /// Biometry, falling back to the device passcode (LABiometryFallbackRequirement.devicePasscode).
    public static func biometry(fallback: LABiometryFallbackRequirement) -> LAAuthenticationRequirement {
        LAAuthenticationRequirement(name: "biometry", fallback: fallback.name)
    }

    /// The `right.create` params: `{requirement}` plus `fallback` when set.
    var params: JSONObject { ["requirement": .string(name), "fallback": fallback.map(JSONValue.string)] }
}

/// The fallback of a biometry requirement.
public struct LABiometryFallbackRequirement: Sendable, Equatable {
    /// The wire name.
    public let name: String
    /// No fallback.
    public static let none = LABiometryFallbackRequirement(name: "none")
    /// The device passcode.
    public static let devicePasscode = LABiometryFallbackRequirement(name: "devicePasscode")
}

/// A grouped set of requirements that gate access to a resource (Apple's LARight), kept by the daemon.
/// The daemon-side right is made with `right.create` on first use. Thread-safe: all mutable
/// state is behind a Mutex, which is why the open class may be `@unchecked Sendable`.
open class LARight: @unchecked Sendable {
    /// The authorization state (LARight.State).
    public enum State: String, Sendable {
        /// Not known yet.
        case unknown
        /// An authorization is in progress.
        case authorizing
        /// Authorized until deauthorized or the client disconnects.
        case authorized
        /// Not authorized.
        case notAuthorized
    }

    /// The requirement given at creation.
    public let requirement: LAAuthenticationRequirement
    /// The connection the right's calls go over.
    public let connection: LocalAuthConnection
    /// A tag the app may use to tell rights apart.
    public var tag: Int {
        get { mutable.withLock { $0.tag } }
        set { mutable.withLock { $0.tag = newValue } }
    }

    struct Mutable {
        var handle: JSONValue?
        var handleGeneration: Int?
        var state: State = .unknown
        var tag = 0
    }

    let mutable: Mutex<Mutable>

    /// A right with the given requirement on a connection.
    public init(requirement: LAAuthenticationRequirement = .default, connection: LocalAuthConnection = .shared) {
        self.requirement = requirement
        self.connection = connection
        mutable = Mutex(Mutable())
    }

    /// A right whose daemon handle already exists (persisted rights).
    init(handle: JSONValue, connection: LocalAuthConnection) {
        requirement = .default
        self.connection = connection
        mutable = Mutex(Mutable(handle: handle, handleGeneration: connection.currentGeneration))
    }

    deinit {
        let (handle, generation) = mutable.withLock { ($0.handle, $0.handleGeneration) }
        guard let handle, generation != nil, generation == connection.currentGeneration else { return }
        connection.start("right.release", ["right": handle]) { _ in }
    }

    /// The last known state; `refreshState()` asks the daemon.
    public var state: State { mutable.withLock { $0.state } }

    /// The daemon's handle, created with `right.create` when first needed.
    func handle() async throws -> JSONValue {
        if let handle = mutable.withLock({ $0.handle }) { return handle }
        let result = try await connection.call("right.create", requirement.params)
        guard let handle = result.objectValue?["right"] else {
            throw RPCError(.internalError, "right.create answered without a right.")
        }
        let generation = connection.currentGeneration
        return mutable.withLock { mutable in
            if mutable.handle == nil { (mutable.handle, mutable.handleGeneration) = (handle, generation) }
            return mutable.handle!
        }
    }

    /// Calls a right method with `{right, …}`.
    func callWithRight(_ method: String, _ extra: JSONObject = [:]) async throws -> JSONObject {
        var params: JSONObject = ["right": try await handle()]
        params.members.append(contentsOf: extra.members)
        return try await connection.call(method, params).objectValue ?? [:]
    }

    /// Authorizes the right, prompting with `localizedReason` (`right.authorize`). Cancelling the
    /// awaiting task cancels the prompt (appCancel).
    public func authorize(localizedReason: String) async throws {
        let params: JSONObject = ["right": try await handle(), "localizedReason": .string(localizedReason)]
        mutable.withLock { $0.state = .authorizing }
        do {
            _ = try await connection.callEvaluating("right.authorize", params)
            mutable.withLock { $0.state = .authorized }
        } catch {
            mutable.withLock { $0.state = .notAuthorized }
            throw error
        }
    }

    /// Checks, without prompting, whether the right could be authorized (`right.checkCanAuthorize`).
    public func checkCanAuthorize() async throws {
        _ = try await callWithRight("right.checkCanAuthorize")
    }

    /// Gives up the authorization (`right.deauthorize`).
    public func deauthorize() async throws {
        _ = try await callWithRight("right.deauthorize")
        mutable.withLock { $0.state = .notAuthorized }
    }

    /// Asks the daemon for the current state (`right.state`).
    @discardableResult
    public func refreshState() async throws -> State {
        let result = try await callWithRight("right.state")
        let state = result["state"]?.stringValue.flatMap(State.init(rawValue:)) ?? .unknown
        mutable.withLock { $0.state = state }
        return state
    }
}

/// A right kept in the daemon's store with its own key pair and secret (Apple's LAPersistedRight).
/// Obtained from `LARightStore`. Thread-safe.
public final class LAPersistedRight: LARight, @unchecked Sendable {
    /// The identifier it is saved under.
    public let identifier: String
    /// The right's private key, usable while the right is authorized.
    public var key: LAPrivateKey { LAPrivateKey(right: self) }
    /// The right's secret, readable while the right is authorized.
    public var secret: LASecret { LASecret(right: self) }

    init(handle: JSONValue, identifier: String, connection: LocalAuthConnection) {
        self.identifier = identifier
        super.init(handle: handle, connection: connection)
    }
}
