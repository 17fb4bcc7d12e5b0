import LocalAuthClientCore
import LocalAuthProtocol

/// Parsing of the `rights` and `handoff` subcommands.
extension Arguments {
  mutating func rightsCommand() throws(UsageError) -> RightsCommand {
    let action = try action(RightsCommand.actions)
    switch action {
    case "save":
      let identifier = try operand("IDENTIFIER", of: action)
      var requirement = LAAuthenticationRequirement.default
      if let name = take("--requirement") {
        guard let named = RightsCommand.requirement(named: name) else {
          throw usage(
            "unknown requirement '\(name)'; use one of: default, biometry, biometry-passcode, biometryCurrentSet"
          )
        }
        requirement = named
      }
      let secret = try input(text: "--secret", file: "--secret-file")
      return .save(
        identifier: identifier, requirement: requirement, secret: secret,
        reason: try reason(for: action))
    case "show":
      let identifier = try operand("IDENTIFIER", of: action)
      let reason = try take("--reason").map { text throws(UsageError) in
        guard !text.isEmpty else { throw usage("--reason needs a non-empty localized reason") }
        return text
      }
      return .show(
        identifier: identifier, reason: reason ?? "Show the public key of \(identifier)",
        pemPath: try path("--out"))
    case "sign":
      let identifier = try operand("IDENTIFIER", of: action)
      let reason = try reason(for: action)
      guard let input = try input(text: "--data", file: "--file") else {
        throw usage("rights sign needs the message: --data TEXT or --file F")
      }
      return .sign(
        identifier: identifier, reason: reason, input: input, signaturePath: try path("--out"))
    case "secret":
      let identifier = try operand("IDENTIFIER", of: action)
      return .secret(
        identifier: identifier, reason: try reason(for: action), outputPath: try path("--out"))
    case "remove":
      return .remove(identifier: try operand("IDENTIFIER", of: action))
    default:
      return .removeAll
    }
  }

  mutating func handoffCommand() throws(UsageError) -> HandoffCommand {
    let action = try action(HandoffCommand.actions)
    switch action {
    case "create":
      guard let payload = take("--payload") else {
        throw usage("handoff create needs --payload TEXT")
      }
      guard let text = take("--ttl") else { throw usage("handoff create needs --ttl SECONDS") }
      guard let ttl = Int(text), (1...LAHandoffStore.maximumTTL).contains(ttl) else {
        throw usage(
          "--ttl must be a whole number of seconds from 1 to \(LAHandoffStore.maximumTTL), not '\(text)'"
        )
      }
      return .create(payload: payload, ttl: ttl)
    case "list":
      return .list
    case "authorize":
      let id = try operand("ID", of: action)
      let reason = try reason(for: action)
      var policy = LAPolicy.deviceOwnerAuthentication
      if let text = take("--policy") {
        guard let named = Policy(name: text) ?? PolicyNames.policy(forShortName: text) else {
          throw usage("unknown policy '\(text)'; use one of: \(PolicyNames.all)")
        }
        policy = named
      }
      return .authorize(id: id, reason: reason, policy: policy)
    default:
      return .redeem(id: try operand("ID", of: action))
    }
  }

  /// The action word after `rights` or `handoff`.
  mutating func action(_ actions: [String], refused: [String] = []) throws(UsageError) -> String {
    let list = actions.joined(separator: ", ")
    guard !values.isEmpty else { throw usage("\(subcommand) needs ACTION (\(list))") }
    let action = values.removeFirst()
    guard actions.contains(action) || refused.contains(action) else {
      throw usage("unknown \(subcommand) action '\(action)'; use one of: \(list)")
    }
    return action
  }

  /// A positional operand of an action ("rights sign needs IDENTIFIER").
  mutating func operand(_ what: String, of action: String) throws(UsageError) -> String {
    guard !values.isEmpty, !values[0].isEmpty else {
      throw usage("\(subcommand) \(action) needs \(what)")
    }
    return values.removeFirst()
  }

  /// Removes and returns a valued flag.
  mutating func take(_ flag: String) -> String? {
    guard case let value?? = flags.removeValue(forKey: flag) else { return nil }
    return value
  }

  /// The required `--reason TEXT`.
  private mutating func reason(for action: String) throws(UsageError) -> String {
    guard let reason = take("--reason"), !reason.isEmpty else {
      throw usage("\(subcommand) \(action) needs --reason TEXT (a non-empty localized reason)")
    }
    return reason
  }

  /// An optional file path flag (`--out F`).
  private mutating func path(_ flag: String) throws(UsageError) -> String? {
    guard let path = take(flag) else { return nil }
    guard !path.isEmpty else { throw usage("\(flag) needs a file path") }
    return path
  }

  /// One of a text flag and a file flag, or neither.
  private mutating func input(text: String, file: String) throws(UsageError) -> InputSource? {
    switch (take(text), try path(file)) {
    case (let value?, nil): return .text(value)
    case (nil, let path?): return .file(path)
    case (nil, nil): return nil
    case (_?, _?): throw usage("\(text) and \(file) cannot be used together")
    }
  }
}
