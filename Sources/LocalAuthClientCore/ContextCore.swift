import FoundationEssentials
import LocalAuthProtocol
import Synchronization

/// The state behind one `LAContext`: its options, its daemon-side context handle and whether it
/// was invalidated. Evaluations started with the completion-handler form keep this core alive,
/// not the `LAContext`, so dropping the `LAContext` still invalidates them. Thread-safe (Mutex).
final class ContextCore: Sendable {
  struct State {
    var options = ContextOptions()
    var handle: JSONValue?
    var handleOptions: ContextOptions?
    var handleGeneration: Int?
    var creating: Task<JSONValue, any Error>?
    var invalidated = false
    var biometryType: LABiometryType = .none
    /// Whether a biometric check or evaluation succeeded (Apple's evaluatedPolicyDomainState is nil before).
    var domainStateEvaluated = false
    /// Apple's `localizedReason` (kept for code that reads it back).
    var localizedReason = ""
    /// Credentials set with `setCredential(_:type:)`; never sent to the daemon.
    var credentials: [LACredentialType: Data] = [:]
  }

  let connection: LocalAuthConnection
  let state = Mutex(State())

  init(connection: LocalAuthConnection) { self.connection = connection }

  /// The daemon-side context, made with `context.create` on first use and again after a
  /// reconnect or an option change. Concurrent callers share one creation.
  func serverContext() async throws -> JSONValue {
    let generation = connection.currentGeneration
    let creation: Task<JSONValue, any Error> = state.withLock { state in
      if let creating = state.creating { return creating }
      if let handle = state.handle, state.handleOptions == state.options,
        state.handleGeneration == generation,
        generation != nil
      {
        return Task { handle }
      }
      let options = state.options
      let task = Task { [connection] in
        do {
          let result = try await connection.call(CreateContextRequest.self, .init(options))
          let handle = JSONValue.string(result.context)
          self.created(handle, options: options, generation: connection.currentGeneration)
          return handle
        } catch {
          self.state.withLock { $0.creating = nil }
          throw error
        }
      }
      state.creating = task
      return task
    }
    return try await creation.value
  }

  private func created(_ handle: JSONValue, options: ContextOptions, generation: Int?) {
    let invalidated = state.withLock { state in
      state.creating = nil
      state.handle = handle
      state.handleOptions = options
      state.handleGeneration = generation
      return state.invalidated
    }
    if invalidated { invalidateOnServer(handle) }
  }

  /// The current handle if it belongs to the live socket (for methods that take an optional context).
  var liveHandle: JSONValue? {
    let generation = connection.currentGeneration
    return state.withLock { state in
      generation != nil && state.handleGeneration == generation ? state.handle : nil
    }
  }

  /// Starts an evaluation on this context.
  func startEvaluation(_ policy: LAPolicy, localizedReason: String) -> LAEvaluation {
    let evaluation = LAEvaluation(connection: connection)
    if state.withLock({ $0.invalidated }) {
      evaluation.finish(.failure(LAError(.invalidContext)))
      return evaluation
    }
    Task {
      let handle: JSONValue
      do { handle = try await serverContext() } catch {
        evaluation.finish(.failure(error))
        return
      }
      let params = EvaluatePolicyRequest.Params(
        policy: policy, localizedReason: localizedReason, context: handle)
      // Checked and sent under the lock, so an `invalidate()` racing with us is queued after the
      // request and the daemon answers appCancel, not invalidContext.
      state.withLock { state in
        if state.invalidated || evaluation.cancelledBeforeSending {
          evaluation.finish(.failure(LAError(.appCancel)))
          return
        }
        connection.startEvaluating(EvaluatePolicyRequest.method, params.object, into: evaluation)
      }
    }
    return evaluation
  }

  /// Invalidates the context: its evaluation in flight ends with appCancel, later use fails with invalidContext.
  func invalidate() {
    let handle: JSONValue? = state.withLock { state in
      guard !state.invalidated else { return nil }
      state.invalidated = true
      return state.handle
    }
    guard let handle, liveHandle == handle else { return }
    invalidateOnServer(handle)
  }

  /// Sends `context.invalidate` for the handle, answered by nobody.
  private func invalidateOnServer(_ handle: JSONValue) {
    let params = InvalidateContextRequest.Params(context: handle)
    connection.start(InvalidateContextRequest.method, params.object) { _ in }
  }
}
