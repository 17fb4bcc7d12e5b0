import Foundation
import LocalAuthProtocol

/// The daemon's store of persisted rights, scoped to this uid and app id (Apple's LARightStore).
/// Value semantics over a connection; usable from any task.
public struct LARightStore: Sendable {
    /// The store on the shared connection.
    public static let shared = LARightStore()

    /// The connection the calls go over.
    public let connection: LocalAuthConnection

    /// The store reached over the given connection.
    public init(connection: LocalAuthConnection = .shared) { self.connection = connection }

    /// The persisted right saved under `identifier` (`rightStore.right`); notFound if there is none.
    public func right(forIdentifier identifier: String) async throws -> LAPersistedRight {
        let result = try await connection.call("rightStore.right", ["identifier": .string(identifier)])
        return try persisted(result, identifier: identifier)
    }

    /// Saves a right under `identifier`, making its key pair (`rightStore.saveRight`).
    public func saveRight(_ right: LARight, identifier: String) async throws -> LAPersistedRight {
        try await save(right, identifier: identifier, secret: nil)
    }

    /// Saves a right with a secret that only unseals while the right is authorized.
    public func saveRight(_ right: LARight, identifier: String, secret: Data) async throws -> LAPersistedRight {
        try await save(right, identifier: identifier, secret: secret)
    }

    private func save(_ right: LARight, identifier: String, secret: Data?) async throws -> LAPersistedRight {
        let params: JSONObject = [
            "right": try await right.handle(), "identifier": .string(identifier),
            "secret": secret.map { .string($0.base64EncodedString()) },
        ]
        let result = try await connection.call("rightStore.saveRight", params)
        if result.objectValue?["right"] != nil { return try persisted(result, identifier: identifier) }
        return try await self.right(forIdentifier: identifier)
    }

    /// Removes a persisted right (`rightStore.removeRight`).
    public func removeRight(_ right: LAPersistedRight) async throws {
        try await removeRight(forIdentifier: right.identifier)
    }

    /// Removes the right saved under `identifier` (`rightStore.removeRight`).
    public func removeRight(forIdentifier identifier: String) async throws {
        _ = try await connection.call("rightStore.removeRight", ["identifier": .string(identifier)])
    }

    /// Removes every right of this app (`rightStore.removeAllRights`).
    public func removeAllRights() async throws {
        _ = try await connection.call("rightStore.removeAllRights")
    }

    private func persisted(_ result: JSONValue, identifier: String) throws -> LAPersistedRight {
        guard let object = result.objectValue, let handle = object["right"] else {
            throw RPCError(.internalError, "The right store answered without a right.")
        }
        return LAPersistedRight(
            handle: handle, identifier: object["identifier"]?.stringValue ?? identifier, connection: connection)
    }
}
