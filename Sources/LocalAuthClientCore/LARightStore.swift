import FoundationEssentials
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

  /// The persisted right saved under `identifier` (`rightStore.right`), in state `unknown` until
  /// authorized; ``LARightStoreError`` `errSecItemNotFound` if there is none.
  public func right(forIdentifier identifier: String) async throws -> LAPersistedRight {
    let connection = self.connection
    let result = try await LARightStoreError.mapping(.notFound) {
      try await connection.call(LoadRightRequest.self, .init(identifier: identifier))
    }
    return try persisted(result, identifier: identifier, requirement: .default, state: .unknown)
  }

  /// Saves a right under `identifier`, making its key pair (`rightStore.saveRight`). As Apple's,
  /// the right need not be authorized: a right authorized now is saved authorized, any other
  /// starts `unknown` and must be authorized before its private key or secret can be used.
  ///
  /// - Parameters:
  ///   - right: The right to save (its requirement is kept).
  ///   - identifier: A unique identifier for the right within this app.
  /// - Returns: The persisted right.
  /// - Throws: ``LARightStoreError`` `errSecDuplicateItem` when the identifier is taken.
  ///
  /// ```swift
  /// let right = LARight()
  /// let persisted = try await LARightStore.shared.saveRight(right, identifier: "com.example.login")
  /// try await persisted.authorize(localizedReason: "Sign in")
  /// ```
  public func saveRight(_ right: LARight, identifier: String) async throws -> LAPersistedRight {
    try await save(right, identifier: identifier, secret: nil)
  }

  /// Saves a right with a secret that only unseals while the right is authorized.
  public func saveRight(_ right: LARight, identifier: String, secret: Data) async throws
    -> LAPersistedRight
  {
    try await save(right, identifier: identifier, secret: secret)
  }

  private func save(_ right: LARight, identifier: String, secret: Data?) async throws
    -> LAPersistedRight
  {
    let params = SaveRightRequest.Params(
      right: try await right.handle(), identifier: identifier, secret: secret.map(Array.init))
    let connection = self.connection
    let result = try await LARightStoreError.mapping(.alreadyExists) {
      try await connection.call(SaveRightRequest.self, params)
    }
    // A right the user has just authorized is saved authorized by the daemon; any other starts unknown.
    let saved = try persisted(
      result, identifier: identifier, requirement: right.requirement,
      state: right.state == .authorized ? .authorized : .unknown)
    await saved.didAuthorize()
    return saved
  }

  /// Removes a persisted right (`rightStore.removeRight`); ``LARightStoreError``
  /// `errSecItemNotFound` if there is none.
  public func removeRight(_ right: LAPersistedRight) async throws {
    try await removeRight(forIdentifier: right.identifier)
  }

  /// Removes the right saved under `identifier` (`rightStore.removeRight`); ``LARightStoreError``
  /// `errSecItemNotFound` if there is none.
  public func removeRight(forIdentifier identifier: String) async throws {
    let connection = self.connection
    _ = try await LARightStoreError.mapping(.notFound) {
      try await connection.call(RemoveRightRequest.self, .init(identifier: identifier))
    }
  }

  /// Removes every right of this app (`rightStore.removeAllRights`); returns how many were removed.
  @discardableResult
  public func removeAllRights() async throws -> Int {
    try await connection.call(RemoveAllRightsRequest.self, NoParams()).removed
  }

  private func persisted(
    _ result: StoredRightResult, identifier: String, requirement: LAAuthenticationRequirement,
    state: LARight.State
  ) throws -> LAPersistedRight {
    LAPersistedRight(
      handle: .string(result.right), identifier: result.identifier,
      requirement: requirement,
      state: state, connection: connection)
  }
}

/// The completion-handler forms of LARightStore, as Apple declares them. Each handler runs once,
/// on an arbitrary thread.
extension LARightStore {
  /// Fetches the right saved under `identifier`.
  @preconcurrency
  public func right(
    forIdentifier identifier: String,
    completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
  ) {
    complete(handler) { try await right(forIdentifier: identifier) }
  }

  /// Saves `right` under `identifier`.
  @preconcurrency
  public func saveRight(
    _ right: LARight, identifier: String,
    completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
  ) {
    complete(handler) { try await saveRight(right, identifier: identifier) }
  }

  /// Saves `right` under `identifier` with a secret.
  @preconcurrency
  public func saveRight(
    _ right: LARight, identifier: String, secret: Data,
    completion handler: @escaping @Sendable (LAPersistedRight?, (any Error)?) -> Void
  ) {
    complete(handler) { try await saveRight(right, identifier: identifier, secret: secret) }
  }

  /// Removes a persisted right.
  @preconcurrency
  public func removeRight(
    _ right: LAPersistedRight, completion handler: @escaping @Sendable ((any Error)?) -> Void
  ) {
    complete(handler) { try await removeRight(right) }
  }

  /// Removes the right saved under `identifier`.
  @preconcurrency
  public func removeRight(
    forIdentifier identifier: String, completion handler: @escaping @Sendable ((any Error)?) -> Void
  ) {
    complete(handler) { try await removeRight(forIdentifier: identifier) }
  }

  /// Removes every right of this app.
  @preconcurrency
  public func removeAllRights(completion handler: @escaping @Sendable ((any Error)?) -> Void) {
    complete(handler) { _ = try await removeAllRights() }
  }
}
