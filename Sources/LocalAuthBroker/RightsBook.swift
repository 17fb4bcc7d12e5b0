import LocalAuthProtocol
import RightsStorage

/// The rights, keys and handoffs of every client (docs/rights-and-keys.md): the right handles each
/// connection holds (at most `MaxRightsPerConnection`) and their authorization state, the lane to
/// the rights store and the store requests admitted to it per uid. A value the broker owns and uses
/// on its executor only. It answers with values and typed errors and sends nothing: the broker
/// tells clients of the state changes it returns, and starts the evaluations it asks for.
struct RightsBook {
  /// The way to the rights store (its thread, or why there is none).
  let lane: StoreLane
  /// Store requests admitted and not yet answered.
  private(set) var backlog = StoreBacklog()
  /// Every connected client's rights, by client number and handle.
  private var handles: [Int: [String: AuthRight]] = [:]

  /// A book with no rights over the given lane.
  init(lane: StoreLane) { self.lane = lane }

  // MARK: Handles

  /// The client's own right with this handle; notFound for any other (another client's looks the
  /// same).
  func right(_ id: String, of client: Int) throws(RPCError) -> AuthRight {
    guard let right = handles[client]?[id] else {
      throw RPCError(.notFound, "No such right: \(id).", data: ["field": "right"])
    }
    return right
  }

  /// Every right the client holds.
  func rights(of client: Int) -> [AuthRight] { handles[client].map { Array($0.values) } ?? [] }

  /// How many rights the client holds.
  func count(of client: Int) -> Int { handles[client]?.count ?? 0 }

  /// The clients that hold rights, by number.
  var holders: [Int] { Array(handles.keys) }

  /// Registers a new handle for the client, or refuses it past `limit` (MaxRightsPerConnection).
  mutating func register(_ right: AuthRight, for client: Int, limit: Int) throws(RPCError) {
    guard count(of: client) < limit else {
      throw .limit(
        "MaxRightsPerConnection", limit,
        "too many rights on this connection; release some with right.release")
    }
    handles[client, default: [:]][right.id] = right
  }

  /// Forgets one handle (`right.release`, after its deauthorization).
  mutating func forget(_ id: String, of client: Int) {
    handles[client]?[id] = nil
    if handles[client]?.isEmpty == true { handles[client] = nil }
  }

  /// A client disconnected: every right it held is deauthorized (without a word: nobody listens)
  /// and forgotten. Its evaluations have already ended.
  mutating func dropAll(of client: Int) {
    for right in rights(of: client) { right.drop() }
    handles[client] = nil
  }

  // MARK: Store admission

  /// Admits one store request of `uid`, or refuses it with queueFull naming the limit it hit
  /// (`data.reason` "storeBusy", `data.limit` the configuration key, `data.max` its value).
  /// Nothing is queued for a refused request.
  mutating func admit(uid: UInt32, limits: StoreLimits) throws(RPCError) {
    guard let refusal = backlog.admit(uid: uid, limits: limits) else { return }
    let whose =
      refusal.key == StoreLimits.Key.maxRequestsPerUID ? "for this user" : "for all users together"
    throw RPCError(
      .queueFull,
      "The rights store is busy: \(refusal.limit) requests \(whose) are already waiting "
        + "(\(refusal.key)); retry after some are answered.",
      data: ["reason": "storeBusy", "limit": .string(refusal.key), "max": .int(refusal.limit)])
  }

  /// Admits the last step of work already admitted (marking a handoff authorized after its
  /// prompt): never refused as busy, still counted.
  mutating func admitFollowUp(uid: UInt32, limits: StoreLimits) {
    _ = backlog.admit(uid: uid, limits: limits, force: true)
  }

  /// Ends one admitted store request of `uid`.
  mutating func release(uid: UInt32) { backlog.release(uid: uid) }
}
