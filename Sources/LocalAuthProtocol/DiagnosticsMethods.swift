/// The params of the diagnostics methods: `appID`, optional, one app's evaluations only.
public protocol AppFilterParams: MethodParams {}

extension AppFilterParams {
  /// `appID`, optional.
  public func appID() throws(RPCError) -> String? { try reader.optionalString("appID") }
}

/// `broker.findings {appID?}` → `{counts, findings}`: what the detectors found since start
/// (`localauthctl doctor`).
public enum FindingsRequest: RequestType {
  /// `broker.findings`
  public static let method = "broker.findings"
  /// `{counts, findings}`.
  public typealias Result = FindingsReport

  /// `{appID?}`.
  public struct Params: AppFilterParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The findings of one app (nil: all the caller may see).
    public init(appID: String?) { object = ["appID": appID.map(JSONValue.string)] }
  }
}

/// `broker.trace {appID?, pid?}` → `{evaluations}`: recent prompting evaluations as a timeline
/// (`localauthctl trace`).
public enum TraceRequest: RequestType {
  /// `broker.trace`
  public static let method = "broker.trace"
  /// `{evaluations}`.
  public typealias Result = TraceResult

  /// `{appID?, pid?}`.
  public struct Params: AppFilterParams {
    /// The params object.
    public let object: JSONObject
    /// Params over a received object.
    public init(object: JSONObject) { self.object = object }
    /// The traces of one app and/or one process.
    public init(appID: String?, pid: Int?) {
      object = ["appID": appID.map(JSONValue.string), "pid": pid.map(JSONValue.int)]
    }
    /// `pid`, optional, 1…Int32.max.
    public func pid() throws(RPCError) -> Int? {
      try reader.optionalInt("pid", in: 1...Int(Int32.max))
    }
  }
}
