import Testing

/// Tests that set or read process environment variables (`NOTIFY_SOCKET`, `WATCHDOG_*`,
/// `LISTEN_*`). The environment is process-global and `setenv` is not thread-safe, so
/// every suite nested here runs serially, never alongside another.
@Suite(.serialized)
enum ProcessEnvironmentTests {}
