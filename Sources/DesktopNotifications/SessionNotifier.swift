import CNotificationsBus
import Synchronization

/// Why the session bus could not be reached.
public struct SessionBusError: Error, Sendable, Equatable {
  /// The negative errno sd-bus gave.
  public var errno: Int32
  /// An error with sd-bus's negative errno.
  public init(errno: Int32) { self.errno = errno }
}

/// A client of the desktop's notification server (`org.freedesktop.Notifications` on the user's
/// session bus, the Desktop Notifications Specification) through sd-bus: it shows a notice and
/// closes it. Sendable: one bus connection behind a lock; each call blocks for at most `timeout`,
/// so call it from a thread or queue of your own, not from a toolkit's main loop.
public final class SessionNotifier: Sendable {
  /// The app name every notification carries.
  public static let appName = "localauthd"

  /// The sd-bus connection; every use holds the lock (sd-bus is not thread-safe).
  private let bus: Mutex<OpaquePointer?>
  private let timeoutMicroseconds: UInt64

  /// Opens the session bus at `address` (a D-Bus address), or the user's own when nil
  /// (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`); `timeout` bounds each call.
  public init(address: String? = nil, timeout: Duration = .seconds(2)) throws(SessionBusError) {
    var opened: OpaquePointer?
    let r = address.map { ldn_session_bus_open($0, &opened) } ?? ldn_session_bus_open(nil, &opened)
    guard r >= 0, let opened else { throw SessionBusError(errno: r) }
    bus = Mutex(opened)
    let (seconds, attoseconds) = timeout.components
    timeoutMicroseconds =
      UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000_000)
  }

  deinit {
    bus.withLock { bus in
      if let bus { ldn_bus_close(bus) }
      bus = nil
    }
  }

  /// Shows a notification from "localauthd" (`Notify`); its id, or nil when the server did not
  /// answer. The summary is sanitized, the body sanitized and markup-escaped (`NotificationMarkup`).
  public func notify(summary: String, body: String, urgency: DesktopNotice.Urgency = .critical)
    -> UInt32?
  {
    let summary = NotificationMarkup.summary(summary)
    let body = NotificationMarkup.body(body)
    return bus.withLock { bus -> UInt32? in
      guard let bus else { return nil }
      var id: UInt32 = 0
      let r = ldn_notify(
        bus, Self.appName, summary, body, urgency.rawValue, timeoutMicroseconds, &id)
      return r < 0 ? nil : id
    }
  }

  /// Shows `notice`; its id, or nil.
  public func notify(_ notice: DesktopNotice) -> UInt32? {
    notify(summary: notice.summary, body: notice.body, urgency: notice.urgency)
  }

  /// Closes the notification `id` (`CloseNotification`); whether the server answered.
  @discardableResult
  public func close(_ id: UInt32) -> Bool {
    bus.withLock { bus in
      guard let bus else { return false }
      return ldn_close(bus, id, timeoutMicroseconds) >= 0
    }
  }
}
