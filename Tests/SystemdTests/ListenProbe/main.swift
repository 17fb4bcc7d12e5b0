// A test helper for SocketActivationTests: run by `systemd-socket-activate`, it takes the
// passed sockets with `SocketActivation`, accepts one connection on the first and writes
// what it received: `NAME=FD` for each socket, then whether LISTEN_FDS is still set.
import Glibc
import Systemd

let descriptors = SocketActivation.takeListenFileDescriptors()
var report = descriptors.map { "\($0.name)=\($0.fd)" }
report.append(getenv("LISTEN_FDS") == nil ? "LISTEN_FDS unset" : "LISTEN_FDS set")
let line = report.joined(separator: " ") + "\n"
if let first = descriptors.first {
  let connection = accept(first.fd, nil, nil)
  if connection >= 0 {
    _ = line.utf8CString.withUnsafeBytes { write(connection, $0.baseAddress, $0.count - 1) }
    close(connection)
  }
} else {
  print(line, terminator: "")
  exit(1)
}
