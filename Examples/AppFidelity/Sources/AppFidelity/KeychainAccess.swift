import LocalAuthentication

// Keychain-style code: an access control made with SecAccessControlCreateWithFlags, checked with
// evaluateAccessControl before the app would use its item (there is no keychain behind it here).

/// The error a keychain wrapper throws when the access control cannot be made.
struct AccessControlUnavailable: Error {
  let underlying: Error?
}

/// Makes the access control an app's secret item carries.
func makeAccessControl(_ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
  var error: Unmanaged<CFError>?
  guard
    let access = SecAccessControlCreateWithFlags(
      nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &error)
  else {
    throw AccessControlUnavailable(underlying: error?.takeRetainedValue() as Error?)
  }
  return access
}

/// Asks for the access control's authentication before reading the item (async form).
func unlockItem(_ access: SecAccessControl, context: LAContext = LAContext()) async -> Bool {
  do {
    return try await context.evaluateAccessControl(
      access, operation: .useItem, localizedReason: "Read your saved password")
  } catch {
    return false
  }
}

/// The same with the reply block, as older wrappers write it.
func unlockItem(
  _ access: SecAccessControl, context: LAContext, reply: @escaping (Bool, Error?) -> Void
) {
  context.evaluateAccessControl(
    access, operation: .useKeySign, localizedReason: "Sign in", reply: reply)
}
