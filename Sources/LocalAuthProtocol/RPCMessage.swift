/// A JSON-RPC request id: a string, a number (kept literally) or null.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
  /// A string id.
  case string(String)
  /// A number id, echoed exactly as received.
  case number(JSONNumber)
  /// The null id (for errors whose request id could not be read).
  case null

  /// The id as JSON.
  public var json: JSONValue {
    switch self {
    case .string(let s): .string(s)
    case .number(let n): .number(n)
    case .null: .null
    }
  }

  /// An id from JSON; nil for types JSON-RPC does not allow.
  public init?(json: JSONValue) {
    switch json {
    case .string(let s): self = .string(s)
    case .number(let n): self = .number(n)
    case .null: self = .null
    default: return nil
    }
  }

  /// An integer id.
  public static func int(_ value: Int) -> RequestID { .number(JSONNumber(value)) }

  /// The id as it appears in JSON.
  public var description: String { JSONWriter.string(json) }
}

/// One request or notification read from the wire.
public struct RPCRequest: Sendable, Equatable {
  /// The method name.
  public var method: String
  /// The params object; absent params read as an empty object.
  public var params: JSONObject
  /// The id; nil for a notification (no `id` member), which gets no response.
  public var id: RequestID?

  /// A request.
  public init(method: String, params: JSONObject = [:], id: RequestID?) {
    self.method = method
    self.params = params
    self.id = id
  }

  /// The request as a JSON object.
  public var json: JSONValue {
    var object: JSONObject = ["jsonrpc": "2.0"]
    if let id { object["id"] = id.json }
    object["method"] = .string(method)
    object["params"] = .object(params)
    return .object(object)
  }
}

/// A request that could not be accepted, with the id to answer (null when unknown).
public struct RPCRejection: Error, Sendable, Equatable {
  /// The id to put in the error response.
  public var id: RequestID
  /// The error to send.
  public var error: RPCError
  /// Whether the message was a well-formed notification (no `id`), which is never answered
  /// (JSON-RPC 2.0 section 4.1), even when its params are unusable.
  public var isNotification = false

  /// A rejection to answer with `id`.
  public init(id: RequestID, error: RPCError, isNotification: Bool = false) {
    self.id = id
    self.error = error
    self.isNotification = isNotification
  }
}

/// What one frame holds: a single message or a batch (docs/protocol.md, "Transport and framing";
/// JSON-RPC 2.0 section 6).
public enum IncomingFrame: Sendable, Equatable {
  /// One request, notification, or a rejection to answer.
  case single(Result<RPCRequest, RPCRejection>)
  /// A non-empty batch: one entry per element, in order.
  case batch([Result<RPCRequest, RPCRejection>])

  /// Decodes one frame (a line without its newline).
  public static func decode(
    _ line: some Collection<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth
  )
    -> IncomingFrame
  {
    decode(Array(line), maxDepth: maxDepth)
  }

  /// Decodes one frame held in an array.
  public static func decode(_ line: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth)
    -> IncomingFrame
  {
    line.withUnsafeBufferPointer { decode(buffer: $0, maxDepth: maxDepth) }
  }

  /// Decodes one frame in borrowed memory (no copy, no generic dispatch). The server's request
  /// path takes a plain request with `JSONParser.plainRequest(buffer:maxDepth:reusing:)` and
  /// gives `decodeInGeneral` the rest, which is what this does.
  public static func decode(
    buffer line: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONParser.defaultMaxDepth
  )
    -> IncomingFrame
  {
    if let request = JSONParser.plainRequest(buffer: line, maxDepth: maxDepth) {
      return .single(.success(request))
    }
    return decodeInGeneral(buffer: line, maxDepth: maxDepth)
  }

  /// Decodes one frame through its JSON tree: what `decode(buffer:maxDepth:)` does with every
  /// frame that is not one plain request (`JSONParser.plainRequest`).
  public static func decodeInGeneral(buffer line: UnsafeBufferPointer<UInt8>, maxDepth: Int)
    -> IncomingFrame
  {
    let value: JSONValue
    do {
      value = try JSONParser.parse(buffer: line, maxDepth: maxDepth).get()
    } catch {
      if error.reason == "unpairedSurrogate",
        let frame = unpairedSurrogateFrame(buffer: line, maxDepth: maxDepth)
      {
        return frame
      }
      let data: JSONObject = ["reason": .string(error.reason)]
      return .single(
        .failure(
          RPCRejection(
            id: .null, error: RPCError(.parseError, "Parse error: \(error.message).", data: data))))
    }
    if case .array(let elements) = value {
      if elements.isEmpty {
        return .single(
          .failure(RPCRejection(id: .null, error: .invalidRequest("Invalid request: empty batch.")))
        )
      }
      return .batch(elements.map(decodeRequest))
    }
    return .single(decodeRequest(value))
  }

