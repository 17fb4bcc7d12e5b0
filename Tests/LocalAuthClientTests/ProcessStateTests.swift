import Glibc
import Testing

@testable import LocalAuthClientCore

/// The client library leaves its host app's process state alone (issue 30): every send already
/// uses MSG_NOSIGNAL, so connecting changes no signal disposition.
@Suite(.serialized) struct ProcessStateTests {
  @Test func connectingLeavesSIGPIPEAsTheAppSetIt() {
    let previous = signal(SIGPIPE, SIG_DFL)
    defer { signal(SIGPIPE, previous) }
    for path in ["/nonexistent/localauthd.sock", "/dev/null"] {
      _ = SocketLink.connect(path: path, generation: 1)
      // SIG_DFL is the handler 0; SIG_IGN, which the old client set, is 1.
      let now = unsafeBitCast(signal(SIGPIPE, SIG_DFL), to: Int.self)
      #expect(now == 0, "connecting to \(path) changed SIGPIPE's disposition (\(now))")
    }
  }
}
