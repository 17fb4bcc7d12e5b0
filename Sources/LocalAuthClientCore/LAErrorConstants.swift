// Apple's C constants for the LocalAuthentication error codes (LAPublicDefines.h), as Swift
// imports them: `Int32` values, so `Int(kLAErrorUserCancel) == LAError.Code.userCancel.rawValue`.
// swift-format-ignore-file

/// Apple's `kLAErrorDomain`.
public let kLAErrorDomain = LAErrorDomain
/// `LAError.Code.authenticationFailed`.
public let kLAErrorAuthenticationFailed: Int32 = -1
/// `LAError.Code.userCancel`.
public let kLAErrorUserCancel: Int32 = -2
/// `LAError.Code.userFallback`.
public let kLAErrorUserFallback: Int32 = -3
/// `LAError.Code.systemCancel`.
public let kLAErrorSystemCancel: Int32 = -4
/// `LAError.Code.passcodeNotSet`.
public let kLAErrorPasscodeNotSet: Int32 = -5
/// `LAError.Code.biometryNotAvailable` (Apple's older name for it).
public let kLAErrorTouchIDNotAvailable: Int32 = -6
/// `LAError.Code.biometryNotEnrolled` (Apple's older name for it).
public let kLAErrorTouchIDNotEnrolled: Int32 = -7
/// `LAError.Code.biometryLockout` (Apple's older name for it).
public let kLAErrorTouchIDLockout: Int32 = -8
/// `LAError.Code.appCancel`.
public let kLAErrorAppCancel: Int32 = -9
/// `LAError.Code.invalidContext`.
public let kLAErrorInvalidContext: Int32 = -10
/// `LAError.Code.companionNotAvailable` (Apple's older name for it).
public let kLAErrorWatchNotAvailable: Int32 = -11
/// `LAError.Code.biometryNotPaired`.
public let kLAErrorBiometryNotPaired: Int32 = -12
/// `LAError.Code.biometryDisconnected`.
public let kLAErrorBiometryDisconnected: Int32 = -13
/// `LAError.Code.invalidDimensions`.
public let kLAErrorInvalidDimensions: Int32 = -14
/// `LAError.Code.biometryNotAvailable`.
public let kLAErrorBiometryNotAvailable: Int32 = -6
/// `LAError.Code.biometryNotEnrolled`.
public let kLAErrorBiometryNotEnrolled: Int32 = -7
/// `LAError.Code.biometryLockout`.
public let kLAErrorBiometryLockout: Int32 = -8
/// `LAError.Code.companionNotAvailable`.
public let kLAErrorCompanionNotAvailable: Int32 = -11
/// `LAError.Code.notInteractive`.
public let kLAErrorNotInteractive: Int32 = -1004
