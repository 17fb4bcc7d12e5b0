import Foundation
import LocalAuthClient
import LocalAuthCommandLine
import LocalAuthProtocol
import Testing

@Suite struct RightsOutputFormatterTests {
  let text = OutputFormatter(json: false)
  let json = OutputFormatter(json: true)
  let x963 = Data([4] + [UInt8](repeating: 1, count: 64))
  let der = Data([UInt8](repeating: 0xAB, count: 91))

  @Test func wrapsPEMAtSixtyFourCharacters() {
    let pem = OutputFormatter.pem(der)
    let lines = pem.split(separator: "\n")
    #expect(lines.first == "-----BEGIN PUBLIC KEY-----")
    #expect(lines.last == "-----END PUBLIC KEY-----")
    #expect(lines.dropFirst().dropLast().map(\.count) == [64, 60])
    #expect(lines.dropFirst().dropLast().joined() == der.base64EncodedString())
  }

  @Test func formatsPublicKeysAndSignatures() {
    let shown = text.publicKey("vault", x963: x963, der: der)
    #expect(
      shown.hasPrefix(
        "public key of vault\n  X9.63: \(x963.base64EncodedString())\n  DER:   \(der.base64EncodedString())\n"
      ))
    #expect(shown.hasSuffix(OutputFormatter.pem(der)))
    let saved = text.savedRight(
      "vault", requirement: .biometry(fallback: .devicePasscode), hasSecret: true, x963: x963,
      der: der)
    #expect(
      saved.hasPrefix(
        "saved vault (requirement biometry-passcode, with a secret)\npublic key of vault"))
    let object = try? JSONParser.parse(Array(json.publicKey("vault", x963: x963, der: der).utf8))
      .objectValue
    #expect(object?["x963"] == .string(x963.base64EncodedString()))
    #expect(object?["pem"] == .string(OutputFormatter.pem(der)))

    let signature = Data([0x30, 0x44, 0x02])
    #expect(text.signature("vault", signature: signature, writtenTo: "sig.der") == "MEQC")
    #expect(
      json.signature("vault", signature: signature, writtenTo: nil)
        == #"{"identifier":"vault","algorithm":"ecdsaSignatureMessageX962SHA256","signature":"MEQC"}"#
    )
  }

  @Test func printsSecretsAndPayloadsAsTextOnlyWhenPrintable() {
    #expect(text.secret("v", secret: Data("s3cret".utf8), writtenTo: nil) == "s3cret")
    #expect(text.secret("v", secret: Data([0, 1, 2]), writtenTo: nil) == "base64:AAEC")
    #expect(text.secret("v", secret: Data([0xFF]), writtenTo: nil) == "base64:/w==")
    #expect(
      text.secret("v", secret: Data("x".utf8), writtenTo: "s.bin")
        == "secret of v written to s.bin (1 bytes)")
    #expect(
      json.secret("v", secret: Data("hi".utf8), writtenTo: nil)
        == #"{"identifier":"v","secret":"aGk=","text":"hi"}"#)
    #expect(text.redeemed("H", payload: Data("Pay 5\n".utf8)) == "Pay 5\n")
    #expect(json.redeemed("H", payload: Data("Pay".utf8)) == #"{"handoff":"H","payload":"UGF5"}"#)
    #expect(OutputFormatter.printableText(Data("tab\there".utf8)) == "tab\there")
    #expect(OutputFormatter.printableText(Data("bell\u{07}".utf8)) == nil)
  }

  @Test func formatsHandoffs() {
    let now = Date(timeIntervalSince1970: 1_000)
    let handoffs = [
      LAHandoff(
        id: "H1", payload: Data("Pay 5 EUR".utf8), appID: "siri",
        expiresAt: now.addingTimeInterval(59.2)),
      LAHandoff(
        id: "H22", payload: Data([0xFF]), appID: "bank", expiresAt: now.addingTimeInterval(3600),
        isAuthorized: true),
    ]
    #expect(
      text.handoffs(handoffs, now: now) == """
        HANDOFF  APP   AUTHORIZED  EXPIRES   PAYLOAD
        H1       siri  no          in 60s    Pay 5 EUR
        H22      bank  yes         in 3600s  base64:/w==
        """)
    #expect(text.handoffs([], now: now) == "no pending handoffs")
    let list = try? JSONParser.parse(Array(json.handoffs(handoffs, now: now).utf8)).objectValue?[
      "handoffs"]?
      .arrayValue
    #expect(list?.count == 2)
    #expect(list?[1].objectValue?["authorized"] == true)
    #expect(text.handoffCreated(LAHandoff(id: "H1")) == "H1")
    #expect(text.handoffAuthorized("H1", requestID: "R") == "H1: authorized [requestID R]")
    #expect(json.handoffAuthorized("H1", requestID: nil) == #"{"handoff":"H1","authorized":true}"#)
  }

  @Test func readsHandoffsFromTheWire() {
    let pending = PendingHandoff(json: [
      "handoff": "H", "payload": "UGF5", "appID": "siri", "createdAt": 10,
      "expiresAt": .number(JSONNumber(70.5)),
      "authorized": true,
    ])
    #expect(
      pending.map(LAHandoff.init)
        == LAHandoff(
          id: "H", payload: Data("Pay".utf8), appID: "siri",
          createdAt: Date(timeIntervalSince1970: 10),
          expiresAt: Date(timeIntervalSince1970: 70.5), isAuthorized: true))
    #expect(PendingHandoff(json: ["payload": "UGF5"]) == nil)
    #expect(
      OutputFormatter.describe(FileWriteError(path: "/x", problem: "Permission denied")).name
        == "cannotWrite")
  }
}
