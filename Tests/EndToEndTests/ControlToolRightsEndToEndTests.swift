import Foundation
import LocalAuthClient
import LocalAuthProtocol
import LocalAuthTestSupport
import Testing

/// `localauthctl rights` and `localauthctl handoff` against the real daemon: output, files,
/// openssl verification and exit statuses 0/1/2.
@Suite(.serialized)
struct ControlToolRightsEndToEndTests {
  @Test func aSignatureFromRightsSignVerifiesWithOpenSSL() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    let socket = daemon.socketPath
    let files = URL(fileURLWithPath: daemon.directory)
    func ctl(_ arguments: String...) throws -> ControlToolRun {
      try runControlTool(arguments, socket: socket, in: files)
    }

    let save = try ctl(
      "rights", "save", "vault", "--reason", "Create the vault key", "--requirement",
      "biometry-passcode",
      "--secret", "s3cret")
    #expect(save.status == 0, "\(save.error)")
    #expect(save.output.hasPrefix("saved vault (requirement biometry-passcode, with a secret)\n"))
    #expect(save.output.contains("-----BEGIN PUBLIC KEY-----"))
    let again = try ctl("rights", "save", "vault", "--reason", "twice")
    #expect(again.status == 1)
    #expect(again.error.contains("error: alreadyExists (-32005)"))

    let show = try ctl("rights", "show", "vault", "--out", "pub.pem")
    #expect(show.status == 0, "\(show.error)")
    let pem = try String(contentsOf: files.appendingPathComponent("pub.pem"), encoding: .utf8)
    #expect(
      pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n") && pem.hasSuffix("-----END PUBLIC KEY-----\n"))
    #expect(show.output.contains(pem))

    try Data("pay 5 EUR to Bob\n".utf8).write(to: files.appendingPathComponent("msg.txt"))
    let sign = try ctl(
      "rights", "sign", "vault", "--reason", "Sign the payment", "--file", "msg.txt", "--out",
      "sig.der")
    #expect(sign.status == 0, "\(sign.error)")
    let der = try Data(contentsOf: files.appendingPathComponent("sig.der"))
    #expect(Data(base64Encoded: sign.output.trimmingCharacters(in: .newlines)) == der)
    let verify = try runProgram(
      "openssl",
      [
        "dgst", "-sha256", "-verify", files.appendingPathComponent("pub.pem").path, "-signature",
        files.appendingPathComponent("sig.der").path, files.appendingPathComponent("msg.txt").path,
      ])
    #expect(verify.status == 0)
    #expect(verify.output == "Verified OK\n")

    let json = try ctl("--json", "rights", "sign", "vault", "--reason", "json", "--data", "hello")
    #expect(json.status == 0)
    let object = try JSONParser.parse(Array(json.output.utf8)).objectValue
    #expect(object?["algorithm"] == "ecdsaSignatureMessageX962SHA256")
    #expect(object?["signature"]?.stringValue.flatMap { Data(base64Encoded: $0) } != nil)

    let secret = try ctl("rights", "secret", "vault", "--reason", "Read the secret")
    #expect(secret.status == 0)
    #expect(secret.output == "s3cret\n")

    let otherApp = try ctl("--app-id", "someone-else", "rights", "show", "vault")
    #expect(otherApp.status == 1)
    #expect(otherApp.error.contains("error: notFound (-32004)"))

    #expect(try ctl("rights", "remove", "vault").output == "removed vault\n")
    let gone = try ctl("rights", "sign", "vault", "--reason", "gone", "--data", "x")
    #expect(gone.status == 1)
    #expect(gone.error.contains("notFound"))
    #expect(try ctl("rights", "remove", "vault").status == 1)

    #expect(try ctl("rights", "save", "a", "--reason", "a", "--secret-file", "msg.txt").status == 0)
    #expect(
      try ctl("rights", "save", "b", "--reason", "b", "--requirement", "biometry").status == 0)
    let all = try ctl("--json", "rights", "remove-all")
    #expect(all.status == 0)
    #expect(all.output == #"{"removed":2}"# + "\n")
  }

  @Test func rightsUsageErrorsExitTwo() async throws {
    let socket = "/nonexistent/localauthd.sock"
    let noMessage = try runControlTool(
      ["rights", "sign", "vault", "--reason", "r"], socket: socket)
    #expect(noMessage.status == 2)
    #expect(noMessage.error.contains("rights sign needs the message: --data TEXT or --file F"))
    #expect(noMessage.error.contains("Try 'localauthctl rights --help'"))
    let unreadable = try runControlTool(
      ["rights", "sign", "v", "--reason", "r", "--file", "/nonexistent/msg"], socket: socket)
    #expect(unreadable.status == 2)
    #expect(unreadable.error.contains("cannot read /nonexistent/msg"))
    #expect(try runControlTool(["rights", "frob"], socket: socket).status == 2)
    #expect(
      try runControlTool(["handoff", "create", "--payload", "x"], socket: socket).status == 2)
    let help = try runControlTool(["rights", "sign", "--help"], socket: nil)
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("Usage: localauthctl rights save IDENTIFIER"))
    let unreachable = try runControlTool(["rights", "remove-all"], socket: socket)
    #expect(unreachable.status == 3)
  }

  @Test func theHandoffFlowWithExitStatuses() async throws {
    let daemon = try RunningDaemon()
    try daemon.start()
    try await daemon.script("face", ["DEFAULT MATCH"])
    let socket = daemon.socketPath
    func ctl(_ arguments: String...) throws -> ControlToolRun {
      try runControlTool(arguments, socket: socket)
    }

    let create = try ctl("handoff", "create", "--payload", "Pay 5 EUR to Bob", "--ttl", "60")
    #expect(create.status == 0, "\(create.error)")
    let id = create.output.trimmingCharacters(in: .newlines)
    #expect(!id.isEmpty && !id.contains(" "))

    let list = try ctl("handoff", "list")
    #expect(list.status == 0)
    #expect(list.output.hasPrefix("HANDOFF"))
    #expect(list.output.contains(id) && list.output.contains("Pay 5 EUR to Bob"))

    let early = try ctl("handoff", "redeem", id)
    #expect(early.status == 1)
    #expect(early.error.contains("error: authenticationFailed (-1)"))

    let authorize = try ctl(
      "handoff", "authorize", id, "--reason", "Pay 5 EUR to Bob?", "--policy", "biometrics")
    #expect(authorize.status == 0, "\(authorize.error)")
    #expect(authorize.output.hasPrefix("\(id): authorized"))
    let listed = try ctl("--json", "handoff", "list")
    let entry = try JSONParser.parse(Array(listed.output.utf8)).objectValue?["handoffs"]?
      .arrayValue?.first
    #expect(entry?.objectValue?["authorized"] == true)

    // Another app's handoff is one this app does not know: notFound, a wrong command line (2).
    #expect(try ctl("--app-id", "other", "handoff", "redeem", id).status == 2)
    let redeem = try ctl("handoff", "redeem", id)
    #expect(redeem.status == 0)
    #expect(redeem.output == "Pay 5 EUR to Bob\n")
    let reused = try ctl("--json", "handoff", "redeem", id)
    #expect(reused.status == 1)
    let error = try JSONParser.parse(Array(reused.output.utf8)).objectValue?["error"]?.objectValue
    #expect(error?["name"] == "invalidContext")

    let unknown = try ctl("handoff", "authorize", "no-such-id", "--reason", "x")
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("notFound"))
    #expect(try ctl("handoff", "list").output == "no pending handoffs\n")
  }
}
