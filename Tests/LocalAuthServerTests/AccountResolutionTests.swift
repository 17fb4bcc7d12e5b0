import Dispatch
import Foundation
import Glibc
import LocalAuthBroker
import LocalAuthProtocol
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthServer

/// Account lookups never run on the event loop (issue 20): NSS may block for seconds (LDAP, sssd),
/// so the server looks up what a connection or a request needs on a worker and the broker reads
/// only the cache. A lookup that blocks holds its own request, never the other clients.
@Suite struct AccountResolutionTests {
  static let slowName = "slow-directory-user"

  @Test func aBlockedLookupDoesNotStopTheLoopFromAnsweringAnotherClient() throws {
    let started = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let core = try ServingCore(
      lookUp: AccountLookup(
        nameOfUID: { AccountLookup.system.nameOfUID($0) },
        uidOfName: { name in
          guard name == Self.slowName else { return AccountLookup.system.uidOfName(name) }
          started.signal()
          gate.wait()
          return 4242
        }))
    defer { core.stop() }
    // Root (an admin) names an account whose lookup blocks: the request waits for it.
    let waiting = try LineClient(socketPath: core.socketPath)
    let id = try waiting.request(
      Method.canEvaluatePolicy, ["policy": 2, "user": .string(Self.slowName)])
    #expect(started.wait(timeout: .now() + 10) == .success)
    // Meanwhile another client connects and is answered.
    let other = try LineClient(socketPath: core.socketPath)
    #expect(try other.call(Method.canEvaluatePolicy, ["policy": 2], seconds: 5) != nil)
    gate.signal()
    // Once the lookup answers, so does the request that waited for it.
    let (answer, _) = try waiting.response(to: id, seconds: 10)
    #expect(answer != nil)
  }

  @Test func pastItsLimitALookupIsRefusedWithAClearError() throws {
    let gate = DispatchSemaphore(value: 0)
    let core = try ServingCore(
      lookUp: AccountLookup(
        nameOfUID: { AccountLookup.system.nameOfUID($0) },
        uidOfName: { name in
          guard name.hasPrefix("blocked-") else { return AccountLookup.system.uidOfName(name) }
          gate.wait()
          return nil
        }))
    defer {
      for _ in 0..<core.server.resolver!.lookupLimit { gate.signal() }
      core.stop()
    }
    let client = try LineClient(socketPath: core.socketPath)
    for index in 0..<core.server.resolver!.lookupLimit {
      try client.request(
        Method.canEvaluatePolicy, ["policy": 2, "user": .string("blocked-\(index)")])
    }
    let refused = try client.call(
      Method.canEvaluatePolicy, ["policy": 2, "user": "blocked-past-the-limit"], seconds: 5)
    guard case .failure(let error)? = refused else {
      Issue.record("expected PendingAccountLookups, got \(String(describing: refused))")
      return
    }
    #expect(error.code == .limitExceeded)
    #expect(error.data["limit"] == "PendingAccountLookups")
  }
}

/// The daemon's core in this process: an event loop on its own thread, a broker reading the
/// account cache, a server resolving accounts with `lookUp`, on a socket of its own.
final class ServingCore: Sendable {
  let socketPath: String
  let loop: EventLoop
  let server: Server

  init(lookUp: AccountLookup) throws {
    socketPath = "/tmp/localauthd-accounts-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    loop = try EventLoop()
    let time = SystemTimeSource()
    let accounts = SystemAccounts(lookUp: lookUp)
    let broker = Broker(
      configuration: BrokerConfiguration(),
      sensors: SensorRegistry([
        SimulatedSensor(name: "face", kind: .faceID, setup: .init(enrolled: ["alice"]), time: time)
      ]),
      passcode: "1234", time: time, log: SilentLog(), accounts: accounts.cacheOnly,
      processes: SystemProcesses(), executor: loop)
    server = try Server(
      loop: loop, broker: broker, limits: ConnectionLimits(), log: SilentLog(), accounts: accounts)
    server.serve(listeningSocket: try SocketFile.bind(socketPath))
    let loop = self.loop
    Thread { loop.run() }.start()
  }

  /// Stops the loop (on its thread) and removes the socket.
  func stop() {
    let performer = LoopPerformer(loop: loop)
    let loop = self.loop
    Task { await performer.run { loop.stop() } }
    unlink(socketPath)
  }
}
