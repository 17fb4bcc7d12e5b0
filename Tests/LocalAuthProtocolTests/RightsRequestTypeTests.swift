import LocalAuthProtocol
import Testing

/// The typed params of the rights, store, key, secret, handoff and SSH key methods: what the
/// client builds reads back on the server, and a bad field is named in the error.
@Suite("Rights request types")
struct RightsRequestTypeTests {
  /// The params as the server receives them: the client's object, re-wrapped.
  private func received<P: MethodParams>(_ params: P) -> P { P(object: params.object) }

  @Test("rights, store and key params read back what the client built")
  func rightsRoundTrip() throws(RPCError) {
    let create = received(RightCreateRequest.Params(requirement: .biometry(fallback: .none)))
    #expect(try create.requirement() == .biometry(fallback: .none))
    #expect(create.object == ["requirement": "biometry"])

    let authorize = received(RightAuthorizeRequest.Params(right: "right-1", localizedReason: "r"))
    #expect(try authorize.right() == "right-1")
    #expect(try authorize.localizedReason() == "r")
    #expect(try received(RightHandleParams(right: "right-2")).right() == "right-2")

    let save = received(
      SaveRightRequest.Params(right: "right-1", identifier: "id", secret: [0, 255]))
    #expect(try save.right() == "right-1")
    #expect(try save.identifier() == "id")
    #expect(try save.secret() == [0, 255])
    #expect(try LoadRightRequest.Params(identifier: "id").identifier() == "id")
    #expect(received(RemoveRightRequest.Params(right: "right-1")).namesRight)
    #expect(!received(RemoveRightRequest.Params(identifier: "id")).namesRight)
    #expect(!RemoveRightRequest.Params(object: ["right": .null, "identifier": "id"]).namesRight)

    let sign = received(KeyDataParams(right: "right-1", data: [1, 2, 3], algorithm: nil))
    #expect(try sign.data(maxBytes: 3) == [1, 2, 3])
    #expect(try sign.algorithm() == nil)
    let exchange = received(
      KeyExchangeRequest.Params(
        right: "right-1", publicKey: [4], algorithm: KeyAlgorithm.ecdhStandardX963SHA256,
        requestedSize: 32, sharedInfo: [5]))
    #expect(try exchange.publicKey(maxBytes: 1024) == [4])
    #expect(try exchange.algorithm() == KeyAlgorithm.ecdhStandardX963SHA256)
    #expect(try exchange.requestedSize() == 32)
    #expect(try exchange.sharedInfo(maxBytes: 4096) == [5])
  }

  @Test("handoff and SSH key params read back what the client built")
  func handoffAndSSHRoundTrip() throws(RPCError) {
    let create = received(HandoffCreateRequest.Params(payload: [9], ttl: 60))
    #expect(try create.payload() == [9])
    #expect(try create.ttl(in: 1...86400) == 60)
    let authorize = received(
      HandoffAuthorizeRequest.Params(
        handoff: "h", policy: .deviceOwnerAuthentication, localizedReason: "r"))
    #expect(try authorize.handoff() == "h")
    #expect(try authorize.policy() == .deviceOwnerAuthentication)
    #expect(try authorize.localizedReason() == "r")
    #expect(try authorize.context() == nil)
    #expect(try received(HandoffRedeemRequest.Params(handoff: "h")).handoff() == "h")

    let key = received(SSHKeyCreateRequest.Params(name: "k", policy: .any, reuseSeconds: 30))
    #expect(try key.name() == "k")
    #expect(try key.policy() == "any")
    #expect(try key.reuseSeconds(in: 0...3600) == 30)
    #expect(try received(SSHKeyDeleteRequest.Params(name: "k")).name() == "k")
    let sign = received(
      SSHKeySignRequest.Params(
        name: "k", data: [1], hostKey: [2], hostKeySignature: [3], hostName: "host"))
    #expect(try sign.data(maxBytes: 1) == [1])
    #expect(try sign.hostKey(maxBytes: 1) == [2])
    #expect(try sign.hostKeySignature(maxBytes: 1) == [3])
    #expect(try sign.hostName() == "host")
    let plain = received(
      SSHKeySignRequest.Params(
        name: "k", data: [1], hostKey: nil, hostKeySignature: nil, hostName: nil))
    #expect(try plain.hostKey(maxBytes: 1) == nil)
  }

  @Test("a bad field is named in the error")
  func badFieldsAreNamed() {
    let empty = RightHandleParams(object: ["right": ""])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try empty.right() }, field: "right")
    let create = RightCreateRequest.Params(object: [:])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try create.requirement() },
      field: "requirement")
    let key = KeyDataParams(object: ["right": "r", "data": "AAAA", "algorithm": 1])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try key.data(maxBytes: 2) }, field: "data")
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try key.algorithm() }, field: "algorithm")
    let handoff = HandoffCreateRequest.Params(object: ["ttl": 0])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try handoff.ttl(in: 1...60) }, field: "ttl")
    let ssh = SSHKeySignRequest.Params(object: ["name": 3])
    ParamReaderTests.expectInvalid(
      ParamReaderTests.failure { () throws(RPCError) in try ssh.name() }, field: "name")
  }
}
