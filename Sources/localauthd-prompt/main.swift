import DesktopNotifications
import DesktopPrompt
import Glibc
import LocalAuthClientCore
import LocalAuthProtocol

// localauthd-prompt: the desktop prompt agent (docs/owners-and-agents.md, "The desktop prompt").
// It links no GTK: its windows are drawn by localauthd-prompt-window, started while a prompt shows
// (WindowProcess). Exit status: 0 stopped by a signal, 1 refused (another agent serves the scope)
// or the daemon went away, 2 usage, 3 cannot connect, 4 no display.
let options: PromptOptions
do {
  options = try PromptOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  Log.note("\(error.message)\n\n\(PromptOptions.usage)")
  exit(2)
}
if options.help {
  print(PromptOptions.usage)
  exit(0)
}
if options.version {
  print(PromptOptions.versionText)
  exit(0)
}
// The window process opens the display; here only whether the session names one.
let displayVariables: [String] = ["WAYLAND_DISPLAY", "DISPLAY"]
guard displayVariables.contains(where: { name in getenv(name).map { $0.pointee != 0 } ?? false })
else {
  Log.note("cannot open a display: neither WAYLAND_DISPLAY nor DISPLAY names one")
  exit(4)
}
// SIGTERM, SIGINT, SIGHUP: stopped, status 0 (write(2) and _exit(2) only: async-signal-safe). The
// window process, if one runs, sees its input end and exits.
for stopSignal in [SIGTERM, SIGINT, SIGHUP] {
  signal(stopSignal) { _ in
    let line: StaticString = "localauthd-prompt: stopped\n"
    _ = write(STDERR_FILENO, line.utf8Start, line.utf8CodeUnitCount)
    _exit(0)
  }
}

let connection = LocalAuthConnection(
  socketPath: options.socketPath, identity: ClientIdentity(name: "localauthd-prompt"))
let agent = LAPromptAgent(connection: connection)
let registered:
  (
    registration: LAAgentRegistration, events: AsyncStream<LAAgentEvent>, scope: PromptOptions.Scope
  )
// Desktop notifications (docs/owners-and-agents.md, "Notifications"): every SSH signature that needs
// presence and every wait no agent shows, each closed when its evaluation ends; none without a
// session bus. Followed before registering, so that the first prompt is in it.
let notices: Task<Void, Never>?
do {
  if let notifier = try? SessionNotifier() {
    notices = PromptNotices(notifier: notifier).follow(try agent.notificationsAsSent())
  } else {
    Log.note("no session bus: no desktop notifications")
    notices = nil
  }
  registered = try await PromptRegistration.register(agent, scope: options.scope) { Log.note($0) }
} catch let error as ConnectionError {
  Log.note("cannot connect to localauthd: \(error)")
  exit(3)
} catch let error as RPCError {
  Log.note(error.message)
  exit(1)
}

let screen = PromptScreen(agent: agent)
Log.note(
  "showing prompts for \(PromptText.sanitize(registered.registration.user, limit: 64)) "
    + "(\(registered.registration.agent), scope \(registered.scope.rawValue))")
for await event in registered.events { screen.apply(event) }
Log.note("the connection to localauthd was lost")
exit(1)
