import Foundation
import LocalAuthCrypto
import LocalAuthProtocol

/// A key algorithm name as SecKeyAlgorithm spells it.
public struct LAKeyAlgorithm: RawRepresentable, Sendable, Hashable {
  /// The wire name.
  public let rawValue: String
  /// A named algorithm.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// ECDSA over SHA-256 of the message, X9.62 (DER) signature.
  public static let ecdsaSignatureMessageX962SHA256 = LAKeyAlgorithm(
    rawValue: KeyAlgorithm.ecdsaSignatureMessageX962SHA256)
  /// Apple's ECIES with X9.63 KDF (SHA-256), AES-GCM and a variable IV.
  public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = LAKeyAlgorithm(
    rawValue: KeyAlgorithm.eciesStandard)
  /// The cofactor variant of Apple's ECIES; identical on P-256.
  public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = LAKeyAlgorithm(
    rawValue: KeyAlgorithm.eciesCofactor)
  /// Plain ECDH key exchange: the 32-byte x-coordinate of the shared point.
  public static let ecdhKeyExchangeStandard = LAKeyAlgorithm(rawValue: KeyAlgorithm.ecdhStandard)
  /// Cofactor ECDH; identical to the standard form on P-256.
  public static let ecdhKeyExchangeCofactor = LAKeyAlgorithm(rawValue: KeyAlgorithm.ecdhCofactor)
  /// ECDH followed by the X9.63 KDF with SHA-256 (needs `requestedSize`; `sharedInfo` optional).
  public static let ecdhKeyExchangeStandardX963SHA256 = LAKeyAlgorithm(
    rawValue: KeyAlgorithm.ecdhStandardX963SHA256)
  /// The cofactor variant of the above.
  public static let ecdhKeyExchangeCofactorX963SHA256 = LAKeyAlgorithm(
    rawValue: KeyAlgorithm.ecdhCofactorX963SHA256)

  /// Whether the key exchange derives its output with the X9.63 KDF (and so needs `requestedSize`).
  public var derivesWithX963KDF: Bool {
    self == .ecdhKeyExchangeStandardX963SHA256 || self == .ecdhKeyExchangeCofactorX963SHA256
  }
}

/// The private key of a persisted right (Apple's LAPrivateKey). It never leaves the daemon:
/// every operation is a call, allowed only while the right is authorized (otherwise
/// `LAError.authenticationFailed`, reason "notAuthorized"; no prompt is shown). Usable from any task.
public struct LAPrivateKey: Sendable {
  /// The persisted right the key belongs to (kept alive by the key).
  let right: LAPersistedRight

  /// The public half. Its first export needs the right authorized; it is cached afterwards.
  public var publicKey: LAPublicKey { LAPublicKey(right: right) }

  /// Signs `data` (`key.sign`); the signature is DER (X9.62), as openssl expects.
  public func sign(_ data: Data, algorithm: LAKeyAlgorithm = .ecdsaSignatureMessageX962SHA256)
    async throws -> Data
  {
    try await right.binary(
      Method.keySign,
      ["data": .string(data.base64EncodedString()), "algorithm": .string(algorithm.rawValue)],
      result: "signature")
  }

  /// Decrypts an ECIES ciphertext made for this key's public half (`key.decrypt`).
  public func decrypt(
    _ data: Data, algorithm: LAKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
  ) async throws -> Data {
    try await right.binary(
      Method.keyDecrypt,
      ["data": .string(data.base64EncodedString()), "algorithm": .string(algorithm.rawValue)],
      result: "plaintext")
  }

  /// Key agreement with a peer's P-256 public key, X9.63 (65 bytes) or DER (`key.exchangeKeys`).
  /// The raw forms return the 32-byte shared x-coordinate; the `…X963SHA256` forms derive
  /// `requestedSize` bytes (required, 1…4096) with the X9.63 KDF over `sharedInfo`
  /// (Apple's SecKeyKeyExchangeParameter.requestedSize / .sharedInfo).
  public func exchangeKeys(
    publicKey peer: Data, algorithm: LAKeyAlgorithm = .ecdhKeyExchangeStandard,
    requestedSize: Int? = nil,
    sharedInfo: Data? = nil
  ) async throws -> Data {
    let params: JSONObject = [
      "publicKey": .string(peer.base64EncodedString()), "algorithm": .string(algorithm.rawValue),
      "requestedSize": requestedSize.map(JSONValue.int),
      "sharedInfo": sharedInfo.map { .string($0.base64EncodedString()) },
    ]
    return try await right.binary(Method.keyExchangeKeys, params, result: "sharedSecret")
  }

