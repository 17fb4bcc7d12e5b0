import CPromptWindow
import DesktopNotifications
import DesktopPrompt
import Glibc
import LocalAuthClientCore
import LocalAuthConcurrency
import LocalAuthProtocol

// localauthd-prompt: the desktop prompt agent (docs/owners-and-agents.md, "The desktop prompt").
// Exit status: 0 stopped by a signal, 1 refused (another agent serves the scope) or the daemon went
// away, 2 usage, 3 cannot connect, 4 no display.

// Few threads, mostly idle: two malloc arenas are enough (set before any thread starts).
prompt_memory_limit_arenas()
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
guard prompt_display_open() == 0 else {
  Log.note("cannot open a display: neither WAYLAND_DISPLAY nor DISPLAY names one that answers")
  exit(4)
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

let loop = LoopThread()
let screen = PromptScreen(agent: agent, loop: loop)
let events = registered.events
Task.detached {
  for await event in events { screen.deliver(.event(event)) }
  screen.deliver(.disconnected)
}
Log.note(
  "showing prompts for \(PromptText.sanitize(registered.registration.user, limit: 64)) "
    + "(\(registered.registration.agent), scope \(registered.scope.rawValue))")
prompt_loop_run()
if screen.lostConnection {
  Log.note("the connection to localauthd was lost")
  exit(1)
}
Log.note("stopped")
exit(0)
