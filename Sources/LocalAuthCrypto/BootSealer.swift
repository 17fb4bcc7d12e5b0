import CCryptoShim

/// Seals secrets for this process's life only: AES-256-GCM under a random key drawn at start and
/// kept in a `LockedSecret` (never swapped, never in a core dump), so a sealed blob is useless once
/// the process is gone. Blob (also a `LockedSecret`): nonce (12) ‖ ciphertext ‖ tag (16); the
/// caller's AAD binds it to its context. Thread-safe: the key is read only.
public final class BootSealer: Sendable {
  /// Bytes a blob adds to its plaintext.
  public static let overhead = 12 + 16
  private let key: LockedSecret

  /// A sealer with a fresh key, or nil when no locked memory is to be had.
  public init?() {
    guard let key = LockedSecret(count: 32) else { return nil }
    guard cshim_random_bytes(key.bytes.baseAddress, 32) == 0 else { return nil }
    self.key = key
  }

  /// `plaintext` sealed with `aad`, in locked memory; nil when no locked memory is to be had.
  public func seal(_ plaintext: UnsafeBufferPointer<UInt8>, authenticating aad: [UInt8])
    -> LockedSecret?
  {
    guard let blob = LockedSecret(count: Self.overhead + plaintext.count),
      let base = blob.bytes.baseAddress,
      cshim_random_bytes(base, 12) == 0
    else { return nil }
    let status = aad.withUnsafeBufferPointer { aad in
      cshim_aes256gcm(
        1, key.bytes.baseAddress, base, aad.baseAddress, aad.count, plaintext.baseAddress,
        plaintext.count, base + 12, base + 12 + plaintext.count)
    }
    return status == 0 ? blob : nil
  }

  /// The plaintext of `blob`, opened with `aad`, in locked memory; nil when it was not sealed by
  /// this sealer with this AAD.
  public func open(_ blob: LockedSecret, authenticating aad: [UInt8]) -> LockedSecret? {
    guard blob.count >= Self.overhead, let base = blob.bytes.baseAddress,
      let plaintext = LockedSecret(count: blob.count - Self.overhead)
    else { return nil }
    let length = plaintext.count
    let status = aad.withUnsafeBufferPointer { aad in
      cshim_aes256gcm(
        0, key.bytes.baseAddress, base, aad.baseAddress, aad.count, base + 12, length,
        plaintext.bytes.baseAddress, base + 12 + length)
    }
    return status == 0 ? plaintext : nil
  }
}
