import FoundationEssentials
import LocalAuthClientCore
import LocalAuthProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// A file named with `--out` could not be written (exit status 1, reported as "cannotWrite").
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path given.
  public var path: String
  /// What went wrong.
  public var problem: String

  /// A failure to write `path`.
  public init(path: String, problem: String) {
    self.path = path
    self.problem = problem
  }

  /// "cannot write F: problem".
  public var description: String { "cannot write \(path): \(problem)" }
}

/// Runs the `rights` and `handoff` subcommands. Input files are read before the daemon is asked
/// anything (an unreadable one is a usage error); a right is authorized (one prompt) before any
/// key or secret use, since each invocation is a new connection.
extension CommandRunner {
  func perform(
    _ command: RightsCommand, on connection: LocalAuthConnection, output: OutputFormatter
  ) async throws {
    let store = LARightStore(connection: connection)
    switch command {
    case .save(let identifier, let requirement, let source, let reason):
      let secret = try source.map(Self.read)
      let right = LARight(requirement: requirement, connection: connection)
      try await authorize(right, reason: reason)
      let saved =
        if let secret {
          try await store.saveRight(right, identifier: identifier, secret: secret)
        } else {
          try await store.saveRight(right, identifier: identifier)
        }
      let key = saved.key.publicKey
      let (x963, der) = (try await key.exportBytes(), try await key.exportDER())
      standardOutput(
        output.savedRight(
          identifier, requirement: requirement, hasSecret: secret != nil, x963: x963, der: der,
          keyStore: try await key.keyStore()))
    case .show(let identifier, let reason, let pemPath):
      let right = try await authorizedRight(identifier, reason: reason, store: store)
      let key = right.key.publicKey
      let (x963, der) = (try await key.exportBytes(), try await key.exportDER())
      if let pemPath { try Self.write(Data((OutputFormatter.pem(der) + "\n").utf8), to: pemPath) }
      standardOutput(
        output.publicKey(identifier, x963: x963, der: der, keyStore: try await key.keyStore()))
    case .sign(let identifier, let reason, let input, let signaturePath):
      let message = try Self.read(input)
      let right = try await authorizedRight(identifier, reason: reason, store: store)
      let signature = try await right.key.sign(message)
      if let signaturePath { try Self.write(signature, to: signaturePath) }
      standardOutput(output.signature(identifier, signature: signature, writtenTo: signaturePath))
    case .secret(let identifier, let reason, let outputPath):
      let right = try await authorizedRight(identifier, reason: reason, store: store)
      let secret = try await right.secret.load()
      if let outputPath { try Self.write(secret, to: outputPath) }
      standardOutput(output.secret(identifier, secret: secret, writtenTo: outputPath))
    case .remove(let identifier):
      try await store.removeRight(forIdentifier: identifier)
      standardOutput(output.done("removed \(identifier)", ["removed": .string(identifier)]))
    case .removeAll:
      let removed = try await store.removeAllRights()
      standardOutput(
        output.done(
          "removed \(removed) right\(removed == 1 ? "" : "s")", ["removed": .int(removed)]))
    }
  }

  func perform(
    _ command: HandoffCommand, on connection: LocalAuthConnection, output: OutputFormatter
  ) async throws {
    let handoffs = LAHandoffStore(connection: connection)
    switch command {
    case .create(let payload, let ttl):
      standardOutput(
        output.handoffCreated(try await handoffs.create(payload: Data(payload.utf8), ttl: ttl)))
    case .list:
      standardOutput(output.handoffs(try await handoffs.list()))
    case .authorize(let id, let reason, let policy):
      let requestID = try await interruptible {
        try await handoffs.authorize(id, policy: policy, localizedReason: reason)
      }
      standardOutput(output.handoffAuthorized(id, requestID: requestID))
    case .redeem(let id):
      standardOutput(output.redeemed(id, payload: try await handoffs.redeem(id)))
    }
  }

  /// The persisted right saved under `identifier`, authorized with one prompt.
  private func authorizedRight(_ identifier: String, reason: String, store: LARightStore)
    async throws
    -> LAPersistedRight
  {
    let right = try await store.right(forIdentifier: identifier)
    try await authorize(right, reason: reason)
    return right
  }

  private func authorize(_ right: LARight, reason: String) async throws {
    try await interruptible { try await right.authorize(localizedReason: reason) }
  }

  /// Runs a prompting call; with `cancelsOnInterrupt`, Ctrl-C cancels it (appCancel) instead of killing the tool.
  private func interruptible<T: Sendable>(_ body: @escaping @Sendable () async throws -> T)
    async throws -> T
  {
    guard cancelsOnInterrupt else { return try await body() }
    let task = Task { try await body() }
    let source = EvaluationProgress.onInterrupt { task.cancel() }
    defer { source.cancel() }
    return try await task.value
  }

  /// The bytes of `--data`/`--secret` text or of a file; an unreadable file is a usage error.
  static func read(_ source: InputSource) throws(UsageError) -> Data {
    switch source {
    case .text(let text): return Data(text.utf8)
    case .file(let path):
      guard let bytes = Self.readFile(path) else {
        let reason = String(cString: strerror(errno))
        throw UsageError("cannot read \(path): \(reason)", subcommand: "rights")
      }
      return Data(bytes)
    }
  }

  /// Writes raw bytes to an `--out` file, created (or truncated) with mode 0600 as it may hold a secret.
  /// Wraps open(2), fchmod(2) and write(2), retrying EINTR.
  static func write(_ data: Data, to path: String) throws(FileWriteError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw FileWriteError(path: path, problem: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    guard fchmod(fd, 0o600) == 0 else {
      throw FileWriteError(path: path, problem: String(cString: strerror(errno)))
    }
    let failure: Int32? = data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw FileWriteError(path: path, problem: String(cString: strerror(failure))) }
  }

  /// A whole file's bytes (open(2)/read(2), retrying EINTR); nil with errno set when it cannot
  /// be read.
  static func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}
