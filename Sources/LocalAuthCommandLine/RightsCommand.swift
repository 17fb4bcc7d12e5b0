import LocalAuthClientCore
import LocalAuthProtocol

/// Where a command's input bytes come from: the argument's UTF-8 text or a file's contents.
public enum InputSource: Sendable, Equatable {
  /// `--data TEXT`, `--secret TEXT`: the text's UTF-8 bytes.
  case text(String)
  /// `--file F`, `--secret-file F`: the file's bytes, read before connecting.
  case file(String)
}

/// `localauthctl rights ACTION ...`. Each command runs on its own connection, so every action
/// that uses a key or secret authorizes the right first (one prompt).
public enum RightsCommand: Sendable, Equatable {
  /// `rights save IDENTIFIER --reason TEXT [--requirement R] [--secret TEXT | --secret-file F]`.
  case save(
    identifier: String, requirement: LAAuthenticationRequirement, secret: InputSource?,
    reason: String)
  /// `rights show IDENTIFIER [--reason TEXT] [--out F]`: the public key, after authorizing (PEM to F).
  case show(identifier: String, reason: String, pemPath: String?)
  /// `rights sign IDENTIFIER --reason TEXT (--data TEXT | --file F) [--out F]`.
  case sign(identifier: String, reason: String, input: InputSource, signaturePath: String?)
  /// `rights secret IDENTIFIER --reason TEXT [--out F]`.
  case secret(identifier: String, reason: String, outputPath: String?)
  /// `rights remove IDENTIFIER`.
  case remove(identifier: String)
  /// `rights remove-all`.
  case removeAll

  /// The action names, as `rights --help` lists them.
  public static let actions = ["save", "show", "sign", "secret", "remove", "remove-all"]

  /// The requirement names `--requirement` accepts, with what they mean.
  public static let requirements: [(String, LAAuthenticationRequirement)] = [
    ("default", .default), ("biometry", .biometry),
    ("biometry-passcode", .biometry(fallback: .devicePasscode)),
    ("biometryCurrentSet", .biometryCurrentSet), ("biometry-current-set", .biometryCurrentSet),
  ]

  /// The requirement named on the command line.
  public static func requirement(named name: String) -> LAAuthenticationRequirement? {
    requirements.first { $0.0 == name }?.1
  }

  /// The command-line name of a requirement ("biometry-passcode").
  public static func name(of requirement: LAAuthenticationRequirement) -> String {
    requirements.first { $0.1 == requirement }?.0 ?? requirement.name
  }
}

/// `localauthctl handoff ACTION ...`.
public enum HandoffCommand: Sendable, Equatable {
  /// `handoff create --payload TEXT --ttl SECONDS`: prints the new id.
  case create(payload: String, ttl: Int)
  /// `handoff list`.
  case list
  /// `handoff authorize ID --reason TEXT [--policy P]`.
  case authorize(id: String, reason: String, policy: LAPolicy)
  /// `handoff redeem ID`: prints the payload.
  case redeem(id: String)

  /// The action names, as `handoff --help` lists them.
  public static let actions = ["create", "list", "authorize", "redeem"]
}
