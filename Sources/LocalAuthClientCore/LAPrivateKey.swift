import FoundationEssentials
import LocalAuthCrypto
import LocalAuthProtocol

/// Apple-style code names the algorithm type `SecKeyAlgorithm` (from Security); here it is this struct.
public typealias SecKeyAlgorithm = LAKeyAlgorithm

/// The keys of `exchangeKeys(publicKey:algorithm:parameters:)`, as Security's SecKeyKeyExchangeParameter.
public struct SecKeyKeyExchangeParameter: RawRepresentable, Sendable, Hashable {
  /// The key's name.
  public let rawValue: String
  /// A named parameter.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// How many bytes the X9.63 KDF forms derive (an `Int`).
  public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: "requestedSize")
  /// The KDF's shared info (a `Data`).
  public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: "sharedInfo")
}

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
///
/// ```swift
/// try await right.authorize(localizedReason: "Sign the payment")
/// let signature = try await right.key.sign(payment, algorithm: .ecdsaSignatureMessageX962SHA256)
/// try await right.key.publicKey.verify(payment, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
/// ```
public struct LAPrivateKey: Sendable {
  /// The persisted right the key belongs to (kept alive by the key).
  let right: LAPersistedRight

  /// The public half. Its first export needs the right authorized; it is cached afterwards.
  public var publicKey: LAPublicKey { LAPublicKey(right: right) }

  /// Signs `data` (`key.sign`); the signature is DER (X9.62), as openssl expects.
  public func sign(_ data: Data, algorithm: LAKeyAlgorithm = .ecdsaSignatureMessageX962SHA256)
    async throws -> Data
  {
    try await right.binary(KeySignRequest.self) { handle in
      KeyDataParams(right: handle, data: Array(data), algorithm: algorithm.rawValue)
    }
  }

  /// Decrypts an ECIES ciphertext made for this key's public half (`key.decrypt`).
  public func decrypt(
    _ data: Data, algorithm: LAKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
  ) async throws -> Data {
    try await right.binary(KeyDecryptRequest.self) { handle in
      KeyDataParams(right: handle, data: Array(data), algorithm: algorithm.rawValue)
    }
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
    try await right.binary(KeyExchangeRequest.self) { handle in
      KeyExchangeRequest.Params(
        right: handle, publicKey: Array(peer), algorithm: algorithm.rawValue,
        requestedSize: requestedSize, sharedInfo: sharedInfo.map(Array.init))
    }
  }

