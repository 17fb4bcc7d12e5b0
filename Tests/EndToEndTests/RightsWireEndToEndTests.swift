import Foundation
import Glibc
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// Rights, persisted rights, keys and handoffs against the real `localauthd --demo` binary.
@Suite(
  .serialized, .enabled(if: (try? RunningDaemon.binaryPath()) != nil, "localauthd binary not found")
)
struct RightsWireEndToEndTests {
  private let app = "com.example.e2e"

  private func started() throws -> RunningDaemon {
    let daemon = try RunningDaemon(arguments: ["--demo"])
    try daemon.start()
    return daemon
  }

  @Test func signatureVerifiesWithTheOpenSSLCommand() throws {
    let daemon = try started()
    let client = try daemon.connect()
    try client.hello(app)
    let right = try client.authorizedRight()
    let saved = try client.ok(
      Method.rightStoreSave, ["right": .string(right), "identifier": "signer"])
    let handle = try #require(saved["right"])
    let message = Array("transfer 10 EUR to Bob".utf8)
    let signature = try #require(
      try client.ok(Method.keySign, ["right": handle, "data": .string(Base64.encode(message))])[
        "signature"]?.stringValue)
    let der = try #require(
      try client.ok(Method.keyPublicKey, ["right": handle])["der"]?.stringValue)

    let pem = "-----BEGIN PUBLIC KEY-----\n" + chunked(der) + "-----END PUBLIC KEY-----\n"
    try pem.write(toFile: daemon.directory + "/pub.pem", atomically: true, encoding: .utf8)
    try Data(try #require(Base64.decode(signature))).write(
      to: URL(fileURLWithPath: daemon.directory + "/sig.der"))
    try Data(message).write(to: URL(fileURLWithPath: daemon.directory + "/msg.bin"))
    try Data(message + [0x21]).write(to: URL(fileURLWithPath: daemon.directory + "/forged.bin"))
    let directory = daemon.directory
    let verify = { (file: String) in
      try runCapturing(
        "/usr/bin/env",
        [
          "openssl", "dgst", "-sha256", "-verify", directory + "/pub.pem", "-signature",
          directory + "/sig.der",
          directory + "/" + file,
        ])
    }
    let good = try verify("msg.bin")
    #expect(good.status == 0)
    #expect(good.output.contains("Verified OK"))
    let forged = try verify("forged.bin")
    #expect(forged.status != 0)
    #expect(forged.output.contains("Verification failure"))
  }

  private func chunked(_ text: String) -> String {
    var lines = ""
    var line = ""
    for character in text {
      line.append(character)
      if line.count == 64 {
        lines += line + "\n"
        line = ""
      }
    }
    return line.isEmpty ? lines : lines + line + "\n"
  }

  @Test func aSavedSecretSurvivesARestart() throws {
    let daemon = try started()
    let secret: [UInt8] = Array("correct horse battery staple".utf8)
    do {
      let client = try daemon.connect()
      try client.hello(app)
      let right = try client.authorizedRight("biometry")
      try client.ok(
        Method.rightStoreSave,
        [
          "right": .string(right), "identifier": "vault", "secret": .string(Base64.encode(secret)),
        ])
      client.close()
    }
    #expect(daemon.stop(signal: SIGTERM) == 0)
    try daemon.start()
    let client = try daemon.connect()
    try client.hello(app)
    let loaded = try client.ok(Method.rightStoreRight, ["identifier": "vault"])
    #expect(loaded["identifier"] == "vault")
    let handle = try #require(loaded["right"])
    #expect(try client.ok(Method.rightState, ["right": handle])["state"] == "unknown")
    let early = try client.failure(Method.secretLoad, ["right": handle])
    #expect(early.code == .authenticationFailed)
    #expect(early.data["reason"] == "notAuthorized")
    try client.matchNow()
    try client.ok(Method.rightAuthorize, ["right": handle, "localizedReason": "open the vault"])
    let loadedSecret = try client.ok(Method.secretLoad, ["right": handle])["secret"]?.stringValue
    #expect(loadedSecret.flatMap(Base64.decode) == secret)
  }

  @Test(.enabled(if: OtherUserClient.isAvailable, "needs root, setpriv and /usr/bin/python3"))
  func anotherUserSeesNothingAndCannotGuess() throws {
    let daemon = try started()
    let client = try daemon.connect()
    try client.hello(app)
    let right = try client.authorizedRight()
    try client.ok(
      Method.rightStoreSave, ["right": .string(right), "identifier": "bank", "secret": "c2VjcmV0"])
    try client.hello("com.example.intents", interactive: false)
    let handoff = try #require(
      try client.ok(Method.handoffCreate, ["payload": "cGF5", "ttl": 600])["handoff"])
    let hello: (String, JSONObject) = (
      Method.hello, ["client": ["name": .string(app)], "protocol": 1]
    )
    let answers = try OtherUserClient.run(
      socket: daemon.socketPath,
      [
        hello,
        (Method.rightStoreRight, ["identifier": "bank"]),
        (Method.rightStoreRight, ["identifier": "no-such-right"]),
        (Method.rightStoreRemove, ["identifier": "bank"]),
        (Method.rightStoreRemove, ["identifier": "no-such-right"]),
        (Method.handoffList, [:]),
        (Method.handoffRedeem, ["handoff": handoff]),
        (Method.handoffRedeem, ["handoff": .string(String(repeating: "0", count: 32))]),
        (Method.rightStoreRemoveAll, [:]),
      ])
    #expect(answers.count == 9)
    guard answers.count == 9 else { return }
    #expect(answers[1]["error"]?.objectValue?["code"] == .int(ErrorCode.notFound.rawValue))
    #expect(answers[1]["error"] == answers[2]["error"])
    #expect(answers[3]["error"] == answers[4]["error"])
    #expect(answers[5]["result"] == ["handoffs": []])
    #expect(answers[6]["error"]?.objectValue?["code"] == .int(ErrorCode.notFound.rawValue))
    #expect(answers[6]["error"] == answers[7]["error"])
    #expect(answers[8]["result"] == ["removed": 0])
    try client.hello(app)
    #expect(try client.ok(Method.rightStoreRight, ["identifier": "bank"])["identifier"] == "bank")
  }

  @Test func enrollmentChangeInvalidatesABiometryCurrentSetRight() throws {
    let daemon = try started()
    let client = try daemon.connect()
    try client.hello(app)
    let right = try client.authorizedRight("biometryCurrentSet")
    let saved = try client.ok(
      Method.rightStoreSave, ["right": .string(right), "identifier": "current"])
    let handle = try #require(saved["right"])
    #expect(try client.ok(Method.keySign, ["right": handle, "data": "AA=="])["signature"] != nil)
    try client.ok(Method.sensorsEnroll, ["sensor": "face", "identity": "mallory"])
    #expect(try client.ok(Method.rightState, ["right": .string(right)])["state"] == "notAuthorized")
    let check = try client.failure(Method.rightCheckCanAuthorize, ["right": handle])
    #expect(check.code == .invalidContext)
    #expect(check.data["reason"] == "biometrySetChanged")
    let sign = try client.failure(Method.keySign, ["right": handle, "data": "AA=="])
    #expect(sign.data["reason"] == "biometrySetChanged")
    let fresh = try #require(
      try client.ok(Method.rightStoreRight, ["identifier": "current"])["right"])
    try client.matchNow()
    let again = try client.failure(
      Method.rightAuthorize, ["right": fresh, "localizedReason": "again"])
    #expect(again.code == .invalidContext)
    #expect(again.data["reason"] == "biometrySetChanged")
  }
}
