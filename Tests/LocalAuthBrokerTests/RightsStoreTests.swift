import LocalAuthProtocol
import RightStore
import RightsStorage
import Testing

/// rightStore.*: saving with or without authorization, rows are scoped to (uid, appID), removal.
@Suite struct RightsStoreTests {
  @Test func anUnauthorizedRightIsSavedUnknownAndItsKeyStaysLocked() async throws {
    // Apple's own LARightStore sample saves a right that was never authorized.
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    let saved = await client.call(
      Method.rightStoreSave, ["right": .string(right), "identifier": "a"])?.object
    let handle = try #require(saved?["right"]?.stringValue)
    #expect(await client.state(handle) == "unknown")
    let refused = await client.call(Method.keySign, ["right": .string(handle), "data": "AA=="])
    #expect(refused?.code == .authenticationFailed)
    #expect(refused?.reason == "notAuthorized")
    #expect(
      await client.call(Method.keyPublicKey, ["right": .string(handle)])?.bytes("x963")?.count
        == 65)
    await client.authorize(handle)
    #expect(
      await client.call(Method.keySign, ["right": .string(handle), "data": "AA=="])?.bytes(
        "signature") != nil)
    _ = directory
  }

  @Test func anAuthorizedRightIsSavedAuthorized() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    await client.authorize(right)
    let saved = await client.call(
      Method.rightStoreSave, ["right": .string(right), "identifier": "a"])?.object
    let handle = try #require(saved?["right"]?.stringValue)
    #expect(handle != right)
    #expect(saved?["identifier"] == "a")
    #expect(await client.state(handle) == "authorized")
    #expect(
      try directory.store.right(owner: Owner(uid: 0, appID: "uid-0"), identifier: "a")?.requirement
        == "default")
  }

  @Test func savingOverAnExistingIdentifierFailsUntilRemoved() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = await client.savedRight("dup")
    let right = await client.createRight()
    await client.authorize(right)
    let params: JSONObject = ["right": .string(right), "identifier": "dup"]
    let duplicate = await client.call(Method.rightStoreSave, params)
    #expect(duplicate?.code == .alreadyExists)
    #expect(duplicate?.error?.data["name"] == "alreadyExists")
    #expect(await client.call(Method.rightStoreRemove, ["identifier": "dup"])?.object == [:])
    #expect(await client.call(Method.rightStoreSave, params)?.object?["identifier"] == "dup")
    _ = directory
  }

  @Test func loadedRightStartsUnknownAndNeedsItsOwnAuthorization() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    _ = await client.savedRight("k")
    let loaded = try #require(await client.load("k")?.object)
    #expect(loaded["identifier"] == "k")
    let handle = try #require(loaded["right"]?.stringValue)
    #expect(await client.state(handle) == "unknown")
    #expect(
      await client.call(Method.keySign, ["right": .string(handle), "data": "AA=="])?.reason
        == "notAuthorized")
    await client.authorize(handle)
    #expect(
      await client.call(Method.keySign, ["right": .string(handle), "data": "AA=="])?.bytes(
        "signature") != nil)
    _ = directory
  }

  @Test func anotherUidCannotTellAnExistingRightFromAMissingOne() async throws {
    let (harness, directory) = try rightsHarness()
    let owner = await harness.connect(uid: 1000, gid: 1000)
    _ = await owner.savedRight("bank")
    let stranger = await harness.connect(uid: 1001, gid: 1001)
    let existing = await stranger.load("bank")
    let missing = await stranger.load("bonk")
    #expect(existing?.code == .notFound)
    #expect(existing?.error?.message == missing?.error?.message)
    #expect(existing?.error?.data == missing?.error?.data)
    let existingRemove = await stranger.call(Method.rightStoreRemove, ["identifier": "bank"])
    let missingRemove = await stranger.call(Method.rightStoreRemove, ["identifier": "bonk"])
    #expect(existingRemove?.code == .notFound)
    #expect(existingRemove?.error == missingRemove?.error)
    #expect(await stranger.call(Method.rightStoreRemoveAll)?.object?["removed"] == 0)
    #expect(await owner.load("bank")?.object?["identifier"] == "bank")
    _ = directory
  }

  @Test func rowsAreScopedToTheAppID() async throws {
    let (harness, directory) = try rightsHarness()
    let app = await harness.connect(uid: 1000, gid: 1000)
    await app.hello("com.example.app")
    _ = await app.savedRight("token")
    let other = await harness.connect(uid: 1000, gid: 1000)
    await other.hello("com.example.other")
    #expect(await other.load("token")?.code == .notFound)
    let same = await harness.connect(uid: 1000, gid: 1000)
    await same.hello("com.example.app")
    #expect(await same.load("token")?.object?["identifier"] == "token")
    _ = directory
  }

  @Test func removeByHandleOrIdentifierAndRemoveAll() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let first = await client.savedRight("one")
    _ = await client.savedRight("two")
    _ = await client.savedRight("three")
    #expect(await client.call(Method.rightStoreRemove, ["right": .string(first)])?.object == [:])
    #expect(await client.state(first) == "notAuthorized")
    let gone = await client.call(Method.keySign, ["right": .string(first), "data": "AA=="])
    #expect(gone?.code == .authenticationFailed)
    #expect(await client.call(Method.rightStoreRemove, ["identifier": "one"])?.code == .notFound)
    #expect(await client.call(Method.rightStoreRemoveAll)?.object?["removed"] == 2)
    #expect(await client.load("two")?.code == .notFound)
    let plain = await client.createRight()
    #expect(
      await client.call(Method.rightStoreRemove, ["right": .string(plain)])?.code == .invalidParams)
    #expect(await client.call(Method.rightStoreRemove, [:])?.code == .invalidParams)
    _ = directory
  }

  @Test func aHandleOfARightRemovedElsewhereGetsNotFound() async throws {
    let (harness, directory) = try rightsHarness()
    let user = await harness.connect()
    let handle = await user.savedRight("shared")
    let other = await harness.connect()
    _ = await other.call(Method.rightStoreRemove, ["identifier": "shared"])
    let sign = await user.call(Method.keySign, ["right": .string(handle), "data": "AA=="])
    #expect(sign?.code == .notFound)
    #expect(sign?.error?.message == "The persisted right was removed from the store.")
    _ = directory
  }

  @Test func badParamsNameTheField() async throws {
    let (harness, directory) = try rightsHarness()
    let client = await harness.connect()
    let right = await client.createRight()
    await client.authorize(right)
    let cases: [(JSONObject, String)] = [
      (["right": .string(right)], "identifier"),
      (["right": .string(right), "identifier": ""], "identifier"),
      (["right": .string(right), "identifier": "x", "secret": "not base64!"], "secret"),
      (["identifier": "x"], "right"),
    ]
    for (params, field) in cases {
      let result = await client.call(Method.rightStoreSave, params)
      #expect(result?.code == .invalidParams)
      #expect(result?.error?.data["field"] == .string(field))
    }
    #expect(await client.load("")?.code == .invalidParams)
    _ = directory
  }

  @Test func withoutAStoreTheMethodsSaySo() async {
    let harness = BrokerHarness()
    let client = await harness.connect()
    let result = await client.load("x")
    #expect(result?.code == .internalError)
    #expect(result?.reason == "storeUnavailable")
  }
}
