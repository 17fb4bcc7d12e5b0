import FoundationEssentials
import LocalAuthClientCore
import LocalAuthProtocol

/// The output of the `rights` and `handoff` subcommands. Binary values are base64 in JSON.
extension OutputFormatter {
  /// `rights save`: the saved right and its public key.
  public func savedRight(
    _ identifier: String, requirement: LAAuthenticationRequirement, hasSecret: Bool, x963: Data,
    der: Data, keyStore: String? = nil
  ) -> String {
    let name = RightsCommand.name(of: requirement)
    if json {
      return encode([
        "identifier": .string(identifier), "requirement": .string(name), "secret": .bool(hasSecret),
        "x963": .string(x963.base64EncodedString()), "der": .string(der.base64EncodedString()),
        "keyStore": keyStore.map(JSONValue.string),
      ])
    }
    let secret = hasSecret ? ", with a secret" : ""
    return "saved \(identifier) (requirement \(name)\(secret))\n"
      + publicKey(identifier, x963: x963, der: der, keyStore: keyStore)
  }

  /// `rights show`: the public key as X9.63 and DER (base64) and PEM, and where the private key
  /// lives (tpm-resident or file-sealed) when the daemon says.
  public func publicKey(_ identifier: String, x963: Data, der: Data, keyStore: String? = nil)
    -> String
  {
    if json {
      return encode([
        "identifier": .string(identifier), "x963": .string(x963.base64EncodedString()),
        "der": .string(der.base64EncodedString()), "pem": .string(Self.pem(der)),
        "keyStore": keyStore.map(JSONValue.string),
      ])
    }
    let residence = keyStore.map { "  key:   \(Self.residence($0))\n" } ?? ""
    return """
      public key of \(identifier)
        X9.63: \(x963.base64EncodedString())
        DER:   \(der.base64EncodedString())
      \(residence)\(Self.pem(der))
      """
  }

  /// A key store as `rights show` and `ssh-key list` word it: "tpm-resident" or "file-sealed".
  public static func residence(_ keyStore: String) -> String {
    keyStore == "tpm" ? "tpm-resident" : keyStore == "file" ? "file-sealed" : keyStore
  }

  /// `rights sign`: the base64 DER signature alone (text), so a script can capture it.
  public func signature(_ identifier: String, signature: Data, writtenTo path: String?) -> String {
    guard json else { return signature.base64EncodedString() }
    return encode([
      "identifier": .string(identifier),
      "algorithm": .string(LAKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue),
      "signature": .string(signature.base64EncodedString()), "written": path.map(JSONValue.string),
    ])
  }

  /// `rights secret`: the secret as text when it is printable UTF-8, else base64; or where it was written.
  public func secret(_ identifier: String, secret: Data, writtenTo path: String?) -> String {
    if json {
      return encode([
        "identifier": .string(identifier), "secret": .string(secret.base64EncodedString()),
        "text": Self.printableText(secret).map(JSONValue.string),
        "written": path.map(JSONValue.string),
      ])
    }
    if let path { return "secret of \(identifier) written to \(path) (\(secret.count) bytes)" }
    return Self.printableText(secret) ?? "base64:" + secret.base64EncodedString()
  }

  /// `handoff create`: the new id alone (text), so a script can capture it.
  public func handoffCreated(_ handoff: LAHandoff) -> String {
    guard json else { return handoff.id }
    return encode([
      "handoff": .string(handoff.id),
      "expiresAt": handoff.expiresAt.map { .number(JSONNumber($0.timeIntervalSince1970)) },
    ])
  }

  /// `handoff list`: a table, expiry relative to `now`.
  public func handoffs(_ handoffs: [LAHandoff], now: Date = Date()) -> String {
    if json {
      let list: [JSONValue] = handoffs.map { handoff in
        [
          "handoff": .string(handoff.id), "appID": handoff.appID.map(JSONValue.string),
          "authorized": .bool(handoff.isAuthorized),
          "expiresAt": handoff.expiresAt.map { .number(JSONNumber($0.timeIntervalSince1970)) },
          "payload": handoff.payload.map { .string($0.base64EncodedString()) },
        ]
      }
      return encode(["handoffs": .array(list)])
    }
    guard !handoffs.isEmpty else { return "no pending handoffs" }
    let header = ["HANDOFF", "APP", "AUTHORIZED", "EXPIRES", "PAYLOAD"]
    let rows = handoffs.map { handoff in
      [
        handoff.id, handoff.appID ?? "-", handoff.isAuthorized ? "yes" : "no",
        handoff.expiresAt.map { "in \(max(0, Int($0.timeIntervalSince(now).rounded(.up))))s" }
          ?? "-",
        handoff.payload.map { Self.printableText($0) ?? "base64:" + $0.base64EncodedString() }
          ?? "-",
      ].map(PrintableText.escaped)
    }
    return table([header] + rows)
  }

  /// `handoff authorize` success.
  public func handoffAuthorized(_ id: String, requestID: String?) -> String {
    if json {
      return encode([
        "handoff": .string(id), "authorized": true, "requestID": requestID.map(JSONValue.string),
      ])
    }
    return "\(id): authorized" + (requestID.map { " [requestID \($0)]" } ?? "")
  }

  /// `handoff redeem`: the payload as text when it is printable UTF-8, else base64.
  public func redeemed(_ id: String, payload: Data) -> String {
    if json {
      return encode(["handoff": .string(id), "payload": .string(payload.base64EncodedString())])
    }
    return Self.printableText(payload) ?? "base64:" + payload.base64EncodedString()
  }

  /// A DER SubjectPublicKeyInfo as a PEM "PUBLIC KEY" block, 64 characters a line, no trailing newline.
  public static func pem(_ der: Data) -> String {
    let base64 = Array(der.base64EncodedString())
    let lines = stride(from: 0, to: base64.count, by: 64).map {
      String(base64[$0..<min($0 + 64, base64.count)])
    }
    return (["-----BEGIN PUBLIC KEY-----"] + lines + ["-----END PUBLIC KEY-----"]).joined(
      separator: "\n")
  }

  /// The bytes as text when they are UTF-8 without control characters other than tab and newline.
  public static func printableText(_ data: Data) -> String? {
    guard let text = String(data: data, encoding: .utf8) else { return nil }
    let printable = text.unicodeScalars.allSatisfy { scalar in
      scalar == "\n" || scalar == "\t" || !(scalar.properties.generalCategory == .control)
    }
    return printable ? text : nil
  }
}
