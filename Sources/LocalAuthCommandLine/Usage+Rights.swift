/// The help texts of the `rights` and `handoff` subcommands.
extension Usage {
  /// `localauthctl rights --help`.
  public static let rights = """
    Usage: localauthctl rights save IDENTIFIER --reason TEXT [--requirement R] [--secret TEXT | --secret-file F]
           localauthctl rights show IDENTIFIER [--reason TEXT] [--out F]
           localauthctl rights sign IDENTIFIER --reason TEXT (--data TEXT | --file F) [--out F]
           localauthctl rights secret IDENTIFIER --reason TEXT [--out F]
           localauthctl rights remove IDENTIFIER
           localauthctl rights remove-all

    Persisted rights of this user and app id (see --app-id). Each one owns a P-256 key pair
    whose private half never leaves the daemon. save, show, sign and secret prompt once
    (the right is authorized with --reason before its key or secret is used).

      save        Authorize a new right and save it with its key pair (and a secret);
                  prints the public key
      show        Print the public key: X9.63 and DER as base64, and PEM
      sign        Sign the message (ECDSA P-256, SHA-256); prints the DER signature as base64
      secret      Print the secret (text, or base64: when it is not printable)
      remove      Remove the right saved under IDENTIFIER
      remove-all  Remove every right of this app id

      --reason TEXT        The localized reason shown in the prompt
      --requirement R      default (biometry or passcode), biometry, biometry-passcode
                           (biometry, passcode fallback) or biometryCurrentSet
      --secret TEXT        A secret to store with the right (--secret-file F: a file's bytes)
      --data TEXT          The message to sign (--file F: a file's bytes)
      --out F              show: write the PEM; sign: the raw DER signature; secret: the raw bytes

    Example:
      localauthctl rights save vault --reason "Create the vault key"
      localauthctl rights show vault --out pub.pem
      localauthctl rights sign vault --reason "Sign" --file msg.txt --out sig.der
      openssl dgst -sha256 -verify pub.pem -signature sig.der msg.txt
    """

  /// `localauthctl handoff --help`.
  public static let handoff = """
    Usage: localauthctl handoff create --payload TEXT --ttl SECONDS
           localauthctl handoff list
           localauthctl handoff authorize ID --reason TEXT [--policy POLICY]
           localauthctl handoff redeem ID

    Deferred authorization: a client that cannot prompt creates a pending authorization,
    an interactive client of the same user authorizes it, and the creating app id redeems it once.

      create     Create a pending authorization; prints its id
      list       List this user's pending authorizations with their payloads
      authorize  Authorize one by evaluating POLICY (default: owner) with a prompt
      redeem     Redeem an authorized one (creating app id only, once); prints the payload

      --payload TEXT   What is being authorized, shown by list ("Pay 5 EUR to Bob")
      --ttl SECONDS    How long it stays usable, 1-86400
      --reason TEXT    The localized reason shown in the prompt
      --policy POLICY  The policy to evaluate (see localauthctl --help)
    """
}
