import Synchronization

// Apple's Security-framework names that keychain-style LocalAuthentication code builds an access
// check from: `SecAccessControlCreateWithFlags(_:_:_:_:)` and its flags, for
// `LAContext.evaluateAccessControl(_:operation:localizedReason:)`. There is no keychain: an access
// control here guards no stored item; it names what the user must prove.

/// Core Foundation's error type, as `Unmanaged<CFError>` out-parameters use it: on Linux an
/// `NSError` (Apple's is toll-free bridged to it).
public typealias CFError = NSError
/// Core Foundation's allocator; pass nil (the default allocator), as apps do.
public typealias CFAllocator = AnyObject
/// Core Foundation's object reference, as the protection argument takes it.
public typealias CFTypeRef = AnyObject
/// Core Foundation's string, as the `kSecAttrAccessible…` constants are: an `NSString` here.
public typealias CFString = NSString

/// The protection class "accessible while unlocked" (recorded; nothing is stored).
public var kSecAttrAccessibleWhenUnlocked: CFString { "ak" as NSString }
/// The protection class "accessible while unlocked, this device only" (recorded).
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { "aku" as NSString }
/// The protection class "after first unlock" (recorded).
public var kSecAttrAccessibleAfterFirstUnlock: CFString { "ck" as NSString }
/// The protection class "after first unlock, this device only" (recorded).
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { "cku" as NSString }
/// The protection class "only with a passcode set, this device only" (recorded).
public var kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString { "akpu" as NSString }

/// What an access control asks of the user, with Apple's names and raw values.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
  /// The flags' bits (Apple's values).
  public let rawValue: UInt

  /// Flags from their bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Biometry or the device passcode (``LAPolicy`` deviceOwnerAuthentication).
  public static let userPresence = Self(rawValue: 1 << 0)
  /// Any enrolled biometry, also after the enrolled set changed.
  public static let biometryAny = Self(rawValue: 1 << 1)
  /// Biometry of the set enrolled when the access control was first satisfied.
  public static let biometryCurrentSet = Self(rawValue: 1 << 3)
  /// The device passcode.
  public static let devicePasscode = Self(rawValue: 1 << 4)
  /// A paired companion device.
  public static let companion = Self(rawValue: 1 << 5)
  /// A paired watch (Apple's older name for the companion bit).
  @available(*, deprecated, renamed: "companion")
  public static let watch = Self(rawValue: 1 << 5)
  /// At least one of the other constraints.
  public static let or = Self(rawValue: 1 << 14)
  /// Every other constraint (also what several constraints without `.or` mean here).
  public static let and = Self(rawValue: 1 << 15)
  /// A private key's use (recorded; there is no key store behind an access control here).
  public static let privateKeyUsage = Self(rawValue: 1 << 30)
  /// An application password, set on the context with `setCredential(_:type:)`.
  public static let applicationPassword = Self(rawValue: 1 << 31)
  /// Apple's deprecated name for ``biometryAny``.
  @available(*, deprecated, renamed: "biometryAny")
  public static let touchIDAny = Self(rawValue: 1 << 1)
  /// Apple's deprecated name for ``biometryCurrentSet``.
  @available(*, deprecated, renamed: "biometryCurrentSet")
  public static let touchIDCurrentSet = Self(rawValue: 1 << 3)
}

/// An access control (Apple's `SecAccessControl`): a protection class and the flags that say
/// what the user must prove. Thread-safe: the one thing it learns, the biometric set that
/// satisfied a ``SecAccessControlCreateFlags/biometryCurrentSet`` control first, is kept under a
/// Mutex.
public final class SecAccessControl: Sendable {
  /// The protection class it was made with (`kSecAttrAccessible…`).
  public let protection: String
  /// Its flags.
  public let flags: SecAccessControlCreateFlags
  /// The biometric domain state hash that first satisfied it (biometryCurrentSet only).
  let boundBiometrySet = Mutex<Data?>(nil)

  /// An access control with a protection class and flags.
  public init(protection: String, flags: SecAccessControlCreateFlags) {
    self.protection = protection
    self.flags = flags
  }

  /// What evaluating it asks of the user.
  public var requirement: AccessControlRequirement { AccessControlRequirement(flags) }
}

/// Makes an access control, as Apple's `SecAccessControlCreateWithFlags(_:_:_:_:)` does. Nil,
/// with `error` set (an `NSError` in `NSOSStatusErrorDomain`, errSecParam), when `protection` is
/// not a string or the flags combine `.or` with `.and`.
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// let access = SecAccessControlCreateWithFlags(
///   nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .biometryCurrentSet, &error)
/// ```
// swift-format-ignore: AlwaysUseLowerCamelCase
public func SecAccessControlCreateWithFlags(
  _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
  guard let protection = (protection as? NSString).map(String.init),
    !flags.isSuperset(of: [.or, .and])
  else {
    let failure = NSError(
      domain: NSOSStatusErrorDomain, code: Int(errSecParam),
      userInfo: [
        NSLocalizedDescriptionKey: "One or more parameters passed to a function were not valid."
      ])
    error?.pointee = Unmanaged.passRetained(failure)
    return nil
  }
  return SecAccessControl(protection: protection, flags: flags)
}

/// The keychain's "one or more parameters passed to a function were not valid" (-50).
public let errSecParam: OSStatus = -50
