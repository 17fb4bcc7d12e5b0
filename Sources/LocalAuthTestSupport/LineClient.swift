import CLocalAuthSystem
import Foundation
import Glibc
import LocalAuthProtocol

/// A blocking JSON-RPC line client for end-to-end tests: send requests or raw bytes, read lines with
/// a timeout. `@unchecked Sendable`: one test uses it at a time, from one thread.
public final class LineClient: @unchecked Sendable {
  // Used by one test at a time.
  /// The socket descriptor.
  public let fd: Int32
  private var framer = LineFramer(limit: 16 << 20)
  private var lines: [[UInt8]] = []
  private var nextID = 0

  /// Connects to a Unix socket.
  public init(socketPath: String) throws {
    let fd = las_connect_unix(socketPath)
    guard fd >= 0 else {
      throw DaemonTestError("connect \(socketPath): \(String(cString: strerror(-fd)))")
    }
    self.fd = fd
  }

  /// Sends raw bytes (a frame must end with a newline to be read).
  public func send(raw bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        throw DaemonTestError("send: \(String(cString: strerror(errno)))")
      }
      offset += sent
    }
  }

  /// Sends a text line (the newline is added).
  public func send(line: String) throws { try send(raw: Array(line.utf8) + [0x0A]) }

  /// Sends a request with a fresh integer id and returns the id.
  @discardableResult
  public func request(_ method: String, _ params: JSONObject = [:], id: RequestID? = nil) throws
    -> RequestID
  {
    nextID += 1
    let id = id ?? .int(nextID)
    try send(
      raw: JSONWriter.encode(RPCRequest(method: method, params: params, id: id).json) + [0x0A])
    return id
  }

  /// Reads the next line as JSON, waiting up to `seconds` (scaled); nil on timeout or end of stream.
  public func readMessage(seconds: Double = 10) throws -> JSONValue? {
    guard let line = try readLine(seconds: seconds) else { return nil }
    return try JSONParser.parse(line)
  }

  /// Reads the next raw line, waiting up to `seconds` (scaled); nil on timeout or end of stream.
  public func readLine(seconds: Double = 10) throws -> [UInt8]? {
    let deadline = Date().addingTimeInterval(seconds * TestTimeout.scale)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while lines.isEmpty {
      if ended { return nil }
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0 { return nil }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(remaining * 1000) + 1)
      if ready <= 0 { continue }
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      if count <= 0 {
        ended = true
        return nil
      }
      buffer.withUnsafeBytes { raw in
        framer.feed(UnsafeRawBufferPointer(rebasing: raw[0..<count])) { frame in
          if case .line(let line) = frame { lines.append(line) }
        }
      }
    }
    return lines.removeFirst()
  }

  /// Reads messages until the response with this id arrives; returns it and the notifications before it.
  public func response(to id: RequestID, seconds: Double = 10) throws -> (
    ServerMessage?, [ServerMessage]
  ) {
    var notifications: [ServerMessage] = []
    while let value = try readMessage(seconds: seconds) {
      guard let message = ServerMessage(json: value) else { continue }
      if case .response(let responseID, _) = message, responseID == id {
        return (message, notifications)
      }
      notifications.append(message)
    }
    return (nil, notifications)
  }

  /// Sends a request and waits for its result (or error).
  public func call(_ method: String, _ params: JSONObject = [:], seconds: Double = 10) throws
    -> Result<JSONValue, RPCError>?
  {
    let id = try request(method, params)
    guard case .response(_, let result)? = try response(to: id, seconds: seconds).0 else {
      return nil
    }
    return result
  }

  /// Shuts down the sending side only (as socat does at the end of its input); answers still arrive.
  public func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

  /// Whether the server ended the stream (or the connection failed).
  public private(set) var ended = false
  private var closed = false

  /// Closes the connection (once).
  public func close() {
    guard !closed else { return }
    closed = true
    _ = Glibc.close(fd)
  }

  deinit { close() }
}
