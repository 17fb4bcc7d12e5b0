import LocalAuthProtocol

/// A method's answer: a result now, or nil when it comes later through the responder.
typealias MethodAnswer = BrokerAnswer?

/// How the broker answers one method: the request type's params in, its answer out. Routes
/// exist only for `RequestType`s, so a method without a type has no route; `Broker.routes` is
/// checked against `MethodRegistry` by a test. Value type, immutable.
struct MethodRoute: Sendable {
  /// Decodes nothing itself: wraps the params object in the type's `Params` and calls the handler.
  typealias Body =
    @Sendable (
      isolated Broker, JSONObject, RPCRequest, ClientSession, () -> any Responder
    ) throws(RPCError) -> MethodAnswer

  /// The method's wire name.
  let method: String
  /// The handler.
  let body: Body

  /// A method answered at once with its result.
  static func answer<R: RequestType>(
    _: R.Type,
    _ handler:
      @escaping @Sendable (isolated Broker, R.Params, ClientSession) throws(RPCError)
      -> R.Result
  ) -> MethodRoute {
    MethodRoute(method: R.method) {
      (broker: isolated Broker, object, _, client, _) throws(RPCError) -> MethodAnswer in
      .success(try handler(broker, R.Params(object: object), client))
    }
  }

  /// A method whose answer may come later (evaluations, store work): the handler gets the
  /// request (for its id) and the responder maker, and returns nil when it will respond.
  static func deferred<R: RequestType>(
    _: R.Type,
    _ handler:
      @escaping @Sendable (
        isolated Broker, R.Params, RPCRequest, ClientSession, () -> any Responder
      ) throws(RPCError) -> MethodAnswer
  ) -> MethodRoute {
    MethodRoute(method: R.method) {
      (broker: isolated Broker, object, request, client, makeResponder) throws(RPCError)
        -> MethodAnswer in
      try handler(broker, R.Params(object: object), request, client, makeResponder)
    }
  }
}

extension MethodRoute {
  /// A method answered once its store work is done, off the loop: admitted as a store request
  /// (`answerAfterStore`), answered later through the responder.
  static func afterStore<R: RequestType>(
    _: R.Type,
    _ work:
      @escaping @Sendable (Broker, R.Params, ClientSession) async throws(RPCError) -> R.Result
  ) -> MethodRoute {
    .deferred(R.self) { (broker, params, _, client, makeResponder) throws(RPCError) in
      try broker.answerAfterStore(client, makeResponder) {
        () async throws(RPCError) -> any MethodResult in
        try await work(broker, params, client)
      }
    }
  }
}

/// The routes by wire name, bucketed by the name's length in UTF-8 bytes: a lookup reads the
/// name's length and compares it with the few names of that length, which costs less than
/// hashing it (the request path's budget is docs/performance.md's). Immutable once built.
struct RouteTable: Sendable {
  private let buckets: [[MethodRoute]]

  /// A table of these routes; traps on two routes for one name.
  init(_ routes: [MethodRoute]) {
    var buckets: [[MethodRoute]] = []
    for route in routes {
      let length = route.method.utf8.count
      while buckets.count <= length { buckets.append([]) }
      precondition(
        !buckets[length].contains { $0.method == route.method }, "two routes for \(route.method)")
      buckets[length].append(route)
    }
    self.buckets = buckets
  }

  /// The route of this method, if there is one.
  func route(_ method: String) -> MethodRoute? {
    let length = method.utf8.count
    guard length < buckets.count else { return nil }
    for route in buckets[length] where route.method == method { return route }
    return nil
  }

  /// Every routed method name.
  var methods: [String] { buckets.flatMap { $0.map(\.method) } }
}

extension Broker {
  /// Every method the broker answers: the routes of each area, built once.
  static let routes = RouteTable(
    sessionRoutes + administrationRoutes + diagnosticsRoutes + agentRoutes + rightsRoutes
      + sshKeyRoutes + loginPasswordRoutes)

  /// The wire names of the methods the broker answers (for the registry test).
  public static var routedMethods: [String] { routes.methods }

  /// Handles one request from a client: returns the answer now, or nil when it comes later
  /// through the responder `makeResponder` gives (evaluations). Call on the broker's executor.
  public func handle(
    _ request: RPCRequest, from client: ClientSession, makeResponder: () -> any Responder
  ) -> BrokerAnswer? {
    guard let route = Self.routes.route(request.method) else {
      return .failure(
        RPCError(
          .methodNotFound, "Method not found: \(request.method).",
          data: ["method": .string(request.method)]))
    }
    do throws(RPCError) {
      return try route.body(self, request.params, request, client, makeResponder)
    } catch {
      return .failure(error)
    }
  }

  /// Handles one request with a ready-made responder (for callers off the broker's executor, such as tests).
  public func handle(_ request: RPCRequest, from client: ClientSession, responder: any Responder)
    -> BrokerAnswer?
  {
    handle(request, from: client) { responder }
  }
}
