import Testing

/// docs/pam.md's service blocks, which the container tests install as they are (between
/// `<!-- pam.d/NAME -->` and `<!-- end -->`): each is one fenced block, and the keyring blocks'
/// jumps land where the text says, so pam_gnome_keyring sees the password or the released one.
@Suite struct PAMBlockTests {
  static let guide = DocumentationDriftTests.read("docs/pam.md")
  static let modulePage = DocumentationDriftTests.read("man/pam_localauthd.8.scd")

  /// The lines of block `name` (without the fences), or nil when it is missing or malformed.
  static func block(_ name: String) -> [String]? {
    let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: "<!-- pam.d/\(name) -->"),
      let end = lines[start...].firstIndex(of: "<!-- end -->"),
      end - start >= 3, lines[start + 1] == "```", lines[end - 1] == "```"
    else { return nil }
    return Array(lines[(start + 2)..<(end - 1)])
  }

  /// Every marker the guide has.
  static let names: [String] = guide.split(separator: "\n").compactMap { line in
    guard line.hasPrefix("<!-- pam.d/"), line.hasSuffix(" -->") else { return nil }
    return String(line.dropFirst("<!-- pam.d/".count).dropLast(" -->".count))
  }

  @Test func theBlocksAreThere() {
    for name in [
      "sudo", "polkit-1", "login-auth", "lightdm-auth", "login-keyring",
      "login-keyring-session", "lightdm-keyring", "passwd-keyring",
    ] {
      #expect(Self.names.contains(name), "docs/pam.md has no block \(name)")
    }
  }

  @Test(arguments: names)
  func everyBlockIsOneFencedBlockWithItsEnd(name: String) {
    #expect(Self.block(name) != nil, "pam.d/\(name) is not ``` … ``` followed by <!-- end -->")
  }

  /// Where an auth stack goes on from line `index` when its module returns `outcome` (the
  /// `[success=N default=…]` jumps, `sufficient`/`required`/`optional`), as libpam reads it.
  static func next(_ lines: [String], after index: Int, _ outcome: String) -> Int? {
    let line = lines[index]
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    let control = String(fields[1])
    if control.hasPrefix("["), let open = line.firstIndex(of: "["),
      let close = line.firstIndex(of: "]")
    {
      for pair in line[line.index(after: open)..<close].split(separator: " ") {
        let parts = pair.split(separator: "=")
        guard parts.count == 2,
          parts[0] == outcome || (parts[0] == "default" && outcome != "success")
        else { continue }
        if let jump = Int(parts[1]) { return index + 1 + jump }
        return parts[1] == "ignore" || parts[1] == "ok" ? index + 1 : nil
      }
      return index + 1
    }
    if control == "requisite" && outcome != "success" { return nil }
    return index + 1
  }

  /// The module of auth line `index`.
  static func module(_ lines: [String], _ index: Int) -> String {
    guard let word = lines[index].split(separator: " ").first(where: { $0.hasSuffix(".so") })
    else { return "" }
    return String(word)
  }

  /// The modules an auth stack runs after its first line returns `first`, the second `second`.
  static func path(_ lines: [String], _ first: String, _ second: String = "success") -> [String] {
    let auth = lines.filter { $0.hasPrefix("auth") }
    var index = 0
    var ran: [String] = []
    var outcomes = [first, second]
    while index < auth.count {
      let name = module(auth, index)
      ran.append(name)
      let outcome =
        name == "pam_deny.so" ? "auth_err" : outcomes.isEmpty ? "success" : outcomes.removeFirst()
      guard let next = next(auth, after: index, outcome) else { break }
      index = next
    }
    return ran
  }

  @Test func aLoginByFingerSkipsThePasswordAndReachesTheKeyring() throws {
    let login = try #require(Self.block("login-keyring"))
    #expect(login.first?.contains("pam_localauthd.so login release_password") == true)
    #expect(
      Self.path(login, "success") == [
        "pam_localauthd.so", "pam_permit.so", "pam_gnome_keyring.so",
      ])
    // No match: the password, then the keep line, then the keyring.
    #expect(
      Self.path(login, "ignore", "success") == [
        "pam_localauthd.so", "pam_unix.so", "pam_localauthd.so", "pam_permit.so",
        "pam_gnome_keyring.so",
      ])
    // A wrong password ends at pam_deny: nothing kept.
    #expect(
      Self.path(login, "ignore", "auth_err") == [
        "pam_localauthd.so", "pam_unix.so", "pam_deny.so",
      ])
    #expect(login.contains { $0.contains("pam_localauthd.so keep_password") })
    let lightdm = try #require(Self.block("lightdm-keyring"))
    #expect(Self.path(lightdm, "success") == ["pam_localauthd.so", "pam_permit.so"])
    #expect(
      Self.path(lightdm, "ignore", "success") == [
        "pam_localauthd.so", "pam_unix.so", "pam_localauthd.so", "pam_permit.so",
      ])
  }

  @Test func theModulePageNamesTheKeyringOptions() {
    for option in ["keep_password", "release_password", "login", "no_tty"] {
      #expect(Self.modulePage.contains("*\(option)*"), "pam_localauthd(8) does not name \(option)")
    }
  }
}
