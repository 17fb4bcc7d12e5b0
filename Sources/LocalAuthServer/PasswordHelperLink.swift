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
    let request = SecretBuffer(count: 5)
    request.bytes[0] = UInt8(ascii: "U")
    Self.putBigEndian(uid, into: request, at: 1)
    switch await ask(request) {
    case UInt8(ascii: "Y"): return true
    case UInt8(ascii: "N"): return false
    default: return nil
    }
  }

  /// Asks 'C' (this password?). The request, the one copy made here, lives in a `SecretBuffer`
  /// (never a Swift array, whose copy-on-write could leave a copy nobody wipes), zeroed once sent.
  public nonisolated(nonsending) func check(_ password: [UInt8], uid: UInt32) async
    -> PasswordCheck
  {
    guard (1...512).contains(password.count), !password.contains(0) else { return .wrong }
    let request = SecretBuffer(count: 7 + password.count)
    request.bytes[0] = UInt8(ascii: "C")
    Self.putBigEndian(uid, into: request, at: 1)
    request.bytes[5] = UInt8(password.count >> 8)
    request.bytes[6] = UInt8(password.count & 0xFF)
    password.withUnsafeBufferPointer { source in
      _ = UnsafeMutableBufferPointer(rebasing: request.bytes[7...]).initialize(from: source)
    }
    switch await ask(request) {
    case UInt8(ascii: "Y"): return .right
    case UInt8(ascii: "N"): return .wrong
    default: return .unavailable
    }
  }

  /// Sends `request` on the queue and returns the answer byte (nil on failure); the request is
  /// zeroed once sent, whatever happens.
  private nonisolated(nonsending) func ask(_ request: SecretBuffer) async -> UInt8? {
    let path = socketPath
    let timeout = timeout
    return await withCheckedContinuation { continuation in
      queue.async {
        let answer = Self.exchange(request, path: path, timeout: timeout)
        request.wipe()
        continuation.resume(returning: answer)
      }
    }
  }

  /// connect(2), the peer check (root only), send(2) and one recv(2), each bounded by `timeout`.
  private static func exchange(_ request: SecretBuffer, path: String, timeout: Duration) -> UInt8? {
    let fd = las_connect_unix(path)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var credentials = las_peer_credentials()
    guard las_peer_credentials_get(fd, &credentials) == 0, credentials.uid == 0 else { return nil }
    var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var sent = 0
    while sent < request.bytes.count {
      let n = send(
        fd, request.bytes.baseAddress! + sent, request.bytes.count - sent, Int32(MSG_NOSIGNAL))
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

  private static func putBigEndian(_ value: UInt32, into buffer: SecretBuffer, at offset: Int) {
    for index in 0..<4 { buffer.bytes[offset + index] = UInt8((value >> (24 - 8 * index)) & 0xFF) }
  }
}
