import LocalAuthProtocol

/// Which agent events give a desktop notification, and its words (docs/owners-and-agents.md,
/// "Notifications"), as values: no bus, no state. Every fact it names comes from what the daemon
/// verified (an SSH signature's host and key, a wait's sensor); a client's own words (its name, its
/// reason) appear only in the body, cut, and the notifier sanitizes and escapes everything.
public enum NoticePolicy {
  /// The longest client-chosen name or reason quoted, in scalars.
  static let maxQuoted = 128

  /// The notice for a prompt: every SSH signature that needs presence ("ssh: sign in to HOST —
  /// touch the fingerprint sensor"); nil for any other prompt (the window shows it).
  public static func notice(for prompt: AgentPromptEvent) -> DesktopNotice? {
    guard let ssh = prompt.ssh else { return nil }
    let action = Self.action(sensorKind: prompt.sensorKind)
    let what: String
    switch ssh.kind {
    case .login:
      if let host = ssh.host ?? ssh.hostKey {
        what = "ssh: sign in to \(quoted(host))"
      } else {
        what = "ssh: sign in (host not bound)"
      }
    case .file:
      what = "git/ssh-keygen: sign a file (namespace \(quoted(ssh.namespace ?? "?")))"
    case .remoteSudo:
      what = "ssh: a server's sudo asks for key \(quoted(ssh.key))"
    case .data:
      what = "ssh: sign with key \(quoted(ssh.key))"
    }
    var body = "Key \(quoted(ssh.key))"
    if ssh.kind == .login, ssh.host != nil, let hostKey = ssh.hostKey {
      body += ", host key \(quoted(hostKey))"
    }
    body += "; asked by \(quoted(prompt.clientName)) (pid \(prompt.clientPID))."
    return DesktopNotice(summary: "\(what) — \(action)", body: body)
  }

  /// The notice for an evaluation that waits on a sensor no agent shows (sudo, polkit): "touch the
  /// fingerprint sensor", with who asks and why.
  public static func notice(for waiting: AgentWaitingEvent) -> DesktopNotice {
    let who = waiting.system ? "System authentication" : "An app"
    let summary = "\(who) waits for you — \(action(sensorKind: waiting.sensorKind))"
    let body =
      "\(quoted(waiting.localizedReason)) — asked by \(quoted(waiting.clientName))"
      + " (pid \(waiting.clientPID)) for \(quoted(waiting.user)), on sensor \(quoted(waiting.sensor))."
    return DesktopNotice(summary: summary, body: body)
  }

  /// What the person does at a sensor of this kind.
  public static func action(sensorKind: String?) -> String {
    switch sensorKind {
    case "faceID": "look at the camera"
    case "opticID": "look at the sensor"
    case "passcode": "enter your password in the prompt"
    case "companion": "confirm on your paired device"
    default: "touch the fingerprint sensor"
    }
  }

  /// A name or reason as quoted in a notice: sanitized and cut.
  static func quoted(_ text: String) -> String {
    PromptText.sanitize(text, limit: maxQuoted)
  }
}
