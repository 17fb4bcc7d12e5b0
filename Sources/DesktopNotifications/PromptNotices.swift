import Dispatch
import LocalAuthClientCore
import LocalAuthProtocol
import Synchronization

/// The notifications a prompt agent keeps on the desktop: fed the agent's notifications, it shows
/// what `NoticePolicy` says (an SSH signature's prompt, a wait no agent shows) and closes each
/// notice when its evaluation ends (`agent.ended`, `agent.waitEnded`). At most `maxOpen` are
/// tracked (the oldest is closed first), whatever the daemon sends. Sendable; its calls block on
/// the bus as `SessionNotifier`'s do.
public final class PromptNotices: Sendable {
  /// The most notices open at once.
  public static let maxOpen = 8

  private let notifier: SessionNotifier
  /// Where `follow` handles notifications: one at a time, in order, off the cooperative pool.
  private let queue = DispatchQueue(label: "localauthd.prompt-notices")
  /// requestID → notification id, oldest first.
  private let open = Mutex<[(requestID: String, id: UInt32)]>([])

  /// Notices shown through `notifier`.
  public init(notifier: SessionNotifier) { self.notifier = notifier }

  /// The requestIDs with a notice open, oldest first.
  public var openRequests: [String] { open.withLock { $0.map(\.requestID) } }

  /// Handles one agent notification (`method`, `params`): `agent.prompt` and `agent.waiting` may
  /// show a notice, `agent.ended` and `agent.waitEnded` close theirs; anything else is ignored.
  public func handle(method: String, params: JSONObject) {
    switch method {
    case AgentPromptNotification.method:
      guard let event = AgentPromptEvent(object: params),
        let notice = NoticePolicy.notice(for: event)
      else { return }
      show(notice, for: event.requestID)
    case AgentWaitingNotification.method:
      guard let event = AgentWaitingEvent(object: params) else { return }
      show(NoticePolicy.notice(for: event), for: event.requestID)
    case AgentEndedNotification.method:
      if let event = AgentEndedEvent(object: params) { ended(requestID: event.requestID) }
    case AgentWaitEndedNotification.method:
      if let event = AgentWaitEndedEvent(object: params) { ended(requestID: event.requestID) }
    default: return
    }
  }

  /// Follows an agent's notifications as sent (`LAPromptAgent.notificationsAsSent()`) until the
  /// stream ends, handling each on a serial queue of its own, so that a slow notification server
  /// never blocks the cooperative pool; the task ends with the stream.
  public func follow(_ notifications: AsyncStream<LAAgentNotification>) -> Task<Void, Never> {
    Task {
      for await notification in notifications {
        queue.async { self.handle(notification) }
      }
    }
  }

  /// Handles one agent notification as `LAPromptAgent.notificationsAsSent()` gives it.
  public func handle(_ notification: LAAgentNotification) {
    handle(method: notification.method, params: notification.params)
  }

  /// Shows `notice` for the evaluation `requestID` (replacing one it had).
  public func show(_ notice: DesktopNotice, for requestID: String) {
    ended(requestID: requestID)
    guard let id = notifier.notify(notice) else { return }
    let evicted: [UInt32] = open.withLock { open in
      open.append((requestID, id))
      let extra = max(0, open.count - Self.maxOpen)
      defer { open.removeFirst(extra) }
      return open.prefix(extra).map(\.id)
    }
    for id in evicted { notifier.close(id) }
  }

  /// Closes the notice of the evaluation `requestID`, if it has one.
  public func ended(requestID: String) {
    let id: UInt32? = open.withLock { open in
      guard let index = open.firstIndex(where: { $0.requestID == requestID }) else { return nil }
      return open.remove(at: index).id
    }
    if let id { notifier.close(id) }
  }
}
