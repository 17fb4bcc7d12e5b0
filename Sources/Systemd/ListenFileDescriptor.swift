/// One listening socket passed in by systemd socket activation.
///
/// A plain value; safe to use from any isolation domain.
public struct ListenFileDescriptor: Sendable, Equatable {
  /// The file descriptor number (counted from `SD_LISTEN_FDS_START`, i.e. 3).
  public let fd: Int32
  /// The name given by the socket unit's `FileDescriptorName=` (`"unknown"` when unnamed).
  public let name: String

  /// Creates a descriptor record; used by `SocketActivation` and by tests.
  public init(fd: Int32, name: String) {
    self.fd = fd
    self.name = name
  }
}
