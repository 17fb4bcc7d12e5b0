/// The params of one method or notification: built from typed values by the client, read
/// field by field by the server. Each field has one accessor, named for it, that throws -32602
/// naming the field (docs/protocol.md, "Errors"); the wire spelling of a field lives only there.
///
/// A params value holds the received object and decodes a field when it is read, so a handler
/// checks fields in its own order (permission before a type error, as before) and a request
/// allocates nothing to be typed.
public protocol MethodParams: Sendable {
  /// The params object as sent or received.
  var object: JSONObject { get }
  /// Params over a received object; fields are checked when read.
  init(object: JSONObject)
}

extension MethodParams {
  /// A reader over the same object, for the checks shared by several methods (`user`, `requester`).
  @inlinable public var reader: ParamReader { ParamReader(object) }
}

/// The params of a method that takes none (extra members are ignored, as before).
public struct NoParams: MethodParams {
  /// The params object.
  public let object: JSONObject
  /// Params over a received object.
  public init(object: JSONObject) { self.object = object }
  /// No params: `{}`.
  public init() { object = [:] }
}

/// The result of one method: encoded by the server, decoded by the client.
public protocol MethodResult: Sendable {
  /// The result as JSON.
  var json: JSONValue { get }
  /// Reads a result; nil when it does not have this method's shape.
  init?(json: JSONValue)
}

extension JSONValue: MethodResult {
  /// The value itself.
  public var json: JSONValue { self }
  /// Any value.
  public init?(json: JSONValue) { self = json }
}

/// One protocol method: its wire name, params and result (swift-tools-protocols' `RequestType`).
/// Every method the server answers has one, listed in `MethodRegistry.requests`; the server
/// routes only through these types, so a method without a type cannot be answered.
public protocol RequestType: Sendable {
  /// The method's params.
  associatedtype Params: MethodParams
  /// The method's result.
  associatedtype Result: MethodResult
  /// The wire name (`context.evaluatePolicy`).
  static var method: String { get }
}

/// The params of one notification, as a value: encoded by the server, read by the client.
public protocol NotificationPayload: Sendable {
  /// The params object.
  var object: JSONObject { get }
  /// Reads params; nil when they do not have this notification's shape.
  init?(object: JSONObject)
}

/// One notification the server sends: its wire name and params.
public protocol NotificationType: Sendable {
  /// The notification's params.
  associatedtype Params: NotificationPayload
  /// The wire name (`evaluation.started`).
  static var method: String { get }
}
