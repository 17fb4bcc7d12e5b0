import LocalAuthBroker
import LocalAuthCrypto
import LocalAuthProtocol
import LocalAuthTestSupport
import SSHAgent
import Sensors
import Synchronization
import Testing

/// sshKey.*: keys per uid, and every signature after an evaluation of the key's policy, with the
/// key's reuse window for that key and owner only.
@Suite struct SSHKeyTests {
  private func create(_ client: TestClient, _ name: String, reuse: Int = 0) async throws
    -> P256PublicKey
  {
    let result = await client.call(
      Method.sshKeyCreate, ["name": .string(name), "reuseSeconds": .int(reuse)])
    let line = try #require(result?.object?["publicKey"]?.stringValue)
    #expect(line.hasPrefix("ecdsa-sha2-nistp256 AAAA") && line.hasSuffix(" \(name)"))
    let blob = try #require(Base64.decode(String(line.split(separator: " ")[1])))
    return try P256PublicKey(x963: Array(blob.suffix(65)))
  }

  private func sign(_ client: TestClient, _ name: String, _ data: [UInt8] = [1, 2, 3]) async
    -> Result<JSONValue, RPCError>?
  {
    await client.call(
      Method.sshKeySign,
      ["name": .string(name), "data": .string(Base64.encode(data))])
  }