  /// A frame that is valid JSON but holds an unpaired surrogate escape (`"\ud800"`): every request
  /// in it is refused with invalid params and its own id, so the client can match the answer;
  /// nothing runs. Nil when the frame is not valid JSON even with the surrogates replaced.
  static func unpairedSurrogateFrame(buffer line: UnsafeBufferPointer<UInt8>, maxDepth: Int)
    -> IncomingFrame?
  {
    guard
      case .success(let value) = JSONParser.parse(
        buffer: line, maxDepth: maxDepth, replacingUnpairedSurrogates: true)
    else { return nil }
    let error = RPCError(
      .invalidParams,
      "Invalid params: a string holds an unpaired UTF-16 surrogate escape, which is not Unicode text.",
      data: ["reason": "unpairedSurrogate"])
    func refuse(_ element: JSONValue) -> Result<RPCRequest, RPCRejection> {
      switch decodeRequest(element) {
      case .success(let request):
        return .failure(
          RPCRejection(id: request.id ?? .null, error: error, isNotification: request.id == nil))
      case .failure(let rejection): return .failure(rejection)
      }
    }
    if case .array(let elements) = value, !elements.isEmpty {
      return .batch(elements.map(refuse))
    }
    return .single(refuse(value))
  }

  /// Decodes one request object (a frame or one element of a batch).
  public static func decodeRequest(_ value: JSONValue) -> Result<RPCRequest, RPCRejection> {
    guard case .object(let object) = value else {
      return .failure(
        RPCRejection(
          id: .null,
          error: .invalidRequest("Invalid request: expected an object, got \(value.typeName).")))
    }
    var id: RequestID? = nil
    if let rawID = object["id"] {
      guard let parsed = RequestID(json: rawID) else {
        return .failure(
          RPCRejection(
            id: .null,
            error: .invalidRequest("Invalid request: 'id' must be a string, number or null.")))
      }
      id = parsed
    }
    let answerID = id ?? .null
    guard object["jsonrpc"] == .string("2.0") else {
      return .failure(
        RPCRejection(
          id: answerID, error: .invalidRequest("Invalid request: 'jsonrpc' must be \"2.0\".")))
    }
    guard case .string(let method)? = object["method"] else {
      return .failure(
        RPCRejection(
          id: answerID, error: .invalidRequest("Invalid request: 'method' must be a string.")))
    }
    var params = JSONObject()
    switch object["params"] {
    case nil: break
    case .object(let o)?: params = o
    case .array(let a)? where a.isEmpty: break
    case .array?:
      return .failure(
        RPCRejection(
          id: answerID,
          error: RPCError(.invalidParams, "Invalid params: params must be an object."),
          isNotification: id == nil))
    default:
      return .failure(
        RPCRejection(
          id: answerID,
          error: .invalidRequest("Invalid request: 'params' must be an object or array.")))
    }
    return .success(RPCRequest(method: method, params: params, id: id))
  }
}

/// Encodes responses and notifications as one line each (with the trailing newline).
public enum RPCEncoder {
  /// A success response line.
  public static func result(id: RequestID, _ result: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    write(result: result, id: id, into: &writer)
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  /// An error response line.
  public static func error(id: RequestID, _ error: RPCError) -> [UInt8] {
    var writer = JSONWriter()
    write(error: error, id: id, into: &writer)
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  /// A notification line.
  public static func notification(_ method: String, _ params: JSONObject) -> [UInt8] {
    var writer = JSONWriter()
    writer.raw("{\"jsonrpc\":\"2.0\",\"method\":")
    writer.write(string: method)
    writer.raw(",\"params\":")
    writer.write(.object(params))
    writer.raw("}\n")
    return writer.bytes
  }

  /// Writes the response object of an answer, a method's typed result or an error (no newline):
  /// the one place an answer becomes a response (the server calls it; the broker hands out typed
  /// values).
  public static func write(
    answer: Result<any MethodResult, RPCError>, id: RequestID, into writer: inout JSONWriter
  ) {
    switch answer {
    case .success(let value): write(result: value.json, id: id, into: &writer)
    case .failure(let error): write(error: error, id: id, into: &writer)
    }
  }

  /// Writes a success response object (no newline).
  public static func write(result: JSONValue, id: RequestID, into writer: inout JSONWriter) {
    if case .object(let object) = result, let encoded = object.encoded, case .number(let n) = id {
      writer.appendResponse(id: n, keptResult: encoded)
      return
    }
    writer.raw(JSONWriter.responseHead)
    writer.write(id: id)
    writer.raw(",\"result\":")
    writer.write(result)
    writer.raw("}")
  }

  /// Writes an error response object (no newline).
  public static func write(error: RPCError, id: RequestID, into writer: inout JSONWriter) {
    writer.raw(JSONWriter.responseHead)
    writer.write(id: id)
    writer.raw(",\"error\":")
    writer.write(error.json)
    writer.raw("}")
  }
}

/// A message the server sent, as a client reads it.
public enum ServerMessage: Sendable, Equatable {
  /// A response to a request.
  case response(id: RequestID, Result<JSONValue, RPCError>)
  /// A notification (progress, events).
  case notification(method: String, params: JSONObject)

  /// Reads one server message from a JSON value; nil when it is neither shape.
  public init?(json: JSONValue) {
    guard let object = json.objectValue else { return nil }
    if let method = object["method"]?.stringValue, !object.contains("id") {
      self = .notification(method: method, params: object["params"]?.objectValue ?? [:])
      return
    }
    guard let rawID = object["id"], let id = RequestID(json: rawID) else { return nil }
    if let result = object["result"] {
      self = .response(id: id, .success(result))
    } else if let errorValue = object["error"], let error = RPCError(json: errorValue) {
      self = .response(id: id, .failure(error))
    } else {
      return nil
    }
  }
}
