import Dispatch
import Glibc
import RightStore
import RightsStorage

extension Daemon {
  /// The environment variable that makes every store call hold the database this many milliseconds longer:
  /// a simulated slow disk, for tests that prove the event loop never waits on the store.
  static let simulatedSlowDiskVariable = "LOCALAUTHD_SIMULATE_SLOW_DISK_MS"

  /// Wipes expired handoff payloads and removes dead rows every minute on a queue of its own, so an
  /// idle store does not keep them until the next `handoff.create`.
  private func prunePeriodically(_ store: RightStore) {
    let timer = DispatchSource.makeTimerSource(
      queue: DispatchQueue(label: "localauthd.handoff-prune"))
    timer.schedule(deadline: .now() + .seconds(60), repeating: .seconds(60), leeway: .seconds(5))
    timer.setEventHandler { _ = try? store.pruneHandoffs() }
    timer.resume()
    handoffPruneTimer = timer
  }

  /// Opens the rights store in `directory`. An unsafe state directory stops the start (StartupError); a
  /// corrupt database or a missing device key with sealed rows leaves rights unavailable (returned as the
  /// reason, and logged) while evaluations go on; any other failure stops the start.
  func openRightStore(in directory: String) throws -> (RightStore?, unavailable: String?) {
    let delay = getenv(Self.simulatedSlowDiskVariable).flatMap { Int(String(cString: $0)) } ?? 0
    let keys = try chooseKeyStore()
    do {
      let store = try RightStore(
        directory: directory, keys: keys, simulatedDiskDelay: .milliseconds(delay))
      if let unavailable = store.keyStore.unavailable {
        log.event(
          "keys unavailable, everything else goes on: \(unavailable)",
          messageID: MessageID.rightsUnavailable, priority: 3)
      }
      if delay > 0 {
        log.notice("simulating a slow disk: every rights-store call holds the database \(delay) ms")
      }
      _ = try? store.pruneHandoffs()
      prunePeriodically(store)
      return (store, nil)
    } catch let error as RightStoreError {
      var degrades = error.isCorruption
      if case .deviceKeyMissing = error { degrades = true }
      guard degrades else {
        throw StartupError("cannot open the rights store in \(directory): \(error)")
      }
      let reason = "the rights store in \(directory) cannot be used (\(error))"
      log.event(
        "rights unavailable, evaluations go on: \(reason)", messageID: MessageID.rightsUnavailable,
        priority: 3)
      return (nil, reason)
    } catch {
      throw StartupError("cannot open the rights store in \(directory): \(error)")
    }
  }
}
