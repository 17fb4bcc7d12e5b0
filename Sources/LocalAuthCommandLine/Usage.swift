import LocalAuthProtocol

/// localauthctl's help texts.
public enum Usage {
  /// The overview shown by `localauthctl --help` and after a usage error without a subcommand.
  public static let overview = """
    Usage: localauthctl [--socket PATH] [--app-id ID] [--json] COMMAND [ARGS...]

    Control and observe localauthd, the LocalAuthentication broker.

    Commands:
      status                         Show the broker's counters
      can-evaluate POLICY            Check whether POLICY can be evaluated (no prompt)
      evaluate POLICY --reason TEXT  Evaluate POLICY, printing progress and the outcome
      cancel REQUEST-ID              Cancel a queued or running evaluation
      monitor                        Follow evaluation events machine-wide
      sensors                        List sensors, enrolled identities and lockout state
      sim SENSOR COMMAND...          Script a simulated sensor (MATCH, NOMATCH, CANCEL, ...)
      enroll SENSOR IDENTITY         Enroll an identity
      unenroll SENSOR IDENTITY       Remove an enrolled identity
      passcode set DIGITS|clear      Set or clear a passcode (yours with --old, anyone's as admin)
      agent [--session|--process PID] Show your authentication prompts in this terminal
      agent --list [--user USER]     List the registered prompt agents (pid, scope, since)
      reset-lockout                  Clear the biometric lockout
      rights ACTION ...              Persisted rights: save, show, sign, secret, remove, remove-all
      handoff ACTION ...             Deferred authorizations: create, list, authorize, redeem
      ssh-key ACTION ...             SSH keys in the daemon: create, list, public, delete
      ssh-agent [--listen PATH]      Serve the SSH agent protocol with your localauthd keys
      doctor [--app ID]              Explain re-prompts, overlapping prompts and context churn
      trace [--app ID | --pid PID]   A client's evaluations as a timeline (--json: a trace file)
      replay TRACE                   Script the sensors to answer as in a trace file
      login drop-password USER       Drop the login password kept for USER's keyring (root)
      socket                         Print the socket path it connects to (sends nothing)
      help [COMMAND]                 Show help

    Options:
      --socket PATH   The daemon's socket (default: $LOCALAUTHD_SOCKET, else where a
                      localauthd started by you binds ($XDG_RUNTIME_DIR/localauthd/localauthd.sock
                      or /tmp/localauthd-UID/localauthd.sock) if it is there, else the
                      service's /run/localauthd/localauthd.sock)
      --app-id ID     The app id that scopes persisted rights and handoffs (default: localauthctl)
      --json          Machine-readable output, one JSON object per line
      -h, --help      Show help (also after a command)
      --version       Print the version

    Policies: biometrics, owner, companion, biometrics-or-companion, wrist,
    Apple's LAPolicy names (deviceOwnerAuthentication, ...) or raw values 1-5.

    Exit status: 0 success, 1 authentication failure (error name printed),
    2 usage error (also a request the daemon refuses as wrong: bad params, an unknown
    name), 3 cannot connect to the daemon.
    """

  /// What `localauthctl --version` prints.
  public static let version = "localauthctl \(localauthdVersion) (protocol \(protocolVersion))"

  /// The help of one subcommand.
  public static func help(for subcommand: String) -> String {
    switch subcommand {
    case "socket":
      "Usage: localauthctl socket\n\nPrint the socket path localauthctl and LocalAuthClient connect to, without connecting."
    case "status":
      "Usage: localauthctl status\n\nShow version, uptime, clients, running and queued evaluations, and outcome counts."
    case "can-evaluate":
      "Usage: localauthctl can-evaluate POLICY\n\nCheck without a prompt whether POLICY can be evaluated; prints the biometry type,\nor the LAError that an evaluation would end with (exit status 1)."
    case "evaluate":
      """
      Usage: localauthctl evaluate POLICY --reason TEXT [--context-reuse SECONDS] [--non-interactive]

      Evaluate POLICY, printing progress (queued, prompt shown, feedback, fallback) and the outcome.
      Ctrl-C cancels the evaluation (appCancel).

        --reason TEXT            The localized reason shown in the prompt (required)
        --context-reuse SECONDS  touchIDAuthenticationAllowableReuseDuration, 0-300
        --non-interactive        Declare this client non-interactive (expect notInteractive)
      """
    case "cancel":
      "Usage: localauthctl cancel REQUEST-ID\n\nCancel a queued or running evaluation; it ends with appCancel."
    case "monitor":
      "Usage: localauthctl monitor\n\nFollow queued/started/feedback/fallback/finished events until interrupted."
    case "sensors":
      "Usage: localauthctl sensors\n\nList sensors with kind, availability, enrolled identities, lockout, failed attempts, and for\nsimulated sensors the default answer (DEFAULT) and the queued script (QUEUED)."
    case "sim":
      """
      Usage: localauthctl sim SENSOR COMMAND... [--replace]

      Queue script commands on a simulated sensor. Each upper-case keyword starts a command:
        localauthctl sim face NOMATCH NOMATCH MATCH
        localauthctl sim face SLEEP 500 CANCEL
        localauthctl sim passcode PASSCODE 1234
      Commands: MATCH [identity], NOMATCH, RETRY reason, CANCEL, FALLBACK, PASSCODE digits,
      SLEEP ms, DISCONNECT, CONNECT, ENROLL identity, UNENROLL identity, DEFAULT MATCH|NOMATCH|WAIT.

        --replace   Replace what is queued instead of appending
      """
    case "enroll":
      "Usage: localauthctl enroll SENSOR IDENTITY\n\nEnroll IDENTITY on SENSOR (changes the domain state)."
    case "unenroll":
      "Usage: localauthctl unenroll SENSOR IDENTITY\n\nRemove IDENTITY from SENSOR (changes the domain state)."
    case "passcode":
      """
      Usage: localauthctl passcode set DIGITS [--old DIGITS] [--user USER]
             localauthctl passcode clear [--old DIGITS] [--user USER]

      Set (4-16 digits) or clear a passcode. You set your own, proving the current one with --old once
      one is set; root and the admin group set anyone's with --user (an account name or uid).
      """
    case "agent":
      """
      Usage: localauthctl agent [--session | --process PID]
             localauthctl agent --list [--user USER]

      Be your user's prompt agent in this terminal, like pkttyagent: each authentication prompt for
      you shows the app, the reason and the sensor. Type the passcode when asked (nothing is echoed)
      and press Enter; Esc or Ctrl-C cancels the prompt; f takes the fallback (the passcode) once offered.
      Face ID stops trying after its second failed match: the prompt then waits for f or Esc.
      Prompts are served one after another. Ctrl-C with no prompt shown, or SIGTERM, stops the agent.
      --session shows only prompts from your logind session; --process PID only from that process.
      One agent serves each scope: a second one for the same scope is refused (the first keeps
      serving). System authentication (sudo, su, polkit) never reaches an agent.
      --list shows your agents (root and the admin group: USER's): pid, scope, since when.
      """
    case "login":
      "Usage: localauthctl login drop-password USER\n\nDrop the login password localauthd keeps for USER's keyring after a login by finger or face\n(pam_localauthd's keep_password; root only). USER is a name or a uid."
    case "reset-lockout":
      "Usage: localauthctl reset-lockout [--user USER]\n\nClear the biometric lockout and failed-attempt counters (yours, or USER's)."
    case "rights": rights
    case "handoff": handoff
    case "ssh-key": sshKey
    case "ssh-agent": sshAgent
    case "doctor", "trace", "replay": diagnostics(subcommand)
    default: overview
    }
  }
}
