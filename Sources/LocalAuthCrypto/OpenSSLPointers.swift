import CLibCrypto

/// Owns one `EVP_PKEY` and frees it on deinit.
///
/// `@unchecked Sendable`: safe because the key is never mutated after construction and every
/// operation creates its own `EVP_PKEY_CTX`/`EVP_MD_CTX`; OpenSSL 3 documents concurrent read-only
/// use of one `EVP_PKEY` from several threads as safe. Use `pointer` only inside methods of the
/// owning value (or `withExtendedLifetime`) so ARC cannot free the key while OpenSSL is using it.
final class PKeyHandle: @unchecked Sendable {
  /// The owned `EVP_PKEY *`.
  let pointer: OpaquePointer

  /// Takes ownership of `pointer`.
  init(_ pointer: OpaquePointer) { self.pointer = pointer }

  deinit { EVP_PKEY_free(pointer) }
}

/// A NUL-terminated C string in static storage, for OpenSSL parameters whose key or value pointer
/// OpenSSL keeps without copying (OSSL_PARAM keys, OSSL_PARAM_BLD keys until `to_param`).
@inline(__always)
func staticCString(_ string: StaticString) -> UnsafePointer<CChar> {
  UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Imports an EC key from OpenSSL parameters with `EVP_PKEY_fromdata`; `selection` is 0x86 (public) or 0x87 (key pair).
func importECKey(selection: Int32, _ build: (OpaquePointer) throws -> Void) throws -> PKeyHandle {
  guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError.openSSL("OSSL_PARAM_BLD_new") }
  defer { OSSL_PARAM_BLD_free(builder) }
  try check(
    OSSL_PARAM_BLD_push_utf8_string(
      builder, staticCString("group"), staticCString("prime256v1"), 0),
    "OSSL_PARAM_BLD_push_utf8_string(group)")
  try build(builder)
  guard let params = OSSL_PARAM_BLD_to_param(builder) else {
    throw CryptoError.openSSL("OSSL_PARAM_BLD_to_param")
  }
  defer { OSSL_PARAM_free(params) }
  guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
    throw CryptoError.openSSL("EVP_PKEY_CTX_new_from_name(EC)")
  }
  defer { EVP_PKEY_CTX_free(context) }
  try check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
  var key: OpaquePointer?
  guard EVP_PKEY_fromdata(context, &key, selection, params) > 0, let key else {
    throw CryptoError.invalidKey("EVP_PKEY_fromdata rejected the key: \(drainOpenSSLErrors())")
  }
  return PKeyHandle(key)
}

/// Throws unless `key` is an EC key on the P-256 curve (group `prime256v1`).
func requireP256(_ key: PKeyHandle) throws {
  var name = [CChar](repeating: 0, count: 64)
  var length = 0
  guard EVP_PKEY_is_a(key.pointer, "EC") == 1,
    EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) > 0
  else { throw CryptoError.invalidKey("not an EC key: \(drainOpenSSLErrors())") }
  let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  guard group == "prime256v1" else { throw CryptoError.invalidKey("curve \(group) is not P-256") }
}

/// Calls `body` with a non-null pointer to `bytes` and their count; OpenSSL rejects null input even when the length is 0.
func withNonNullBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows
  -> R
{
  if bytes.isEmpty {
    var placeholder: UInt8 = 0
    return try body(&placeholder, 0)
  }
  return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!, $0.count) }
}