  /// Whether the key can sign with the algorithm.
  public func canSign(using algorithm: LAKeyAlgorithm) -> Bool {
    KeyAlgorithm.signing.contains(algorithm.rawValue)
  }
  /// Whether the key can decrypt with the algorithm (both ECIES variable-IV forms).
  public func canDecrypt(using algorithm: LAKeyAlgorithm) -> Bool {
    KeyAlgorithm.decryption.contains(algorithm.rawValue)
  }
  /// Whether the key can do the key exchange (the standard and cofactor forms, raw or with the X9.63 KDF).
  public func canExchangeKeys(using algorithm: LAKeyAlgorithm) -> Bool {
    KeyAlgorithm.keyExchange.contains(algorithm.rawValue)
  }
}

/// The public key of a persisted right (Apple's LAPublicKey).
///
/// The daemon exports a public key only while its right is authorized (`key.publicKey`, SPEC 7.3):
/// the first export after `LARightStore.saveRight` or `LARight.authorize` is fetched then, and the
/// client caches it, so `exportBytes`, `exportDER`, `encrypt` and `verify` need no authorization
/// afterwards. On a right loaded and never authorized they fail with `LAError.authenticationFailed`.
public struct LAPublicKey: Sendable {
  /// The persisted right the key belongs to (kept alive by the key).
  let right: LAPersistedRight

  /// The key as X9.63 bytes (65 bytes, 0x04‖X‖Y).
  public func exportBytes() async throws -> Data {
    try await right.publicKeyExport().x963
  }

  /// The key as DER SubjectPublicKeyInfo.
  public func exportDER() async throws -> Data {
    try await right.publicKeyExport().der
  }

  /// Whether the key can encrypt with the algorithm (both ECIES variable-IV forms).
  public func canEncrypt(using algorithm: LAKeyAlgorithm) -> Bool {
    KeyAlgorithm.decryption.contains(algorithm.rawValue)
  }

  /// Whether the key can verify signatures made with the algorithm.
  public func canVerify(using algorithm: LAKeyAlgorithm) -> Bool {
    KeyAlgorithm.signing.contains(algorithm.rawValue)
  }

  /// Encrypts for this key on the client side with Apple's ECIES variant, so only the daemon
  /// (while the right is authorized) can decrypt. Needs no authorization once the key is cached.
  public func encrypt(
    _ plaintext: Data,
    algorithm: LAKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
  ) async throws -> Data {
    guard canEncrypt(using: algorithm) else {
      throw RPCError(.invalidParams, "Unsupported encryption algorithm \(algorithm.rawValue).")
    }
    let key = try P256PublicKey(x963: Array(try await exportBytes()))
    return Data(try ECIES.encrypt(Array(plaintext), to: key))
  }

  /// Verifies an ECDSA (X9.62, SHA-256) signature made by the right's private key, on the client
  /// side, as Apple's `verify(_:signature:algorithm:)` does: it returns only when the signature
  /// is valid and throws otherwise, so a forged signature can never pass unnoticed.
  ///
  /// - Parameters:
  ///   - data: The data that was signed.
  ///   - signature: The DER (X9.62) signature.
  ///   - algorithm: `.ecdsaSignatureMessageX962SHA256`, the only signing algorithm.
  /// - Throws: `LAError.authenticationFailed` with reason "invalidSignature" when the signature
  ///   does not match; `LAError.authenticationFailed` when the public key was never exported and
  ///   the right is not authorized; `RPCError` invalidParams for an unsupported algorithm.
  ///
  /// ```swift
  /// try await right.key.publicKey.verify(message, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
  /// ```
  public func verify(
    _ data: Data, signature: Data, algorithm: LAKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
  ) async throws {
    guard canVerify(using: algorithm) else {
      throw RPCError(.invalidParams, "Unsupported signature algorithm \(algorithm.rawValue).")
    }
    let key = try P256PublicKey(x963: Array(try await exportBytes()))
    guard key.isValidSignature(Array(signature), for: Array(data)) else {
      throw LAError(
        .authenticationFailed, message: "The signature does not match the data.",
        reason: "invalidSignature")
    }
  }
}

/// The secret of a persisted right (Apple's LASecret), readable while the right is authorized.
public struct LASecret: Sendable {
  /// The persisted right the key belongs to (kept alive by the key).
  let right: LAPersistedRight

  /// The secret's bytes (`secret.load`).
  public func load() async throws -> Data {
    try await right.binary(Method.secretLoad, [:], result: "secret")
  }
}

extension LARight {
  /// Calls a key or secret method with `{right, …}` and decodes one base64 member of the result.
  func binary(_ method: String, _ extra: JSONObject, result key: String) async throws -> Data {
    let result = try await callWithRight(method, extra)
    guard let text = result[key]?.stringValue, let data = Data(base64Encoded: text) else {
      throw RPCError(.internalError, "\(method) answered without base64 '\(key)'.")
    }
    return data
  }
}
