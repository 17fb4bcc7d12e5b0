import LocalAuthCrypto
import LocalAuthProtocol
import Testing

/// key.* and secret.load on persisted rights: only while authorized, never prompting.
@Suite struct RightsKeyTests {
  private func authorizedKey(_ secret: [UInt8]? = nil) async throws -> (
    TestClient, String, TemporaryStateDirectory
  ) {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let handle = await client.savedRight("key", secret: secret)
    return (client, handle, directory)
  }

  private func publicKey(_ client: TestClient, _ handle: String) async throws -> P256PublicKey {
    let result = await client.call(Method.keyPublicKey, ["right": .string(handle)])
    let x963 = try #require(result?.bytes("x963"))
    #expect(x963.count == 65)
    #expect(result?.bytes("der") == P256PublicKey.spkiPrefix + x963)
    return try P256PublicKey(x963: x963)
  }

  @Test func signaturesVerifyWithThePublicKey() async throws {
    let (client, handle, directory) = try await authorizedKey()
    let key = try await publicKey(client, handle)
    let message = Array("pay 10 EUR".utf8)
    let result = await client.call(
      Method.keySign,
      [
        "right": .string(handle), "data": .string(Base64.encode(message)),
        "algorithm": "ecdsaSignatureMessageX962SHA256",
      ])
    let signature = try #require(result?.bytes("signature"))
    #expect(key.isValidSignature(signature, for: message))
    #expect(!key.isValidSignature(signature, for: message + [0]))
    _ = directory
  }

  @Test(arguments: [KeyAlgorithm.eciesStandard, KeyAlgorithm.eciesCofactor])
  func decryptOpensECIESForTheKey(algorithm: String) async throws {
    let (client, handle, directory) = try await authorizedKey()
    let key = try await publicKey(client, handle)
    let ciphertext = try ECIES.encrypt(Array("hello".utf8), to: key)
    let params: JSONObject = [
      "right": .string(handle), "data": .string(Base64.encode(ciphertext)),
      "algorithm": .string(algorithm),
    ]
    #expect(await client.call(Method.keyDecrypt, params)?.bytes("plaintext") == Array("hello".utf8))
    var tampered = ciphertext
    tampered[tampered.count - 1] ^= 1
    let bad = await client.call(
      Method.keyDecrypt, ["right": .string(handle), "data": .string(Base64.encode(tampered))])
    #expect(bad?.code == .invalidParams)
    #expect(bad?.reason == "decryptionFailed")
    _ = directory
  }

  @Test func keyExchangeMatchesThePeersSide() async throws {
    let (client, handle, directory) = try await authorizedKey()
    let key = try await publicKey(client, handle)
    let peer = try P256PrivateKey.generate()
    let peerPublic = JSONValue.string(Base64.encode(peer.publicKey.x963))
    for algorithm in [KeyAlgorithm.ecdhStandard, KeyAlgorithm.ecdhCofactor] {
      let result = await client.call(
        Method.keyExchangeKeys,
        ["right": .string(handle), "publicKey": peerPublic, "algorithm": .string(algorithm)])
      #expect(result?.bytes("sharedSecret") == (try peer.sharedSecret(with: key)))
    }
    let derived = await client.call(
      Method.keyExchangeKeys,
      [
        "right": .string(handle), "publicKey": .string(Base64.encode(peer.publicKey.der)),
        "algorithm": .string(KeyAlgorithm.ecdhStandardX963SHA256), "requestedSize": 42,
        "sharedInfo": "aW5mbw==",
      ])
    let expected = try peer.sharedSecret(
      with: key, requestedSize: 42, sharedInfo: Array("info".utf8))
    #expect(derived?.bytes("sharedSecret") == expected)
    let noSize = await client.call(
      Method.keyExchangeKeys,
      [
        "right": .string(handle), "publicKey": peerPublic,
        "algorithm": .string(KeyAlgorithm.ecdhCofactorX963SHA256),
      ])
    #expect(noSize?.error?.data["field"] == "requestedSize")
    let badPoint = await client.call(
      Method.keyExchangeKeys, ["right": .string(handle), "publicKey": "BAAA"])
    #expect(badPoint?.error?.data["field"] == "publicKey")
    _ = directory
  }

  @Test func unsupportedAlgorithmsNameTheSupportedOnes() async throws {
    let (client, handle, directory) = try await authorizedKey()
    let calls: [(String, [String])] = [
      (Method.keySign, KeyAlgorithm.signing), (Method.keyDecrypt, KeyAlgorithm.decryption),
      (Method.keyExchangeKeys, KeyAlgorithm.keyExchange),
    ]
    for (method, supported) in calls {
      let result = await client.call(
        method,
        [
          "right": .string(handle), "data": "AA==", "publicKey": "AA==",
          "algorithm": "rsaSignatureRaw",
        ])
      #expect(result?.code == .invalidParams, "\(method)")
      #expect(result?.error?.data["supported"] == .array(supported.map(JSONValue.string)))
      #expect(result?.error?.message.contains(supported[0]) == true)
    }
    _ = directory
  }

  @Test func secretLoadsWhileAuthorizedAndIsAbsentWhenNotSaved() async throws {
    let (client, handle, directory) = try await authorizedKey([0, 255, 7])
    #expect(
      await client.call(Method.secretLoad, ["right": .string(handle)])?.bytes("secret") == [
        0, 255, 7,
      ])
    let bare = await client.savedRight("bare")
    let missing = await client.call(Method.secretLoad, ["right": .string(bare)])
    #expect(missing?.code == .notFound)
    #expect(missing?.reason == "noSecret")
    _ = directory
  }

  @Test func everyPrivateKeyCallFailsWithoutAuthorizationAndNeverPrompts() async throws {
    let (client, handle, directory) = try await authorizedKey([1])
    _ = await client.call(Method.rightDeauthorize, ["right": .string(handle)])
    let started = client.recorder.notifications(Notification.started).count
    // The public key is public, as Apple's LAPublicKey: exported without authorization.
    #expect(
      await client.call(Method.keyPublicKey, ["right": .string(handle)])?.bytes("x963")?.count
        == 65)
    for method in [
      Method.keySign, Method.keyDecrypt, Method.keyExchangeKeys, Method.secretLoad,
    ] {
      let result = await client.call(
        method, ["right": .string(handle), "data": "AA==", "publicKey": "AA=="])
      #expect(result?.code == .authenticationFailed, "\(method)")
      #expect(result?.reason == "notAuthorized", "\(method)")
    }
    #expect(client.recorder.notifications(Notification.started).count == started)
    _ = directory
  }

  @Test func plainRightsHaveNoKeyOrSecret() async throws {
    let (client, _, directory) = try await authorizedKey()
    let plain = await client.createRight()
    await client.authorize(plain)
    for method in [
      Method.keyPublicKey, Method.keySign, Method.keyDecrypt, Method.keyExchangeKeys,
      Method.secretLoad,
    ] {
      let result = await client.call(
        method, ["right": .string(plain), "data": "AA==", "publicKey": "AA=="])
      #expect(result?.code == .invalidParams, "\(method)")
      #expect(result?.error?.data["field"] == "right", "\(method)")
    }
    _ = directory
  }

  @Test func disconnectEndsTheAuthorization() async throws {
    let (client, _, directory) = try await authorizedKey([9])
    await client.disconnect()
    let again = await client.harness.connect()
    let handle = try #require(await again.load("key")?.object?["right"]?.stringValue)
    #expect(await again.state(handle) == "unknown")
    #expect(
      await again.call(Method.secretLoad, ["right": .string(handle)])?.reason == "notAuthorized")
    _ = directory
  }
}
