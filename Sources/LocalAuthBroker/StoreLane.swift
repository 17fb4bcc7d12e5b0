import LocalAuthProtocol
import RightsStorage

/// The way to the rights store: the store (nil without a state directory), why it is unavailable
/// when it could not be opened, and the worker thread every store call runs on (SQLite never runs
/// on the event loop). An immutable value any task may carry; the rights book holds it.
struct StoreLane: Sendable {
  /// The persisted rights and handoffs (nil when the daemon runs without a state directory).
  let store: (any RightsStorage)?
  /// Why the store is unavailable although a state directory was given (corrupt, or its device key
  /// missing); nil when it is available or simply not configured.
  let unavailable: String?
  /// Where every store call runs, off the event loop.
  let worker: StoreWorker
  /// Where a store failure that is no client's fault is noted.
  let log: any EvaluationLog

  /// The store, or the error a daemon without a state directory, or with a store it could not
  /// open, answers.
  func checkedStore() throws(RPCError) -> any RightsStorage {
    if let unavailable {
      throw RPCError(
        .internalError, "Rights are unavailable: \(unavailable)",
        data: ["reason": "rightsUnavailable"])
    }
    guard let store else {
      throw RPCError(
        .internalError,
        "The rights store is not available: the daemon runs without a state directory.",
        data: ["reason": "storeUnavailable"])
    }
    return store
  }

  /// Runs a store call on the store's thread, mapping its failures to the wire (`notFound` is the
  /// message of a missing row; it never says whose row it was).
  func run<T: Sendable>(
    notFound: String = StoreFailure.noSuchRight,
    _ body: @escaping @Sendable (any RightsStorage) throws -> T
  ) async throws(RPCError) -> T {
    try await run(mapping: { StoreFailure.error($0, notFound: notFound) }, body)
  }

  /// Runs a store call on the store's thread, mapping its failures with `mapping`; a failure
  /// that maps to internalError is logged.
  func run<T: Sendable>(
    mapping: (any Error) -> RPCError, _ body: @escaping @Sendable (any RightsStorage) throws -> T
  ) async throws(RPCError) -> T {
    let store = try checkedStore()
    do {
      return try await worker.perform { try body(store) }
    } catch {
      throw noted(error, mapping(error))
    }
  }

  /// A store failure as the wire sees it (`StoreFailure.error`), logged when it is no client's
  /// fault.
  func failure(_ error: any Error, notFound: String = StoreFailure.noSuchRight) -> RPCError {
    noted(error, StoreFailure.error(error, notFound: notFound))
  }

  /// Logs a failure that maps to internalError (a failing store, not a client's mistake).
  private func noted(_ error: any Error, _ mapped: RPCError) -> RPCError {
    if mapped.code == .internalError { log.notice("rights store failure: \(error)") }
    return mapped
  }

  /// Queues a write nobody awaits (owner state) on the store's thread; nothing without a store.
  /// Writes run in the order queued.
  func submit(_ change: @escaping @Sendable (any RightsStorage) -> Void) {
    guard let store else { return }
    worker.submit { change(store) }
  }
}
