import LocalAuthentication

// A biometric helper as public apps write it: the device's biometry kind, whether biometrics can
// be used, and a continuation wrapper around the reply-block API.

/// The biometry an app's UI distinguishes.
enum BiometricType {
  case none
  case touchID
  case faceID
  case opticID
}

/// The app's own error, mapped from LAError codes.
enum BiometricError: LocalizedError {
  case authenticationFailed
  case userCancel
  case userFallback
  case biometryNotAvailable
  case biometryNotEnrolled
  case biometryLockout
  case unknown

  init(_ error: LAError) {
    switch error.code {
    case .authenticationFailed: self = .authenticationFailed
    case .userCancel, .appCancel, .systemCancel: self = .userCancel
    case .userFallback: self = .userFallback
    case .biometryNotAvailable: self = .biometryNotAvailable
    case .biometryNotEnrolled: self = .biometryNotEnrolled
    case .biometryLockout: self = .biometryLockout
    default: self = .unknown
    }
  }

  var errorDescription: String? {
    switch self {
    case .authenticationFailed: return "There was a problem verifying your identity."
    case .userCancel: return "You pressed cancel."
    case .userFallback: return "You pressed password."
    case .biometryNotAvailable: return "Face ID/Touch ID is not available."
    case .biometryNotEnrolled: return "Face ID/Touch ID is not set up."
    case .biometryLockout: return "Face ID/Touch ID is locked."
    case .unknown: return "Face ID/Touch ID may not be configured"
    }
  }
}

/// The helper.
final class BiometricHelper {
  static func biometricType() -> BiometricType {
    let authContext = LAContext()
    _ = authContext.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
    switch authContext.biometryType {
    case .none:
      return .none
    case .touchID:
      return .touchID
    case .faceID:
      return .faceID
    case .opticID:
      return .opticID
    }
  }

  static func canUseBiometrics() -> Bool {
    let context = LAContext()
    var error: NSError?
    return context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
  }

  /// The continuation wrapper: the reply-block API as an async function.
  static func authenticate(reason: String, context: LAContext = LAContext()) async throws -> Bool {
    try await withCheckedThrowingContinuation { continuation in
      context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) {
        success, error in
        if let error = error as? LAError {
          continuation.resume(throwing: BiometricError(error))
        } else if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: success)
        }
      }
    }
  }
}
