import FoundationEssentials
import LocalAuthProtocol

/// A deferred authorization (docs/protocol.md, "Handoffs"; the Siri payment case): a pending
/// request made by a client that cannot prompt, which an interactive client of the same user
/// authorizes later, and which its creator then redeems once for the payload. Value type.
public struct LAHandoff: Sendable, Equatable {
  /// The single-use id.
  public var id: String
  /// What is being authorized, as the creator gave it (nil when the daemon did not say).
  public var payload: Data?
  /// The creating app's id (from `handoff.list`).
  public var appID: String?
  /// When it was created (from `handoff.list`).
  public var createdAt: Date?
  /// When it stops being usable.
  public var expiresAt: Date?
  /// Whether the user has authorized it.
  public var isAuthorized: Bool

  /// A handoff with the given fields.
  public init(
    id: String, payload: Data? = nil, appID: String? = nil, createdAt: Date? = nil,
    expiresAt: Date? = nil,
    isAuthorized: Bool = false
  ) {
    self.id = id
    self.payload = payload
    self.appID = appID
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.isAuthorized = isAuthorized
  }

  /// One element of `handoff.list`.
  public init(_ pending: PendingHandoff) {
    self.init(
      id: pending.handoff, payload: Data(pending.payload), appID: pending.appID,
      createdAt: pending.createdAt.date, expiresAt: pending.expiresAt.date,
      isAuthorized: pending.authorized)
  }
}

/// A `handoff.stateChanged` notification: a handoff of this app changed state (today only to "authorized").
public struct LAHandoffStateChange: Sendable, Equatable {
  /// The handoff's id.
  public var handoff: String
  /// The new state's wire name ("authorized").
  public var state: String

  /// A change.
  public init(handoff: String, state: String) {
    self.handoff = handoff
    self.state = state
  }

  /// Whether the handoff is now authorized and can be redeemed.
  public var isAuthorized: Bool { state == RightStateName.authorized }
}

/// The deferred-authorization calls on a connection (`handoff.*`). Handoffs belong to the user
/// (uid from SO_PEERCRED): any interactive client of that user may list and authorize them; only
/// the creating app redeems. Misuse fails with `RPCError` notFound (unknown or foreign id),
/// `LAError.invalidContext` (expired, reason "expired"; or already redeemed, reason
/// "alreadyRedeemed") and `LAError.authenticationFailed` (not authorized yet, reason "notAuthorized").
/// Value type; usable from any task.
public struct LAHandoffStore: Sendable {
  /// The handoffs on the shared connection.
  public static let shared = LAHandoffStore()

  /// The longest time-to-live the daemon accepts by default, in seconds (one day; `MaxHandoffTTLSec=`).
  public static let maximumTTL = 86_400

  /// The connection the calls go over.
  public let connection: LocalAuthConnection

  /// The handoffs reached over the given connection.
  public init(connection: LocalAuthConnection = .shared) { self.connection = connection }

  /// Creates a pending authorization (`handoff.create {payload, ttl}`); needs no interaction.
  /// `ttl` is in seconds, 1…86400 by default (the daemon's `MinHandoffTTLSec=`…`MaxHandoffTTLSec=`).
  /// Returns the handoff with its id and expiry.
  public func create(payload: Data, ttl: Int) async throws -> LAHandoff {
    let params = HandoffCreateRequest.Params(payload: Array(payload), ttl: ttl)
    let result = try await connection.call(HandoffCreateRequest.self, params)
    return LAHandoff(id: result.handoff, payload: payload, expiresAt: result.expiresAt.date)
  }

  /// This user's live handoffs, authorized or not (`handoff.list`).
  public func list() async throws -> [LAHandoff] {
    let result = try await connection.call(HandoffListRequest.self, NoParams())
    return result.handoffs.map(LAHandoff.init)
  }

  /// Authorizes a handoff by evaluating `policy` with a prompt (`handoff.authorize`); needs an
  /// interactive client (`LAError.notInteractive` otherwise). Cancelling the awaiting task
  /// cancels the prompt (appCancel). Returns the evaluation's request id, when the daemon gave one.
  @discardableResult
  public func authorize(
    _ handoff: String, policy: LAPolicy = .deviceOwnerAuthentication, localizedReason: String
  ) async throws -> String? {
    let params = HandoffAuthorizeRequest.Params(
      handoff: handoff, policy: policy, localizedReason: localizedReason)
    let result = try await connection.callEvaluating(HandoffAuthorizeRequest.method, params.object)
    return try LocalAuthConnection.typed(HandoffAuthorizeRequest.self, result).requestID
  }

  /// Redeems an authorized handoff once (`handoff.redeem`), returning its payload; only the creating app may.
  public func redeem(_ handoff: String) async throws -> Data {
    let result = try await connection.call(HandoffRedeemRequest.self, .init(handoff: handoff))
    return Data(result.payload)
  }

  /// The `handoff.stateChanged` notifications this connection receives (the daemon sends them to
  /// every connection of the creating app). Connects first if needed; the stream ends when that
  /// socket goes away (notifications sent meanwhile are lost; `list()` tells what happened).
  public func stateChanges() throws(ConnectionError) -> AsyncStream<LAHandoffStateChange> {
    try connection.connect()
    let (stream, sink) = AsyncStream.makeStream(of: LAHandoffStateChange.self)
    guard let generation = connection.currentGeneration else {
      sink.finish()
      return stream
    }
    let key = connection.addHandoffWatcher(sink, generation: generation)
    sink.onTermination = { [connection] _ in connection.removeHandoffWatcher(key) }
    // The socket may have gone between connecting and registering: then end at once.
    if connection.currentGeneration != generation {
      connection.removeHandoffWatcher(key)
      sink.finish()
    }
    return stream
  }
}

extension WireTimestamp {
  /// The instant as a Foundation date.
  var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
