import Glibc
import LocalAuthServer

/// Writes a line to stderr.
func printError(_ text: String) {
  var line = text + "\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// localauthd: parse the command line, read the configuration, serve.
let arguments = Array(CommandLine.arguments.dropFirst())
let options: DaemonOptions
do {
  options = try DaemonOptions.parse(arguments)
} catch {
  if error.version {
    print("localauthd 0.1.0")
    exit(0)
  }
  if let message = error.message {
    printError("localauthd: \(message)\n\(DaemonOptions.usage)")
    exit(2)
  }
  print(DaemonOptions.usage)
  exit(0)
}
do {
  if options.migrateDeviceKey { try Daemon.checkMayMigrateDeviceKey() }
  let daemon = try Daemon(options: options)
  if options.checkConfigOnly {
    print("configuration OK")
    exit(0)
  }
  if options.migrateDeviceKey {
    print(try daemon.migrateDeviceKey())
    exit(0)
  }
  exit(try daemon.run())
} catch let error as ConfigurationError {
  for mistake in "\(error)".split(separator: "\n") {
    printError("localauthd: bad configuration: \(mistake)")
  }
  exit(1)
} catch {
  printError("localauthd: \(error)")
  exit(1)
}
