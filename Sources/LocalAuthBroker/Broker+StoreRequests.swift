import LocalAuthProtocol
import RightsStorage

extension Broker {
  /// Admits one store request of `client` (`RightsBook.admit`): queueFull when its uid, or
  /// everyone, has too many waiting.
  func admitStoreRequest(of client: ClientSession) throws(RPCError) {
    try rights.admit(uid: client.peer.uid, limits: configuration.store)
  }

  /// Admits a store request of `client` and answers it through the responder once `work` (which waits on the
  /// store's thread) is done, so the event loop goes on serving everyone else meanwhile. Throws at once when
  /// the store is unavailable or the request is not admitted.
  func answerAfterStore(
    _ client: ClientSession, _ makeResponder: () -> any Responder,
    _ work: @escaping @Sendable () async throws(RPCError) -> any MethodResult
  ) throws(RPCError) -> MethodAnswer {
    _ = try rights.lane.checkedStore()
    try admitStoreRequest(of: client)
    let responder = makeResponder()
    let uid = client.peer.uid
    Task {
      let answer: BrokerAnswer
      do throws(RPCError) {
        answer = .success(try await work())
      } catch {
        answer = .failure(error)
      }
      self.rights.release(uid: uid)
      responder.respond(answer)
    }
    return nil
  }
}