  /// Apple's form of the key exchange: `parameters` holds `SecKeyKeyExchangeParameter.requestedSize`
  /// (an `Int`) and `.sharedInfo` (a `Data`), keyed by the parameter or its `rawValue`.
  ///
  /// - Throws: `RPCError` invalidParams for a parameter of the wrong type or a bad peer key;
  ///   `LAError.authenticationFailed` while the right is not authorized.
  ///
  /// ```swift
  /// let shared = try await right.key.exchangeKeys(
  ///   publicKey: peer, algorithm: .ecdhKeyExchangeStandardX963SHA256,
  ///   parameters: [SecKeyKeyExchangeParameter.requestedSize.rawValue: 32])
  /// ```
  public func exchangeKeys(
    publicKey peer: Data, algorithm: LAKeyAlgorithm, parameters: [AnyHashable: Any]
  ) async throws -> Data {
    func value(_ key: SecKeyKeyExchangeParameter) -> Any? {
      parameters[AnyHashable(key)] ?? parameters[AnyHashable(key.rawValue)]
    }
    let size = value(.requestedSize)
    let info = value(.sharedInfo)
    guard size == nil || size is Int, info == nil || info is Data else {
      throw RPCError(
        .invalidParams, "requestedSize must be an Int and sharedInfo a Data.")
    }
    return try await exchangeKeys(
      publicKey: peer, algorithm: algorithm, requestedSize: size as? Int,
      sharedInfo: info as? Data)
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
/// As Apple's, every public-key operation (`exportBytes`, `exportDER`, `encrypt`, `verify`) works
/// without authorization: the daemon exports the public half to the right's own client at any
/// time (`key.publicKey`), and the client caches it.
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

  /// Where the private half lives (not in Apple's API): "tpm" when it was made inside the TPM and
  /// every signature and ECDH is done there, "file" when it is sealed under the device key; nil
  /// from a daemon that does not say.
  public func keyStore() async throws -> String? {
    try await right.publicKeyExport().keyStore
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
  /// - Throws: `LAError.authenticationFailed` while the right is not authorized; `RPCError`
  ///   notFound (reason "noSecret") when the right was saved without one.
  public func load() async throws -> Data {
    try await right.binary(SecretLoadRequest.self, RightHandleParams.init)
  }

  /// The secret's bytes, as Apple's async property names them.
  public var rawData: Data {
    get async throws { try await load() }
  }

  /// The completion-handler form of `rawData`.
  @preconcurrency
  public func loadData(completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    complete(handler) { try await load() }
  }
}

extension LARight {
  /// Calls a key or secret method with the params `params` makes from the right's handle and
  /// answers the bytes of its result.
  func binary<R: RequestType>(_ request: R.Type, _ params: (JSONValue) -> R.Params)
    async throws -> Data where R.Result: KeyBytesResult
  {
    Data(try await connection.call(R.self, params(try await handle())).bytes)
  }
}

/// The completion-handler forms of LAPrivateKey, as Apple declares them.
extension LAPrivateKey {
  /// Signs `data`.
  @preconcurrency
  public func sign(
    _ data: Data, algorithm: LAKeyAlgorithm,
    completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    complete(handler) { try await sign(data, algorithm: algorithm) }
  }

  /// Decrypts `data`.
  @preconcurrency
  public func decrypt(
    _ data: Data, algorithm: LAKeyAlgorithm,
    completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    complete(handler) { try await decrypt(data, algorithm: algorithm) }
  }

  /// Key agreement with a peer's public key.
  @preconcurrency
  public func exchangeKeys(
    publicKey peer: Data, algorithm: LAKeyAlgorithm, parameters: [AnyHashable: Any],
    completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    let size =
      parameters[AnyHashable(SecKeyKeyExchangeParameter.requestedSize.rawValue)]
      ?? parameters[AnyHashable(SecKeyKeyExchangeParameter.requestedSize)]
    let info =
      parameters[AnyHashable(SecKeyKeyExchangeParameter.sharedInfo.rawValue)]
      ?? parameters[AnyHashable(SecKeyKeyExchangeParameter.sharedInfo)]
    guard size == nil || size is Int, info == nil || info is Data else {
      handler(nil, RPCError(.invalidParams, "requestedSize must be an Int and sharedInfo a Data."))
      return
    }
    let requestedSize = size as? Int
    let sharedInfo = info as? Data
    complete(handler) {
      try await exchangeKeys(
        publicKey: peer, algorithm: algorithm, requestedSize: requestedSize, sharedInfo: sharedInfo)
    }
  }
}

/// The completion-handler forms of LAPublicKey, as Apple declares them.
extension LAPublicKey {
  /// Exports the key as X9.63 bytes.
  @preconcurrency
  public func exportBytes(completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    complete(handler) { try await exportBytes() }
  }

  /// Encrypts `data` for this key.
  @preconcurrency
  public func encrypt(
    _ data: Data, algorithm: LAKeyAlgorithm,
    completion handler: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    complete(handler) { try await encrypt(data, algorithm: algorithm) }
  }

  /// Verifies a signature: `handler` gets nil only when it is valid.
  @preconcurrency
  public func verify(
    _ signedData: Data, signature: Data, algorithm: LAKeyAlgorithm,
    completion handler: @escaping @Sendable ((any Error)?) -> Void
  ) {
    complete(handler) { try await verify(signedData, signature: signature, algorithm: algorithm) }
  }
}
