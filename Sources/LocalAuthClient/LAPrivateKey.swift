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
    public static let ecdsaSignatureMessageX962SHA256 = LAKeyAlgorithm(rawValue: "ecdsaSignatureMessageX962SHA256")
    /// Apple's ECIES with X9.63 KDF (SHA-256), AES-GCM and a variable IV.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = LAKeyAlgorithm(
        rawValue: "eciesEncryptionStandardVariableIVX963SHA256AESGCM")
    /// Plain ECDH key exchange.
    public static let ecdhKeyExchangeStandard = LAKeyAlgorithm(rawValue: "ecdhKeyExchangeStandard")
}

/// The private key of a persisted right (Apple's LAPrivateKey). It never leaves the daemon:
/// every operation is a call, allowed only while the right is authorized. Usable from any task.
public struct LAPrivateKey: Sendable {
    /// The persisted right the key belongs to (kept alive by the key).
    let right: LAPersistedRight

    /// The public half.
    public var publicKey: LAPublicKey { LAPublicKey(right: right) }

    /// Signs `data` (`key.sign`).
    public func sign(_ data: Data, algorithm: LAKeyAlgorithm = .ecdsaSignatureMessageX962SHA256) async throws -> Data {
        try await binary(
            "key.sign", ["data": .string(data.base64EncodedString()), "algorithm": .string(algorithm.rawValue)],
            result: "signature")
    }

    /// Decrypts an ECIES ciphertext made for this key's public half (`key.decrypt`).
    public func decrypt(
        _ data: Data, algorithm: LAKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
    ) async throws -> Data {
        try await binary(
            "key.decrypt", ["data": .string(data.base64EncodedString()), "algorithm": .string(algorithm.rawValue)],
            result: "plaintext")
    }

    /// ECDH with a peer's X9.63 public key (`key.exchangeKeys`); returns the shared secret.
    public func exchangeKeys(publicKey peer: Data) async throws -> Data {
        try await binary("key.exchangeKeys", ["publicKey": .string(peer.base64EncodedString())], result: "sharedSecret")
    }

    /// Whether the key can sign with the algorithm.
    public func canSign(using algorithm: LAKeyAlgorithm) -> Bool { algorithm == .ecdsaSignatureMessageX962SHA256 }
    /// Whether the key can decrypt with the algorithm.
    public func canDecrypt(using algorithm: LAKeyAlgorithm) -> Bool {
        algorithm == .eciesEncryptionStandardVariableIVX963SHA256AESGCM
    }
    /// Whether the key can do the key exchange.
    public func canExchangeKeys(using algorithm: LAKeyAlgorithm) -> Bool { algorithm == .ecdhKeyExchangeStandard }

    func binary(_ method: String, _ extra: JSONObject, result key: String) async throws -> Data {
        try await right.binary(method, extra, result: key)
    }
}

/// The public key of a persisted right (Apple's LAPublicKey).
public struct LAPublicKey: Sendable {
    /// The persisted right the key belongs to (kept alive by the key).
    let right: LAPersistedRight

    /// The key as X9.63 bytes (65 bytes, 0x04‖X‖Y) from `key.publicKey`.
    public func exportBytes() async throws -> Data {
        try await right.binary("key.publicKey", [:], result: "x963")
    }

    /// The key as DER SubjectPublicKeyInfo, from `key.publicKey`.
    public func exportDER() async throws -> Data {
        try await right.binary("key.publicKey", [:], result: "der")
    }

    /// Encrypts for this key on the client side with Apple's ECIES variant, so only the daemon
    /// (while the right is authorized) can decrypt. Needs no authorization.
    public func encrypt(
        _ plaintext: Data, algorithm: LAKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
    ) async throws -> Data {
        guard algorithm == .eciesEncryptionStandardVariableIVX963SHA256AESGCM else {
            throw RPCError(.invalidParams, "Unsupported encryption algorithm \(algorithm.rawValue).")
        }
        let key = try P256PublicKey(x963: Array(try await exportBytes()))
        return Data(try ECIES.encrypt(Array(plaintext), to: key))
    }

    /// Verifies an ECDSA (X9.62, SHA-256) signature made by the right's private key, on the client side.
    public func verify(_ data: Data, signature: Data) async throws -> Bool {
        let key = try P256PublicKey(x963: Array(try await exportBytes()))
        return key.isValidSignature(Array(signature), for: Array(data))
    }
}

/// The secret of a persisted right (Apple's LASecret), readable while the right is authorized.
public struct LASecret: Sendable {
    /// The persisted right the key belongs to (kept alive by the key).
    let right: LAPersistedRight

    /// The secret's bytes (`secret.load`).
    public func load() async throws -> Data {
        try await right.binary("secret.load", [:], result: "secret")
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
