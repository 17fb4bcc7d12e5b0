import CLogindBus
import Glibc
import LocalAuthBroker
import Synchronization

/// Ends reuse windows on logind's word (issue 34): a thread of its own watches the system bus
/// (`CLogindBus`: `Lock` of a session, `PrepareForSleep(true)`, `SessionRemoved`, each only from
/// the owner of org.freedesktop.login1) and tells the broker to close the windows of that
/// session's uid (every uid's before a sleep). Without a system bus or logind, reuse windows end
/// only with their time, and the journal says so once; the thread tries the bus again. Thread-safe: the thread owns its bus; the
/// broker is reached through its actor.
final class SessionLockWatcher: Sendable {
  private let stopPipe: (read: Int32, write: Int32)

  /// What the watching thread needs: the broker and the log (retained by the thread).
  private final class Target: Sendable {
    let broker: Broker
    let log: DaemonLog
    let stopFD: Int32
    /// Whether the watch was subscribed since the last failure.
    let subscribed = Atomic(false)
    init(broker: Broker, log: DaemonLog, stopFD: Int32) {
      self.broker = broker
      self.log = log
      self.stopFD = stopFD
    }
  }

  /// Starts watching the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) for `broker`; nil when no
  /// thread could start (logged).
  init?(broker: Broker, log: DaemonLog) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      log.notice("reuse windows will not close on lock: no pipe (errno \(errno))")
      return nil
    }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    stopPipe = (fds[0], fds[1])
    let target = Unmanaged.passRetained(Target(broker: broker, log: log, stopFD: fds[0]))
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { raw in
        let target = Unmanaged<Target>.fromOpaque(raw!).takeRetainedValue()
        SessionLockWatcher.watch(target)
        return nil
      }, target.toOpaque())
    guard created == 0 else {
      target.release()
      log.notice("reuse windows will not close on lock: no thread (error \(created))")
      close(fds[0])
      close(fds[1])
      return nil
    }
    pthread_detach(thread)
  }

  /// Stops the watching thread (it closes its bus and ends).
  func stop() {
    var byte: UInt8 = 1
    _ = write(stopPipe.write, &byte, 1)
  }

  /// Watches until stopped; when the bus fails (none yet, or dbus restarted), again after 1 s,
  /// then twice as long each time up to a minute, saying so once a failure.
  private static func watch(_ target: Target) {
    let context = Unmanaged.passUnretained(target).toOpaque()
    var delay: Int32 = 1000
    var said = false
    while true {
      let result = llb_watch(
        nil, target.stopFD,
        { context, event, uid in
          let target = Unmanaged<Target>.fromOpaque(context!).takeUnretainedValue()
          SessionLockWatcher.heard(event, uid: uid, target)
        }, context)
      if result >= 0 { break }
      if target.subscribed.exchange(false, ordering: .relaxed) { (said, delay) = (false, 1000) }
      if !said {
        said = true
        target.log.notice(
          "reuse windows will not close on lock until the system bus answers (\(String(cString: strerror(-result))))"
        )
        target.log.flush()
      }
      var stop = pollfd(fd: target.stopFD, events: Int16(POLLIN), revents: 0)
      if poll(&stop, 1, delay) != 0 { break }
      delay = min(delay * 2, 60_000)
    }
    close(target.stopFD)
  }

  private static func heard(_ event: Int32, uid: Int64, _ target: Target) {
    let reason: GrantClosing
    switch UInt32(event) {
    case LLB_READY.rawValue:
      target.subscribed.store(true, ordering: .relaxed)
      target.log.notice("watching logind: reuse windows close on lock, sleep and logout")
      // This thread's lines are written now, not at the loop's next turn.
      target.log.flush()
      return
    case LLB_LOCK.rawValue: reason = .lock
    case LLB_SLEEP.rawValue: reason = .sleep
    case LLB_LAST_LOGOUT.rawValue:
      let broker = target.broker
      guard uid >= 0, uid <= Int64(UInt32.max) else { return }
      target.log.notice("the last logind session of uid \(uid) ended")
      target.log.flush()
      Task { await broker.lastSessionEnded(of: UInt32(uid)) }
      return
    default: reason = .logout
    }
    let who = uid >= 0 && uid <= Int64(UInt32.max) ? UInt32(uid) : nil
    let broker = target.broker
    Task { await broker.closeGrants(of: who, because: reason) }
  }
}
