import LocalAuthProtocol

extension Connection {
  /// Writes an answer that holds a secret (`login.releasePassword`'s): the output is zeroed once
  /// sent, and the answer's string is wiped once encoded.
  func writeSecretResponse(_ answer: Result<JSONValue, RPCError>, id: RequestID) {
    writeResponse(answer, id: id)
    outputHoldsSecret()
    if case .success(let value) = answer, case .string(let secret)? = value.objectValue?["password"]
    {
      SecretWipe.wipe(secret)
    }
  }
}
