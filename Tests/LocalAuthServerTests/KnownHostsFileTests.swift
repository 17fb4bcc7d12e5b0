import Foundation
import Glibc
import LocalAuthCrypto
import LocalAuthProtocol
import SSHAgent
import Testing

@testable import LocalAuthServer

/// The system's known hosts as verified host names (issue 28, row 3): a name counts only from a
/// regular file that root owns and only root may write; a change to the file is read again.
@Suite struct KnownHostsFileTests {
  /// A known-hosts file at a fresh path naming `host` as prod.internal, mode 0644.
  func knownHosts(naming host: SSHPublicKey) throws -> String {
    let path = NSTemporaryDirectory() + "known-hosts-\(UUID().uuidString)"
    let line = "prod.internal,10.0.0.5 ecdsa-sha2-nistp256 \(Base64.encode(host.blob))\n"
    try line.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o644)
    return path
  }

  @Test func aFileAnotherUserThanRootOwnsNamesNothing() throws {
    let host = SSHPublicKey(x963: try P256PrivateKey.generate().publicKey.x963)
    let path = try knownHosts(naming: host)
    defer { unlink(path) }
    // As root, give the file away; anyone else wrote it themselves.
    if getuid() == 0 { #expect(chown(path, 65534, 65534) == 0) }
    #expect(KnownHostsFile(path: path).verifiedName(for: host.blob) == nil)
    #expect(KnownHostsFile(path: path + ".missing").verifiedName(for: host.blob) == nil)
  }

  @Test(.enabled(if: getuid() == 0, "needs root: the file must be root's to name a host"))
  func aNameCountsOnlyFromAFileOnlyRootMayWrite() throws {
    let host = SSHPublicKey(x963: try P256PrivateKey.generate().publicKey.x963)
    let path = try knownHosts(naming: host)
    defer { unlink(path) }
    let file = KnownHostsFile(path: path)
    #expect(file.verifiedName(for: host.blob) == "prod.internal")
    // Rewritten: read again.
    try "other.internal ecdsa-sha2-nistp256 \(Base64.encode(host.blob))\n".write(
      toFile: path, atomically: false, encoding: .utf8)
    #expect(file.verifiedName(for: host.blob) == "other.internal")
    chmod(path, 0o664)
    #expect(file.verifiedName(for: host.blob) == nil, "a group-writable file named a host")
    chmod(path, 0o646)
    #expect(file.verifiedName(for: host.blob) == nil, "a world-writable file named a host")
  }

  @Test func theKeyIsConfigurable() throws {
    let configuration = try ConfigurationParser.parse(
      files: [("t.conf", "[Broker]\nSSHKnownHostsFile=/srv/known_hosts\n")])
    #expect(configuration.sshKnownHostsFile == "/srv/known_hosts")
    #expect(throws: ConfigurationError.self) {
      try ConfigurationParser.parse(files: [("t.conf", "[Broker]\nSSHKnownHostsFile=relative\n")])
    }
  }
}
