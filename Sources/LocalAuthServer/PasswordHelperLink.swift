import CLocalAuthSystem
import Dispatch
import Glibc
import LocalAuthProtocol
import Sensors

/// The daemon's `PasswordChecker`: one connection to localauthd-password-helper per question, over
/// its socket (`/run/localauthd/password.sock`, socket-activated by systemd; docs/owners-and-agents.md,
/// "The login password", has the request format). The helper must be root (the socket's peer, SO_PEERCRED:
/// systemd made the socket), so that no other process can pose as it and collect passwords. Blocking
/// calls run on a queue of their own, never on the event loop; each waits at most `timeout`.
/// Thread-safe.
public final class HelperPasswordChecker: PasswordChecker {
  /// The helper's socket.
  public let socketPath: String
  /// How long one question may take (a wrong password costs the helper about 2 s in pam_unix).
  public let timeout: Duration
  private let queue = DispatchQueue(label: "localauthd.password-helper", attributes: .concurrent)

  /// A checker asking the helper at `socketPath`.
  public init(socketPath: String, timeout: Duration = .seconds(15)) {
    self.socketPath = socketPath
    self.timeout = timeout
  }

  /// Asks 'U' (a usable password?): nil when the helper cannot be reached or answers otherwise.
  public nonisolated(nonsending) func hasUsablePassword(uid: UInt32) async -> Bool? {
    var request: [UInt8] = [UInt8(ascii: "U")] + Self.bigEndian(uid)
    switch await ask(&request) {
    case UInt8(ascii: "Y"): return true
    case UInt8(ascii: "N"): return false
    default: return nil
    }
  }

  /// Asks 'C' (this password?). The request buffer, the one copy made here, is wiped once sent.
  public nonisolated(nonsending) func check(_ password: [UInt8], uid: UInt32) async
    -> PasswordCheck
  {
    guard (1...512).contains(password.count), !password.contains(0) else { return .wrong }
    var request = [UInt8](repeating: 0, count: 7 + password.count)
    request[0] = UInt8(ascii: "C")
    request.replaceSubrange(1..<5, with: Self.bigEndian(uid))
    request[5] = UInt8(password.count >> 8)
    request[6] = UInt8(password.count & 0xFF)
    request.replaceSubrange(7..., with: password)
    switch await ask(&request) {
    case UInt8(ascii: "Y"): return .right
    case UInt8(ascii: "N"): return .wrong
    default: return .unavailable
    }
  }

  /// Sends `request` (wiped afterwards, whatever happens) and returns the answer byte, nil on failure.
  private nonisolated(nonsending) func ask(_ request: inout [UInt8]) async -> UInt8? {
    let sending = request
    SecretWipe.wipe(&request)
    let path = socketPath
    let timeout = timeout
    return await withCheckedContinuation { continuation in
      queue.async {
        var bytes = sending
        let answer = Self.exchange(&bytes, path: path, timeout: timeout)
        SecretWipe.wipe(&bytes)
        continuation.resume(returning: answer)
      }
    }
  }

  /// connect(2), the peer check (root only), send(2) and one recv(2), each bounded by `timeout`.
  private static func exchange(_ request: inout [UInt8], path: String, timeout: Duration) -> UInt8?
  {
    let fd = las_connect_unix(path)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var credentials = las_peer_credentials()
    guard las_peer_credentials_get(fd, &credentials) == 0, credentials.uid == 0 else { return nil }
    var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var sent = 0
    while sent < request.count {
      let n = request.withUnsafeBytes { raw in
        send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      sent += n
    }
    var answer: UInt8 = 0
    while true {
      let n = recv(fd, &answer, 1, 0)
      if n < 0 && errno == EINTR { continue }
      return n == 1 ? answer : nil
    }
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
      UInt8(value & 0xFF),
    ]
  }
}