  @Test func everySignatureNeedsAnEvaluation() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let key = try await create(client, "work")
    _ = harness.face.script([.noMatch, .noMatch, .noMatch], replace: true)
    #expect(await sign(client, "work")?.code == .authenticationFailed)
    _ = harness.face.script([.match(identity: nil)], replace: true)
    let signature = try #require(await sign(client, "work")?.bytes("signature"))
    #expect(key.isValidSignature(signature, for: [1, 2, 3]))
    // No reuse window: the next signature captures again (and the person cancels).
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(client, "work")?.code == .userCancel)
    _ = directory
  }

  /// `sshKey.list` says how each key's latest signature ended, refused (with the LAError) or signed,
  /// so that the reason reaches the user, not only the agent's stderr (issue 31).
  @Test func theListShowsEachKeysLastOutcome() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = try await create(client, "work")
    _ = try await create(client, "idle")
    func lastOutcome(_ name: String) async -> JSONValue? {
      let keys = await client.call(Method.sshKeyList)?.object?["keys"]?.arrayValue ?? []
      return keys.first { $0.objectValue?["name"] == .string(name) }?.objectValue?["lastOutcome"]
    }
    #expect(await lastOutcome("work") == .null, "no signature yet")
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(client, "work")?.code == .userCancel)
    #expect(await lastOutcome("work")?.objectValue?["outcome"] == "userCancel")
    _ = harness.face.script([.match(identity: nil)], replace: true)
    _ = await sign(client, "work")
    #expect(await lastOutcome("work")?.objectValue?["outcome"] == "signed")
    #expect(await lastOutcome("idle") == .null)
    _ = directory
  }

  /// A signature whose client leaves mid-evaluation ends (appCancel) instead of waiting forever:
  /// a client that signs and disconnects, again and again, leaves nothing behind in the daemon.
  @Test func aSignatureWhoseClientLeavesEnds() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = try await create(client, "work")
    let ended = Atomic<Int>(0)
    let signing = Task {
      let result = await sign(client, "work")
      ended.store(result?.code == .appCancel ? 1 : 2, ordering: .relaxed)
    }
    #expect(await client.requestID() != nil, "the signature's evaluation started")
    await harness.broker.disconnect(client.session)
    #expect(
      await eventually(pace: .yielding) { ended.load(ordering: .relaxed) != 0 },
      "the signature still waits")
    #expect(ended.load(ordering: .relaxed) == 1, "it ends with appCancel")
    signing.cancel()
    _ = directory
  }

  @Test func theReuseWindowIsPerKeyAndEnds() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = try await create(client, "git", reuse: 30)
    _ = try await create(client, "other", reuse: 30)
    // One match, then a cancel for whatever captures next.
    _ = harness.face.script([.match(identity: nil), .cancel], replace: true)
    #expect(await sign(client, "git")?.code == nil)
    #expect(await sign(client, "git")?.code == nil)
    // Another key does not share the window: it captures (the cancel).
    #expect(await sign(client, "other")?.code == .userCancel)
    harness.clock.advance(by: .seconds(31))
    _ = harness.face.script([.cancel], replace: true)
    #expect(await sign(client, "git")?.code == .userCancel)
    _ = directory
  }

  @Test func aKeyMadeAgainUnderItsNameSignsWithTheNewKey() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = try await create(client, "work", reuse: 60)
    _ = harness.face.script([.match(identity: nil)], replace: true)
    #expect(await sign(client, "work")?.code == nil)
    #expect(await client.call(Method.sshKeyDelete, ["name": "work"])?.code == nil)
    #expect(await sign(client, "work")?.code == .notFound)
    let renewed = try await create(client, "work", reuse: 60)
    // The old key's reuse window does not carry over to the new key: it captures (the cancel).
    _ = harness.face.script([.cancel, .match(identity: nil)], replace: true)
    #expect(await sign(client, "work")?.code == .userCancel)
    let signature = try #require(await sign(client, "work")?.bytes("signature"))
    #expect(renewed.isValidSignature(signature, for: [1, 2, 3]))
    _ = directory
  }

  /// A login signature's data with `sessionID`, for user "alice".
  private func login(_ sessionID: [UInt8]) -> [UInt8] {
    var writer = SSHWireWriter()
    writer.string(sessionID)
    writer.byte(50)
    writer.string("alice")
    writer.string("ssh-connection")
    writer.string("publickey")
    writer.byte(1)
    writer.string("ecdsa-sha2-nistp256")
    writer.string([7])
    return writer.bytes
  }

  /// Hostile (issue 28, row 3): the caller's host name is shown as its word only; a host is
  /// named as fact by the daemon's verified names (the system's known hosts).
  @Test func theDaemonWordsTheReasonAndChecksTheHost() async throws {
    let verified = VerifiedHostNames()
    let (harness, directory) = try rightsHarness(hostNames: verified)
    let client = await harness.connect()
    _ = try await create(client, "work", reuse: 60)
    _ = harness.face.script([.match(identity: nil)], replace: true)
    var sshsig = SSHWireWriter()
    for field in ["git", "", "sha512"] { sshsig.string(field) }
    sshsig.string([UInt8](repeating: 1, count: 64))
    let file = await sign(client, "work", Array("SSHSIG".utf8) + sshsig.bytes)
    #expect(file?.object?["reason"] == "git/ssh-keygen: sign a file (namespace git)")

    let hostKey = try P256PrivateKey.generate()
    let host = SSHPublicKey(x963: hostKey.publicKey.x963)
    let sessionID = [UInt8](repeating: 9, count: 32)
    let signature = try #require(
      SSHPublicKey.signatureBlob(fromDER: try hostKey.signature(for: sessionID)))
    func signLogin(_ data: [UInt8], hostName: String) async -> Result<JSONValue, RPCError>? {
      await client.call(
        Method.sshKeySign,
        [
          "name": "work", "data": .string(Base64.encode(data)),
          "hostKey": .string(Base64.encode(host.blob)),
          "hostKeySignature": .string(Base64.encode(signature)), "hostName": .string(hostName),
        ])
    }
    let claimed = await signLogin(login(sessionID), hostName: "github.com")
    #expect(
      claimed?.object?["reason"]
        == .string(
          "ssh: sign in to \(host.fingerprint) as alice (known_hosts calls it github.com, unverified)"
        ))
    verified.names.withLock { $0[host.blob] = "prod.internal" }
    let named = await signLogin(login(sessionID), hostName: "prod.internal")
    #expect(
      named?.object?["reason"]
        == .string("ssh: sign in to prod.internal (\(host.fingerprint)) as alice"))
    let contradicted = await signLogin(login(sessionID), hostName: "github.com")
    #expect(
      contradicted?.object?["reason"]
        == .string(
          "ssh: sign in to prod.internal (\(host.fingerprint)) as alice; warning: the caller calls it github.com"
        ))
    // Data framed as a login that does not parse is refused, never signed as "data".
    let malformed = await sign(client, "work", login(sessionID) + [0])
    #expect(malformed?.code == .invalidParams)
    #expect(malformed?.error?.data["field"] == "data")
    // A host key that did not sign this session, or a name with escapes, is refused unsigned.
    #expect(await signLogin(login([1, 2]), hostName: "example.org")?.code == .invalidParams)
    #expect(await signLogin(login(sessionID), hostName: "evil\u{1b}[2J")?.code == .invalidParams)
    _ = directory
  }

  @Test func keysBelongToTheirUidOnly() async throws {
    let (harness, directory) = try rightsHarness()
    let owner = await harness.connect(uid: 1000)
    let other = await harness.connect(uid: 1001)
    _ = try await create(owner, "work")
    #expect(await other.call(Method.sshKeyList)?.object?["keys"]?.arrayValue?.isEmpty == true)
    #expect(await sign(other, "work")?.code == .notFound)
    #expect(await other.call(Method.sshKeyDelete, ["name": "work"])?.code == .notFound)
    #expect(await owner.call(Method.sshKeyList)?.object?["keys"]?.arrayValue?.count == 1)
    _ = directory
  }

  @Test func namesReasonsAndCountsAreBounded() async throws {
    var configuration = BrokerConfiguration()
    configuration.store.maxSSHKeysPerUID = 1
    let directory = try TemporaryStateDirectory()
    let harness = BrokerHarness(configuration: configuration, rightStore: directory.store)
    let client = await harness.connect()
    for bad in ["", "has space", "new\nline", String(repeating: "a", count: 65), "é"] {
      #expect(
        await client.call(Method.sshKeyCreate, ["name": .string(bad)])?.code == .invalidParams)
    }
    #expect(
      await client.call(Method.sshKeyCreate, ["name": "k", "reuseSeconds": 3601])?.code
        == .invalidParams)
    #expect(
      await client.call(Method.sshKeyCreate, ["name": "k", "policy": "none"])?.code
        == .invalidParams)
    _ = try await create(client, "k")
    #expect(await client.call(Method.sshKeyCreate, ["name": "k"])?.code == .alreadyExists)
    let full = await client.call(Method.sshKeyCreate, ["name": "k2"])
    #expect(full?.code == .limitExceeded)
    if case .failure(let error)? = full {
      #expect(error.data["reason"] == "tooManySSHKeys")
      #expect(error.data["limit"] == "MaxSSHKeysPerUID")
    }
  }
}

/// Verified host names a test sets.
final class VerifiedHostNames: HostNameDirectory {
  let names = Mutex<[[UInt8]: String]>([:])
  func verifiedName(for hostKeyBlob: [UInt8]) -> String? { names.withLock { $0[hostKeyBlob] } }
}
