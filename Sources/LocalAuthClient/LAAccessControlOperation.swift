/// The operation an access control is evaluated for (Apple's `LAAccessControlOperation`), with
/// Apple's raw values. Every operation asks the same of the user here: there is no keychain item
/// or key behind the access control whose use would differ.
public enum LAAccessControlOperation: Int, Sendable, Hashable, CaseIterable {
  /// Creating a keychain item.
  case createItem = 0
  /// Using a keychain item.
  case useItem = 1
  /// Creating a key.
  case createKey = 2
  /// Signing with a key.
  case useKeySign = 3
  /// Decrypting with a key.
  case useKeyDecrypt = 4
  /// A key exchange with a key.
  case useKeyKeyExchange = 5
}
