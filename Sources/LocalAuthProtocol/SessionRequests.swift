/// `session.hello {client: {name, appID?, interactive?}, protocol?}` → the server's description.
public enum HelloRequest: RequestType {
  /// `session.hello`
  public static let method = "session.hello"
  /// The result: server, version, protocol, biometryType, sensors.
  public typealias Result = HelloResult

  /// The client's description and the protocol it speaks.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params of a client named `name`.
    public init(name: String, appID: String?, interactive: Bool, protocol version: Int) {
      object = [
        "client": [
          "name": .string(name), "appID": appID.map(JSONValue.string),
          "interactive": .bool(interactive),
        ],
        "protocol": .int(version),
      ]
    }
    /// `client`: the reader over the client's description (`name`, `appID`, `interactive`).
    public func client() throws(RPCError) -> ParamReader {
      ParamReader(try reader.object("client"))
    }
    /// `protocol`: the version the client speaks, if it says.
    public func protocolVersion() throws(RPCError) -> Int? {
      try reader.optionalInt("protocol", in: Int.min...Int.max)
    }
  }
}

/// `session.setActive {active}` → `{}`: whether the client's window is frontmost.
public enum SetActiveRequest: RequestType {
  /// `session.setActive`
  public static let method = "session.setActive"
  /// `{}`.
  public typealias Result = EmptyResult

  /// `{active}`.
  public struct Params: MethodParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The params that set the client active or not.
    public init(active: Bool) { object = ["active": .bool(active)] }
    /// `active`, required.
    public func active() throws(RPCError) -> Bool { try reader.bool("active") }
  }
}
