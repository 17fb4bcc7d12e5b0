import Dispatch
import Foundation
import Glibc
import LocalAuthBroker
import LocalAuthConcurrency
import LocalAuthProtocol
import LocalAuthSocket
import LocalAuthTestSupport
import Sensors
import Testing

@testable import LocalAuthServer

/// Account lookups never run on the event loop (issue 20): NSS may block for seconds (LDAP, sssd),
/// so the server looks up what a connection or a request needs on a worker and the broker reads
/// only the cache. A lookup that blocks holds its own request, never the other clients.
@Suite struct AccountResolutionTests {
  static let slowName = "slow-directory-user"

  // Its client names another account, which only an administrator may: the socket's peer is this
  // process, so it runs where the tests run as root (`make test`), and is skipped in a user's
  // `make check` with the reason.
  @Test(
    .enabled(
      if: getuid() == 0, "needs root: the client names another account, which only an admin may"))
  func aBlockedLookupDoesNotStopTheLoopFromAnsweringAnotherClient() throws {
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
    // The blocked lookup is let go however the test ends (a worker never stays blocked).
    var released = false
    defer { if !released { gate.signal() } }
    // Root (an admin) names an account whose lookup blocks: the request waits for it.
    let waiting = try LineClient(socketPath: core.socketPath)
    let id = try waiting.request(
      Method.canEvaluatePolicy, ["policy": 2, "user": .string(Self.slowName)])
    #expect(started.wait(timeout: .now() + 10) == .success)
    // Meanwhile another client connects and is answered: root, for itself (its face is
    // enrolled). Its request's params take the storage the server keeps for the next request's,
    // while the waiting request still holds its own.
    let other = try LineClient(socketPath: core.socketPath)
    let otherAnswer = try other.call(Method.canEvaluatePolicy, ["policy": 1], seconds: 5)
    #expect(otherAnswer.flatMap { try? $0.get() }?.objectValue?["canEvaluate"] == true)
    gate.signal()
    released = true
    // Once the lookup answers, so does the request that waited for it, for the account it named
    // (uid 4242, nothing enrolled): its params are as it sent them.
    let (answer, _) = try waiting.response(to: id, seconds: 10)
    guard case .response(_, .success(let result))? = answer else {
      Issue.record("the waiting request was not answered: \(String(describing: answer))")
      return
    }
    #expect(result.objectValue?["canEvaluate"] == false)
    #expect(result.objectValue?["error"]?.objectValue?["name"] == "biometryNotEnrolled")
  }

  /// Another uid's waiting lookups fill the limits; root's (sudo's PAM module, an administrator)
  /// are still taken, never refused: no other user can turn root's lookups away.
  @Test func pastItsLimitsAnotherUidIsRefusedAndRootNever() async throws {
    // Every call below runs in one turn of the loop, so no answer is taken before the last: the
    // lookups are all still waiting, however fast the worker is (nothing blocks a thread here).
    let core = try ServingCore(
      lookUp: AccountLookup(nameOfUID: { _ in nil }, uidOfName: { _ in nil }))
    let resolver = try #require(core.server.resolver)
    defer { core.stop() }
    let attacker: UInt32 = 1000
    let refusals = await LoopPerformer(loop: core.loop).run { () -> [RPCError?] in
      var refusals: [RPCError?] = []
      // Distinct lookups: the attacker's fill the limit, the next is refused, root's is taken.
      for index in 0..<resolver.lookupLimit {
        refusals.append(resolver.whenResolved(.name("blocked-\(index)"), for: attacker) {})
      }
      refusals.append(resolver.whenResolved(.name("blocked-more"), for: attacker) {})
      refusals.append(resolver.whenResolved(.name("blocked-root"), for: 0) {})
      // Waiters on one lookup under way: the attacker's fill the rest, root's still wait.
      let counted = resolver.waiterLimit - resolver.lookupLimit
      for _ in 0..<counted {
        refusals.append(resolver.whenResolved(.name("blocked-0"), for: attacker) {})
      }
      refusals.append(resolver.whenResolved(.name("blocked-0"), for: attacker) {})
      refusals.append(resolver.whenResolved(.name("blocked-0"), for: 0) {})
      return refusals
    }
    let limit = resolver.lookupLimit
    #expect(refusals[..<limit].allSatisfy { $0 == nil }, "the attacker's first lookups wait")
    #expect(refusals[limit]?.code == .limitExceeded)
    #expect(refusals[limit]?.data["limit"] == "PendingAccountLookups")
    #expect(refusals[limit + 1] == nil, "root's lookup past the attacker's is taken")
    #expect(refusals[(limit + 2)..<(refusals.count - 2)].allSatisfy { $0 == nil })
    #expect(refusals[refusals.count - 2]?.code == .limitExceeded, "the attacker's next waiter")
    #expect(refusals[refusals.count - 1] == nil, "root's waiter past the attacker's")
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
      passcode: "1234", time: time, random: SystemRandomSource(), log: SilentLog(),
      accounts: accounts.cacheOnly, processes: SystemProcesses(), executor: loop,
      storage: .read(
        from: nil, log: SilentLog(), storeThread: DispatchWorkerThread(label: "test.store")),
      hashThread: DispatchWorkerThread(label: "test.hash"))
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
