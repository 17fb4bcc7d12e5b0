import LocalAuthBroker
import LocalAuthProtocol

extension Connection {
  /// Writes an answer that holds a secret (`login.releasePassword`'s): the output is zeroed once
  /// sent, and the answer's string is wiped once encoded.
  func writeSecretResponse(_ answer: BrokerAnswer, id: RequestID) {
    writeResponse(answer, id: id)
    outputHoldsSecret()
    if case .success(let value) = answer, let released = value as? ReleasedPasswordResult {
      SecretWipe.wipe(released.password)
    }
  }
}
