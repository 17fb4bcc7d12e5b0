import Glibc
import Testing

@testable import SystemFacts

/// Reading a process's logind session from its cgroup path, as `sd_pid_get_session` does.
@Suite struct LoginSessionTests {
  @Test(
    arguments: [
      ("0::/user.slice/user-1000.slice/session-3.scope\n", "3"),
      (
        "12:pids:/user.slice/user-0.slice/session-c2.scope\n0::/user.slice/user-0.slice/session-c2.scope",
        "c2"
      ),
      ("0::/system.slice/localauthd.service\n", nil),
      ("0::/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope\n", nil),
      ("0::/user.slice/session-.scope\n", nil),
    ] as [(String, String?)])
  func sessionFromCgroups(_ text: String, _ expected: String?) {
    #expect(ProcessFacts.loginSession(inCgroups: text) == expected)
  }
}

/// What the kernel says about this test's own process, and about one that does not exist.
@Suite struct ProcessFactsTests {
  @Test func thisProcessIsKnownAndAMissingOneIsNot() {
    let me = getpid()
    #expect(ProcessFacts.owner(of: me) == getuid())
    #expect(ProcessFacts.executable(of: me)?.hasPrefix("/") == true)
    #expect(ProcessFacts.name(of: me)?.isEmpty == false)
    #expect(ProcessFacts.name(of: me)?.contains("\n") == false)
    #expect((ProcessFacts.residentKiB(of: me) ?? 0) > 0)
    #expect(ProcessFacts.owner(of: 0) == nil)
    #expect(ProcessFacts.owner(of: -1) == nil)
    #expect(ProcessFacts.name(of: Int32.max) == nil)
    #expect(ProcessFacts.executable(of: Int32.max) == nil)
  }
}

/// The one small-file reader: whole files, a limit, and files that cannot be read.
@Suite struct SmallFileTests {
  func scratch(_ bytes: [UInt8]) -> String {
    var template = Array("/tmp/systemfacts-smallfile-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  @Test func readsAFileWholeAcrossReadsAndRefusesOneOverItsLimit() {
    let content = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
    let path = scratch(content)
    defer { unlink(path) }
    #expect(SmallFile.bytes(path, limit: 200_000) == content)
    #expect(SmallFile.bytes(path, limit: 199_999) == nil)
    #expect(SmallFile.bytes(path) == nil)
  }

  @Test(arguments: [4095, 4096, 4097, 8192, 8193])
  func aFileAtThePageSizeIsReadWholeAndOneByteOverTheLimitIsRefused(size: Int) {
    let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 253) }
    let path = scratch(content)
    defer { unlink(path) }
    #expect(SmallFile.bytes(path, limit: size) == content)
    #expect(SmallFile.bytes(path, limit: size - 1) == nil)
    #expect(SmallFile.bytes(path) == content)
  }

  @Test func anEmptyFileIsEmptyAndAMissingOneIsNil() {
    let path = scratch([])
    defer { unlink(path) }
    #expect(SmallFile.bytes(path) == [])
    #expect(SmallFile.text(path) == "")
    #expect(SmallFile.text("/nonexistent/systemfacts-\(getpid())") == nil)
    #expect(SmallFile.text("/proc/self/comm")?.isEmpty == false)
  }
}

/// The account database through NSS: root is always there; names no account can have are refused.
@Suite struct AccountDatabaseTests {
  @Test func rootIsFoundBothWays() {
    #expect(AccountDatabase.name(ofUID: 0) == "root")
    #expect(AccountDatabase.uid(ofName: "root") == 0)
  }

  @Test(arguments: [
    "", "no-such-account-systemfacts", "a\u{0}b", String(repeating: "x", count: 257),
  ])
  func impossibleOrMissingNamesAreNil(_ name: String) {
    #expect(AccountDatabase.uid(ofName: name) == nil)
  }
}
