/// The help texts of the `ssh-key` and `ssh-agent` subcommands.
extension Usage {
  /// `localauthctl ssh-key --help`.
  public static let sshKey = """
    Usage: localauthctl ssh-key create NAME [--reuse SECONDS] [--keep-on-lock]
                                  [--policy biometrics|any]
           localauthctl ssh-key list [--json]
           localauthctl ssh-key public NAME
           localauthctl ssh-key delete NAME

    Your SSH keys in localauthd: ECDSA P-256 keys owned by your uid, sealed in the daemon's
    store. The private key never leaves the daemon; every signature (through ssh-agent below)
    needs your presence, unless the key's reuse window is open after a biometric match.

      create   Make a key; prints its public key line (ecdsa-sha2-nistp256 AAAA… NAME)
      list     Name, fingerprint, policy, reuse window, created and last used
      public   Print the public key line again
      delete   Delete the key (it cannot be recovered)

    Keys are made here only: importing one is refused (a key made elsewhere may have copies).

      --reuse SECONDS   After a biometric match, further signatures with this key pass without a
                        capture for SECONDS (0-3600, default 0: every signature asks)
      --keep-on-lock    Keep that window open when the session locks, the machine suspends or
                        you log out (by default each of them closes it)
      --policy P        biometrics (default) or any (biometrics or the passcode)
    """

  /// `localauthctl ssh-agent --help`.
  public static let sshAgent = """
    Usage: localauthctl ssh-agent [--listen PATH]

    Serve the SSH agent protocol in the foreground with your localauthd keys, for ssh, git and
    ssh-keygen -Y (export SSH_AUTH_SOCK=PATH). Each signature is an evaluation whose reason names
    the host ("ssh: sign in to HOST (SHA256:…) as USER") or the file namespace; a no-match, a
    cancel or a lockout answers SSH_AGENT_FAILURE ("agent refused operation"). Adding, removing
    and locking identities are refused.

      --listen PATH   The socket to make: mode 0600 in a directory of yours with mode 0700
                      (anything else is refused). Without it, the socket systemd passes
                      (systemctl --user enable --now localauthd-ssh-agent.socket).
    """
}
