import LocalAuthProtocol

/// An LARight (or an LAPersistedRight loaded from the store) held by one client. Broker-isolated.
final class AuthRight {
    /// The handle on the wire.
    let id: String

    init(id: String) {
        self.id = id
    }
}
