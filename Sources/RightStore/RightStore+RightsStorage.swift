import RightsStorage

/// The SQLite store is the broker's storage (the server hands it in).
extension RightStore: RightsStorage {}
