import LocalAuthProtocol

/// What a connection holds only while it is behind: a partial line (its framer) and the ids of
/// requests awaiting their answers. Loop thread only.
final class ConnectionBacklog {
  var framer: LineFramer?
  var pendingIDs: Set<RequestID> = []
}
