import Glibc

/// Where the configuration comes from: the main file, then `*.conf` drop-ins merged in systemd's
/// order (by file name across all drop-in directories; a name in an earlier directory hides the
/// same name in a later one, so `/etc` overrides `/usr/lib`).
public struct ConfigurationSources: Sendable, Equatable {
  /// The main file.
  public var mainFile: String
  /// Whether a missing main file is an error (it is when named with `--config`).
  public var mainFileRequired: Bool
  /// The drop-in directories, the one that wins a name clash first.
  public var dropInDirectories: [String]

  /// The drop-in directories of the default configuration, highest priority first.
  public static let defaultDropInDirectories = [
    "/etc/localauthd/localauthd.conf.d",
    "/usr/lib/localauthd/localauthd.conf.d",
  ]

  /// Sources with the given main file and drop-in directories.
  public init(mainFile: String, mainFileRequired: Bool, dropInDirectories: [String]) {
    self.mainFile = mainFile
    self.mainFileRequired = mainFileRequired
    self.dropInDirectories = dropInDirectories
  }

  /// The sources the daemon reads for these options: the default file and directories, or
  /// `--config FILE` and its `FILE.d/` directory.
  public init(options: DaemonOptions) {
    if let path = options.configPath {
      self.init(mainFile: path, mainFileRequired: true, dropInDirectories: [path + ".d"])
    } else {
      self.init(
        mainFile: DaemonOptions.defaultConfigPath, mainFileRequired: false,
        dropInDirectories: Self.defaultDropInDirectories)
    }
  }

  /// The drop-in files to apply after the main file, in order: sorted by file name, each name
  /// taken from the first directory that has it. Missing directories are skipped.
  public func dropInFiles() -> [String] {
    var chosen: [String: String] = [:]
    for directory in dropInDirectories {
      for name in Self.configurationFileNames(in: directory) where chosen[name] == nil {
        chosen[name] = directory + "/" + name
      }
    }
    return chosen.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
      .compactMap { chosen[$0] }
  }

  /// The names ending in `.conf` in a directory (opendir/readdir); none when it cannot be read.
  static func configurationFileNames(in directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.hasSuffix(".conf"), !name.hasPrefix(".") { names.append(name) }
    }
    return names
  }
}
