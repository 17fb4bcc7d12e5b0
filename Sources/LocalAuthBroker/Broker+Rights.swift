import LocalAuthProtocol

extension Broker {
    /// Handles the rights, store, key, secret and handoff methods (SPEC section 7); nil for any other method.
    func handleRights(
        _ request: RPCRequest, params: ParamReader, client: ClientSession, makeResponder: () -> any Responder
    ) throws(RPCError) -> Result<JSONValue, RPCError>? {
        nil
    }
}
