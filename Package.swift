// swift-tools-version:6.0
import PackageDescription

/// localauthd: Apple's LocalAuthentication model as a Linux system daemon.
let package = Package(
  name: "localauthd",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "localauthd", targets: ["localauthd"]),
    .executable(name: "localauthctl", targets: ["localauthctl"]),
    .executable(name: "localauthd-bench", targets: ["localauthd-bench"]),
    .executable(name: "localauthd-prompt", targets: ["localauthd-prompt"]),
    .executable(name: "localauthd-prompt-window", targets: ["localauthd-prompt-window"]),
    .library(name: "LocalAuthClient", targets: ["LocalAuthClient"]),
    .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
    .library(name: "LocalAuthProtocol", targets: ["LocalAuthProtocol"]),
    .library(name: "SSHAgent", targets: ["SSHAgent"]),
  ],
  targets: [
    // C glue that Glibc's Swift module does not expose (epoll, eventfd, accept4, SO_PEERCRED).
    .target(name: "CLocalAuthSystem"),
    .systemLibrary(
      name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .target(name: "CCryptoShim", dependencies: ["CLibCrypto"]),
    // tpm2-tss's ESAPI, TCTI loader, marshaling and response-code text; then the TPM structures
    // Swift cannot spell (tss2's constants are cast macros) and the Swift wrapper over both.
    .systemLibrary(name: "CTSS2", pkgConfig: "tss2-esys", providers: [.apt(["libtss2-dev"])]),
    .target(name: "CTPMShim", dependencies: ["CTSS2"]),
    .target(name: "TPMKeys", dependencies: ["CTSS2", "CTPMShim"]),

    .target(name: "LocalAuthProtocol", linkerSettings: [.linkedLibrary("m")]),
    // The loop and lock primitives every threaded part shares: LoopBound, StateLock, TimeSource.
    .target(name: "LocalAuthConcurrency"),
    .target(name: "Sensors", dependencies: ["LocalAuthConcurrency"]),
    // What the host says: small files, /proc facts about processes, the account database (NSS).
    .target(name: "SystemFacts"),
    // The one safe bind of a Unix socket at a path, shared by the daemon and the SSH agent.
    .target(name: "LocalAuthSocket", dependencies: ["CLocalAuthSystem"]),
    // posix_spawn, poll and waitpid for out-of-process drivers.
    .target(name: "CDriverProcess"),
    // sd-bus calls to fprintd (libsystemd).
    .target(name: "CFprintdBus", dependencies: ["CSystemd", "CSystemBus"]),
    .target(
      name: "ExternalDrivers",
      dependencies: [
        "Sensors", "LocalAuthProtocol", "CDriverProcess", "CFprintdBus", "SystemFacts",
        "LocalAuthConcurrency",
      ]),
    .target(
      name: "LocalAuthBroker",
      dependencies: [
        "LocalAuthProtocol", "Sensors", "RightsStorage", "LocalAuthCrypto", "SSHAgent",
        "LocalAuthConcurrency",
      ]),
    .target(name: "Systemd", dependencies: ["CSystemd"]),
    // sd-bus watch of logind's Lock, PrepareForSleep and SessionRemoved, checked by sender.
    .target(name: "CLogindBus", dependencies: ["CSystemd", "CSystemBus"]),
    // Opening the system bus, or a test's bus at an address: the one way both bus clients do it.
    .target(name: "CSystemBus", dependencies: ["CSystemd"]),
    // sd-bus calls to the desktop's notification server (org.freedesktop.Notifications), then the
    // desktop prompt's notifications: the policy as values and the session-bus client. GTK-free.
    .target(name: "CNotificationsBus", dependencies: ["CSystemd", "CSystemBus"]),
    .target(
      name: "DesktopNotifications",
      dependencies: ["CNotificationsBus", "LocalAuthProtocol", "LocalAuthClientCore"]),
    .target(name: "LocalAuthCrypto", dependencies: ["CLibCrypto", "CCryptoShim"]),
    // What the broker keeps between runs, as values and a protocol (no I/O), then the SQLite store.
    .target(name: "RightsStorage", dependencies: ["LocalAuthCrypto"]),
    .target(
      name: "RightStore", dependencies: ["CSQLite", "LocalAuthCrypto", "RightsStorage", "TPMKeys"]),
    // The SSH agent protocol (draft-miller-ssh-agent) as OpenSSH speaks it: messages, keys, bindings.
    .target(name: "SSHAgent", dependencies: ["LocalAuthProtocol", "LocalAuthCrypto"]),
    .executableTarget(name: "rightstore-stress", dependencies: ["RightStore", "RightsStorage"]),
    .target(
      name: "LocalAuthServer",
      dependencies: [
        "LocalAuthProtocol", "LocalAuthBroker", "Sensors", "Systemd", "RightStore", "RightsStorage",
        "CLocalAuthSystem", "ExternalDrivers", "SystemFacts", "SSHAgent", "LocalAuthConcurrency",
        "TPMKeys", "LocalAuthSocket", "CLogindBus",
      ]),
    // The client without Foundation (localauthctl links only this), then Apple's NSError-facing
    // API with Foundation re-exported, then the same under Apple's framework name.
    .target(
      name: "LocalAuthClientCore",
      dependencies: ["LocalAuthProtocol", "LocalAuthCrypto", "CLocalAuthSystem"]),
    .target(name: "LocalAuthClient", dependencies: ["LocalAuthClientCore", "LocalAuthProtocol"]),
    .target(name: "LocalAuthentication", dependencies: ["LocalAuthClient"]),
    .target(
      name: "LocalAuthCommandLine",
      dependencies: [
        "LocalAuthClientCore", "LocalAuthProtocol", "SSHAgent", "Systemd", "CLocalAuthSystem",
        "LocalAuthSocket",
      ]),
    // The desktop prompt: each prompt window's state as values (no GTK), then its GTK 4 window in C
    // (GTK's casts, macros and varargs signals), over GTK 4's C API from libgtk-4-dev.
    .target(name: "DesktopPrompt", dependencies: ["LocalAuthClientCore", "LocalAuthProtocol"]),
    .systemLibrary(name: "CGtk4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
    .target(name: "CPromptWindow", dependencies: ["CGtk4"]),
    .target(
      name: "LocalAuthTestSupport",
      dependencies: [
        "LocalAuthProtocol", "LocalAuthBroker", "Sensors", "CLocalAuthSystem", "SystemFacts",
        "LocalAuthConcurrency", "ExternalDrivers", "CSQLite",
      ]),

    .executableTarget(name: "localauthd", dependencies: ["LocalAuthServer", "Systemd"]),
    .executableTarget(
      name: "localauthctl",
      dependencies: ["LocalAuthCommandLine", "LocalAuthClientCore", "LocalAuthProtocol"]),
    .executableTarget(
      name: "localauthd-prompt",
      dependencies: [
        "DesktopPrompt", "LocalAuthClientCore", "LocalAuthProtocol", "DesktopNotifications",
      ]),
    // The desktop prompt's windows, in C over GTK 4: started by localauthd-prompt while a prompt
    // shows, so that the idle agent links no toolkit.
    .executableTarget(name: "localauthd-prompt-window", dependencies: ["CPromptWindow"]),
    .executableTarget(
      name: "localauthd-bench",
      dependencies: ["LocalAuthProtocol", "CLocalAuthSystem", "SystemFacts"]),

    .testTarget(name: "LocalAuthProtocolTests", dependencies: ["LocalAuthProtocol"]),
    .testTarget(
      name: "DesktopPromptTests",
      dependencies: ["DesktopPrompt", "LocalAuthClientCore", "LocalAuthProtocol"]),
    .testTarget(name: "SystemFactsTests", dependencies: ["SystemFacts"]),
    .testTarget(
      name: "LocalAuthSocketTests", dependencies: ["LocalAuthSocket", "CLocalAuthSystem"]),
    .testTarget(
      name: "SensorsTests",
      dependencies: ["Sensors", "LocalAuthTestSupport", "LocalAuthConcurrency"]),
    .testTarget(
      name: "ExternalDriversTests",
      dependencies: [
        "ExternalDrivers", "Sensors", "LocalAuthProtocol", "LocalAuthTestSupport",
        "LocalAuthConcurrency",
      ]),
    .testTarget(
      name: "LocalAuthBrokerTests",
      dependencies: [
        "LocalAuthBroker", "LocalAuthProtocol", "Sensors", "LocalAuthTestSupport", "RightStore",
        "RightsStorage",
        "LocalAuthCrypto", "SSHAgent", "LocalAuthServer", "SystemFacts", "LocalAuthConcurrency",
      ]),
    .testTarget(
      name: "LocalAuthServerTests",
      dependencies: [
        "LocalAuthServer", "LocalAuthProtocol", "LocalAuthTestSupport", "CLocalAuthSystem",
        "localauthd", "SSHAgent", "LocalAuthCrypto", "LocalAuthConcurrency",
      ]),
    .executableTarget(
      name: "SystemdListenProbe", dependencies: ["Systemd"], path: "Tests/SystemdTests/ListenProbe"),
    .testTarget(
      name: "SystemdTests", dependencies: ["Systemd", "SystemdListenProbe"],
      exclude: ["ListenProbe"]),
    .testTarget(name: "LocalAuthCryptoTests", dependencies: ["LocalAuthCrypto"]),
    .testTarget(
      name: "TPMKeysTests", dependencies: ["TPMKeys", "LocalAuthCrypto", "LocalAuthTestSupport"]),
    .testTarget(
      name: "SSHAgentTests", dependencies: ["SSHAgent", "LocalAuthCrypto", "LocalAuthProtocol"]),
    .testTarget(
      name: "DesktopNotificationsTests",
      dependencies: ["DesktopNotifications", "LocalAuthProtocol", "LocalAuthTestSupport"]
    ),
    .testTarget(
      name: "RightStoreTests",
      dependencies: [
        "RightStore", "RightsStorage", "LocalAuthCrypto", "rightstore-stress", "TPMKeys",
        "LocalAuthTestSupport",
      ]),
    .testTarget(
      name: "LocalAuthClientTests",
      dependencies: [
        "LocalAuthClient", "LocalAuthClientCore", "LocalAuthCommandLine", "LocalAuthProtocol",
        "LocalAuthTestSupport", "LocalAuthCrypto", "localauthctl",
        "localauthd",
      ]),
    // The slow and hostile suites that start processes and misbehave on purpose (drivers that crash
    // and hang, a store killed at random moments): `make test` runs them, `make check` does not.
    .testTarget(
      name: "ProcessFaultTests",
      dependencies: [
        "ExternalDrivers", "Sensors", "LocalAuthTestSupport", "RightStore", "RightsStorage",
        "rightstore-stress",
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "LocalAuthServer", "LocalAuthClient", "LocalAuthClientCore", "LocalAuthCommandLine",
        "LocalAuthProtocol", "LocalAuthTestSupport", "LocalAuthCrypto", "ExternalDrivers",
        "Sensors", "CLocalAuthSystem", "localauthctl", "localauthd", "LocalAuthConcurrency",
        "DesktopNotifications", "SSHAgent",
      ]),
    .testTarget(
      name: "DocumentationTests",
      dependencies: ["LocalAuthServer", "LocalAuthCommandLine", "LocalAuthProtocol", "Sensors"]),
  ]
)
