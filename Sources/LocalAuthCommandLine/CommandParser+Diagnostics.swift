/// Parsing of the `doctor`, `trace` and `replay` subcommands.
extension Arguments {
  mutating func diagnosticsCommand() throws(UsageError) -> Command {
    switch subcommand {
    case "doctor":
      return .doctor(appID: try appFlag())
    case "trace":
      let appID = try appFlag()
      var pid: Int? = nil
      if case let text?? = flags.removeValue(forKey: "--pid") {
        guard let number = Int(text), (1...Int(Int32.max)).contains(number) else {
          throw usage("--pid must be a process id, not '\(text)'")
        }
        pid = number
      }
      if appID != nil && pid != nil { throw usage("trace takes --app or --pid, not both") }
      return .trace(appID: appID, pid: pid)
    default:
      let path = try value("TRACE")
      var passcode: String? = nil
      if case let digits?? = flags.removeValue(forKey: "--passcode") {
        guard (4...16).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
          throw usage("--passcode must be 4 to 16 digits")
        }
        passcode = digits
      }
      return .replay(path: path, passcode: passcode)
    }
  }

  private mutating func appFlag() throws(UsageError) -> String? {
    guard case let appID?? = flags.removeValue(forKey: "--app") else { return nil }
    guard !appID.isEmpty else { throw usage("--app needs a non-empty app id") }
    return appID
  }
}
