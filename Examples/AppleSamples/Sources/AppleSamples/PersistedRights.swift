import Foundation
import LocalAuthClient

// Apple's LARightStore and LAPersistedRight overviews: save a right (never authorized), fetch it
// back by identifier, authorize it, then use its key and secret.

/// The identifier the samples save their right under.
let signingRightIdentifier = "com.example.samples.signing"

/// Saves a new right, as the LARightStore overview does (no authorization first).
func saveSigningRight() async throws -> LAPersistedRight {
  let right = LARight()
  return try await LARightStore.shared.saveRight(
    right, identifier: signingRightIdentifier, secret: Data("sandcastle".utf8))
}

/// Loads the right, authorizes it and signs `payment` with its private key.
func signPayment(_ payment: Data) async throws -> (signature: Data, publicKey: LAPublicKey) {
  let right = try await LARightStore.shared.right(forIdentifier: signingRightIdentifier)
  try await right.authorize(localizedReason: "Sign the payment")
  let algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
  guard right.key.canSign(using: algorithm) else { throw SampleFailure("cannot sign") }
  let signature = try await right.key.sign(payment, algorithm: algorithm)
  return (signature, right.key.publicKey)
}

/// Verifies a signature: Apple's verify throws when the signature does not match.
func isGenuine(_ payment: Data, signature: Data, publicKey: LAPublicKey) async -> Bool {
  do {
    try await publicKey.verify(
      payment, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
    return true
  } catch {
    return false
  }
}

/// Encrypts with the public key (no authorization needed) and decrypts with the private key.
func roundTripSecretMessage(_ message: Data) async throws -> Data {
  let right = try await LARightStore.shared.right(forIdentifier: signingRightIdentifier)
  let algorithm: SecKeyAlgorithm = .eciesEncryptionStandardVariableIVX963SHA256AESGCM
  let ciphertext = try await right.key.publicKey.encrypt(message, algorithm: algorithm)
  try await right.authorize(localizedReason: "Read the message")
  return try await right.key.decrypt(ciphertext, algorithm: algorithm)
}

/// Reads the secret stored with the right.
func loadSecret() async throws -> Data {
  let right = try await LARightStore.shared.right(forIdentifier: signingRightIdentifier)
  try await right.authorize(localizedReason: "Read the secret")
  return try await right.secret.rawData
}

/// Removes the right.
func removeSigningRight() async throws {
  try await LARightStore.shared.removeRight(forIdentifier: signingRightIdentifier)
}

/// A sample's own failure.
struct SampleFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
