import LocalAuthClient
import LocalAuthCommandLine
import LocalAuthProtocol
import Testing

@Suite struct RightsCommandParserTests {
  func command(_ arguments: String...) throws -> Command {
    try CommandParser.parse(arguments).command
  }

  @Test func parsesTheRightsActions() throws {
    #expect(
      try command(
        "rights", "save", "vault", "--reason", "Make it", "--requirement", "biometry-passcode",
        "--secret", "s")
        == .rights(
          .save(
            identifier: "vault", requirement: .biometry(fallback: .devicePasscode),
            secret: .text("s"),
            reason: "Make it")))
    #expect(
      try command("rights", "save", "vault", "--reason=r", "--secret-file", "key.bin")
        == .rights(
          .save(identifier: "vault", requirement: .default, secret: .file("key.bin"), reason: "r")))
    #expect(
      try command("rights", "save", "v", "--reason", "r", "--requirement", "biometryCurrentSet")
        == .rights(
          .save(identifier: "v", requirement: .biometryCurrentSet, secret: nil, reason: "r")))
    #expect(
      try command("rights", "show", "vault")
        == .rights(.show(identifier: "vault", reason: "Show the public key of vault", pemPath: nil))
    )
    #expect(
      try command("rights", "show", "vault", "--reason", "Look", "--out", "pub.pem")
        == .rights(.show(identifier: "vault", reason: "Look", pemPath: "pub.pem")))
    #expect(
      try command(
        "rights", "sign", "vault", "--reason", "Sign", "--data", "pay 5", "--out", "sig.der")
        == .rights(
          .sign(
            identifier: "vault", reason: "Sign", input: .text("pay 5"), signaturePath: "sig.der")))
    #expect(
      try command("rights", "sign", "vault", "--file", "msg", "--reason", "Sign")
        == .rights(
          .sign(identifier: "vault", reason: "Sign", input: .file("msg"), signaturePath: nil)))
    #expect(
      try command("rights", "secret", "vault", "--reason", "Read")
        == .rights(.secret(identifier: "vault", reason: "Read", outputPath: nil)))
    #expect(try command("rights", "remove", "vault") == .rights(.remove(identifier: "vault")))
    #expect(try command("rights", "remove-all") == .rights(.removeAll))
  }

  @Test func parsesTheHandoffActionsAndTheAppID() throws {
    let invocation = try CommandParser.parse([
      "--app-id", "siri", "handoff", "create", "--payload", "Pay", "--ttl", "60",
    ])
    #expect(invocation.options == GlobalOptions(appID: "siri"))
    #expect(invocation.command == .handoff(.create(payload: "Pay", ttl: 60)))
    #expect(try command("handoff", "list") == .handoff(.list))
    #expect(
      try command("handoff", "authorize", "H1", "--reason", "Pay?")
        == .handoff(.authorize(id: "H1", reason: "Pay?", policy: .deviceOwnerAuthentication)))
    #expect(
      try command("handoff", "authorize", "H1", "--reason", "Pay?", "--policy", "biometrics")
        == .handoff(
          .authorize(id: "H1", reason: "Pay?", policy: .deviceOwnerAuthenticationWithBiometrics)))
    #expect(try command("handoff", "redeem", "H1") == .handoff(.redeem(id: "H1")))
  }

  @Test func helpCoversTheNewSubcommands() throws {
    #expect(try command("rights", "--help") == .help(subcommand: "rights"))
    #expect(try command("rights", "sign", "-h") == .help(subcommand: "rights"))
    #expect(try command("help", "handoff") == .help(subcommand: "handoff"))
    #expect(
      Usage.help(for: "handoff").hasPrefix(
        "Usage: localauthctl handoff create --payload TEXT --ttl SECONDS"))
    #expect(Usage.overview.contains("rights ACTION ..."))
  }

  @Test(arguments: [
    (["rights"], "rights needs ACTION (save, show, sign, secret, remove, remove-all)"),
    (
      ["rights", "list"],
      "unknown rights action 'list'; use one of: save, show, sign, secret, remove, remove-all"
    ),
    (["rights", "save"], "rights save needs IDENTIFIER"),
    (["rights", "save", "v"], "rights save needs --reason TEXT (a non-empty localized reason)"),
    (
      ["rights", "save", "v", "--reason", "r", "--requirement", "face"],
      "unknown requirement 'face'; use one of: default, biometry, biometry-passcode, biometryCurrentSet"
    ),
    (
      ["rights", "save", "v", "--reason", "r", "--secret", "s", "--secret-file", "f"],
      "--secret and --secret-file cannot be used together"
    ),
    (
      ["rights", "sign", "v", "--reason", "r"],
      "rights sign needs the message: --data TEXT or --file F"
    ),
    (
      ["rights", "sign", "v", "--reason", "r", "--data", "x", "--file", "f"],
      "--data and --file cannot be used together"
    ),
    (
      ["rights", "sign", "v", "--data", "x"],
      "rights sign needs --reason TEXT (a non-empty localized reason)"
    ),
    (
      ["rights", "sign", "v", "--reason", "r", "--data", "x", "--out", ""],
      "--out needs a file path"
    ),
    (
      ["rights", "secret", "v"], "rights secret needs --reason TEXT (a non-empty localized reason)"
    ),
    (["rights", "show", "v", "--reason", ""], "--reason needs a non-empty localized reason"),
    (["rights", "remove"], "rights remove needs IDENTIFIER"),
    (["rights", "remove", "v", "--reason", "r"], "--reason does not apply to rights"),
    (["rights", "remove-all", "extra"], "unexpected argument 'extra'"),
    (["handoff"], "handoff needs ACTION (create, list, authorize, redeem)"),
    (["handoff", "create", "--ttl", "5"], "handoff create needs --payload TEXT"),
    (["handoff", "create", "--payload", "p"], "handoff create needs --ttl SECONDS"),
    (
      ["handoff", "create", "--payload", "p", "--ttl", "0"],
      "--ttl must be a whole number of seconds from 1 to 86400, not '0'"
    ),
    (
      ["handoff", "create", "--payload", "p", "--ttl", "1.5"],
      "--ttl must be a whole number of seconds from 1 to 86400, not '1.5'"
    ),
    (
      ["handoff", "authorize", "H"],
      "handoff authorize needs --reason TEXT (a non-empty localized reason)"
    ),
    (
      ["handoff", "authorize", "H", "--reason", "r", "--policy", "face"],
      "unknown policy 'face'; use one of: \(PolicyNames.all)"
    ),
    (["handoff", "redeem"], "handoff redeem needs ID"),
    (["--app-id", "", "status"], "--app-id needs a non-empty id"),
  ])
  func rejectsWrongArguments(arguments: [String], message: String) {
    do {
      _ = try CommandParser.parse(arguments)
      Issue.record("\(arguments) parsed")
    } catch {
      #expect(error.message == message)
    }
  }
}
