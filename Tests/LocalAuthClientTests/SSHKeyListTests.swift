import FoundationEssentials
import LocalAuthCommandLine
import LocalAuthProtocol
import Testing

@testable import LocalAuthClientCore

/// `localauthctl ssh-key list` says which keys keep their reuse window when the session locks
/// (issue 34); the JSON form has `keepOnLock` for each.
@Suite struct SSHKeyListTests {
  private func key(_ name: String, keepOnLock: Bool) throws -> SSHKey {
    try SSHKey(
      SSHKeyEntry(
        name: name, publicKey: "ecdsa-sha2-nistp256 AAAA \(name)", fingerprint: "SHA256:x",
        policy: "biometrics", reuseSeconds: 60,
        createdAt: WireTimestamp(milliseconds: 1_700_000_000_000),
        lastUsedAt: nil, lastOutcome: nil, keyStore: "file", keepOnLock: keepOnLock))
  }

  @Test func theReuseColumnSaysWhichWindowsOutliveALock() throws {
    let keys = [try key("kept", keepOnLock: true), try key("work", keepOnLock: false)]
    let table = OutputFormatter(json: false).sshKeys(keys).split(separator: "\n")
    #expect(table[1].contains("60s, kept on lock"), "\(table)")
    #expect(table[2].contains("60s ") && !table[2].contains("kept on lock"), "\(table)")
    let parsed = try JSONParser.parse(Array(OutputFormatter(json: true).sshKeys(keys).utf8))
    let list = parsed.objectValue?["keys"]?.arrayValue
    #expect(list?[0].objectValue?["keepOnLock"] == .bool(true))
    #expect(list?[1].objectValue?["keepOnLock"] == .bool(false))
  }
}
