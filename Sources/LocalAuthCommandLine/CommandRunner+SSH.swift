import FoundationEssentials
import LocalAuthClientCore
import LocalAuthProtocol

/// Runs the `ssh-key` subcommands.
extension CommandRunner {
  func perform(
    _ command: SSHKeyCommand, on connection: LocalAuthConnection, output: OutputFormatter
  ) async throws {
    let store = SSHKeyStore(connection: connection)
    switch command {
    case .create(let name, let reuse, let policy, let keepOnLock):
      let key = try await store.create(
        name: name, policy: policy, reuseSeconds: reuse, keepOnLock: keepOnLock)
      standardOutput(output.sshKeyLine(key))
    case .list:
      standardOutput(output.sshKeys(try await store.keys()))
    case .delete(let name):
      try await store.delete(name: name)
      standardOutput(output.done("deleted \(name)", ["deleted": .string(name)]))
    case .publicKey(let name):
      guard let key = try await store.keys().first(where: { $0.name == name }) else {
        throw RPCError(.notFound, "No SSH key named \(name).")
      }
      standardOutput(output.sshKeyLine(key))
    case .importKey:
      throw RPCError(
        .invalidParams, SSHKeyCommand.importRefusal, data: ["reason": "importRefused"])
    }
  }
}

extension OutputFormatter {
  /// `ssh-key create` and `ssh-key public`: the OpenSSH public key line (or the key as JSON).
  public func sshKeyLine(_ key: SSHKey) -> String {
    json ? encode(.object(Self.sshKeyObject(key))) : key.publicKeyLine
  }

  /// `ssh-key list`: name, fingerprint, policy, reuse window (", kept on lock" when a lock of the
  /// session leaves it open), where the key lives (TPM-resident or
  /// file-sealed), created, last used and how the latest signature since the daemon started ended.
  public func sshKeys(_ keys: [SSHKey], now: Date = Date()) -> String {
    if json { return encode(["keys": .array(keys.map { .object(Self.sshKeyObject($0)) })]) }
    guard !keys.isEmpty else { return "no SSH keys (create one: localauthctl ssh-key create NAME)" }
    let header = [
      "NAME", "FINGERPRINT", "POLICY", "REUSE", "KEY", "CREATED", "LAST USED", "LAST OUTCOME",
    ]
    let rows = keys.map { key in
      [
        key.name, key.fingerprint, key.policy.rawValue,
        "\(key.reuseSeconds)s" + (key.keepOnLock ? ", kept on lock" : ""),
        key.keyStore == "tpm" ? "tpm-resident" : "file-sealed",
        Self.age(key.createdAt, now: now), key.lastUsedAt.map { Self.age($0, now: now) } ?? "never",
        key.lastOutcome ?? "-",
      ].map(PrintableText.escaped)
    }
    return table([header] + rows)
  }

  private static func sshKeyObject(_ key: SSHKey) -> JSONObject {
    [
      "name": .string(key.name), "publicKey": .string(key.publicKeyLine),
      "fingerprint": .string(key.fingerprint), "policy": .string(key.policy.rawValue),
      "reuseSeconds": .int(key.reuseSeconds), "keyStore": .string(key.keyStore),
      "keepOnLock": .bool(key.keepOnLock),
      "createdAt": .number(JSONNumber(key.createdAt.timeIntervalSince1970)),
      "lastUsedAt": key.lastUsedAt.map { .number(JSONNumber($0.timeIntervalSince1970)) } ?? .null,
      "lastOutcome": key.lastOutcome.map(JSONValue.string) ?? .null,
    ]
  }

  /// "42s ago", "5m ago", "3h ago", "2d ago".
  static func age(_ date: Date, now: Date) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(date)))
    switch seconds {
    case ..<60: return "\(seconds)s ago"
    case ..<3600: return "\(seconds / 60)m ago"
    case ..<86_400: return "\(seconds / 3600)h ago"
    default: return "\(seconds / 86_400)d ago"
    }
  }
}
