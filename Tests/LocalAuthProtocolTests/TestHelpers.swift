import LocalAuthProtocol
import Testing

/// The UTF-8 bytes of a string literal.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Parses a string as JSON, returning the value or the error.
func parseResult(_ text: String) -> Result<JSONValue, JSONParseError> {
  Result { () throws(JSONParseError) in try JSONParser.parse(utf8(text)) }
}

/// Parses bytes as JSON, returning the value or the error.
func parseResult(bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) -> Result<
  JSONValue, JSONParseError
> {
  Result { () throws(JSONParseError) in try JSONParser.parse(bytes, maxDepth: maxDepth) }
}

/// The error's reason, or nil when parsing succeeded.
func parseFailureReason(_ result: Result<JSONValue, JSONParseError>) -> String? {
  if case .failure(let error) = result { return error.reason }
  return nil
}

/// A number value from its literal.
func number(_ literal: String) -> JSONValue { .number(JSONNumber(validatedLiteral: literal)) }

/// The single decoded message of a frame, failing the test for a batch.
func single(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Result<
  RPCRequest, RPCRejection
>? {
  switch IncomingFrame.decode(utf8(text)) {
  case .single(let result): return result
  case .batch:
    Issue.record("expected a single message, got a batch", sourceLocation: sourceLocation)
    return nil
  }
}

/// The rejection of a result, or nil when it was accepted.
func rejection(_ result: Result<RPCRequest, RPCRejection>?) -> RPCRejection? {
  if case .failure(let rejection)? = result { return rejection }
  return nil
}

/// The request of a result, or nil when it was rejected.
func request(_ result: Result<RPCRequest, RPCRejection>?) -> RPCRequest? {
  if case .success(let request)? = result { return request }
  return nil
}
