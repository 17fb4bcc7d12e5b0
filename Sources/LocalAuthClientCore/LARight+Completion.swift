/// The completion-handler forms of LARight, as Apple declares them. Each handler runs once, on an
/// arbitrary thread.
extension LARight {
  /// Authorizes the right; `handler` gets nil on success or the error `authorize(localizedReason:)` throws.
  @preconcurrency
  public func authorize(
    localizedReason: String, completion handler: @escaping @Sendable ((any Error)?) -> Void
  ) {
    Task {
      do {
        try await authorize(localizedReason: localizedReason)
        handler(nil)
      } catch { handler(error) }
    }
  }

  /// Checks whether the right could be authorized; `handler` gets nil or the reason it could not.
  @preconcurrency
  public func checkCanAuthorize(completion handler: @escaping @Sendable ((any Error)?) -> Void) {
    Task {
      do {
        try await checkCanAuthorize()
        handler(nil)
      } catch { handler(error) }
    }
  }

  /// Gives up the authorization, then calls `handler`.
  @preconcurrency
  public func deauthorize(completion handler: @escaping @Sendable () -> Void) {
    Task {
      await deauthorize()
      handler()
    }
  }
}

/// Runs an async throwing operation and hands its outcome to a completion handler.
func complete<Value: Sendable>(
  _ handler: @escaping @Sendable (Value?, (any Error)?) -> Void,
  _ operation: @escaping @Sendable () async throws -> Value
) {
  Task {
    do { handler(try await operation(), nil) } catch { handler(nil, error) }
  }
}

/// Runs an async throwing operation without a value and hands its error (or nil) to a completion handler.
func complete(
  _ handler: @escaping @Sendable ((any Error)?) -> Void,
  _ operation: @escaping @Sendable () async throws -> Void
) {
  Task {
    do {
      try await operation()
      handler(nil)
    } catch { handler(error) }
  }
}
