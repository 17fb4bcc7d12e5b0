import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// Socket activation: the listening sockets systemd (or `systemd-socket-activate`) passed in.
///
/// Call once, early in `main`, before any other thread reads the environment.
public enum SocketActivation {
  /// Takes the passed listening sockets with their names.
  ///
  /// Wraps `sd_listen_fds_with_names(1, &names)`: the call checks `LISTEN_PID`
  /// against our pid, marks each fd close-on-exec and unsets `LISTEN_FDS`,
  /// `LISTEN_PID` and `LISTEN_FDNAMES`, so a second call (or a child) sees none.
  /// Returns `[]` when the process was not socket-activated or on error.
  public static func takeListenFileDescriptors() -> [ListenFileDescriptor] {
    var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
    let count = sd_listen_fds_with_names(1, &names)
    defer { freeNames(names) }
    guard count > 0 else { return [] }
    return (0..<Int(count)).map { index in
      let name = names?[index].map { String(cString: $0) } ?? "unknown"
      return ListenFileDescriptor(fd: SD_LISTEN_FDS_START + Int32(index), name: name)
    }
  }

  /// Frees the NULL-terminated string array `sd_listen_fds_with_names` allocated with malloc.
  private static func freeNames(_ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
    guard let names else { return }
    var index = 0
    while let entry = names[index] {
      free(entry)
      index += 1
    }
    free(names)
  }
}
