// swift-tools-version:6.0
import PackageDescription

/// LocalAuthentication code as app developers write it (helpers, view models, a continuation
/// wrapper, LAContext test doubles, Apple's documentation snippets, keychain-style access
/// controls), unchanged even in its `import LocalAuthentication`, built against this repository's
/// client library and run against a real daemon by `make test-samples` (see run.sh).
/// APP_FIDELITY_SWIFT=5 builds it in Swift 5 language mode, anything else in Swift 6 mode: run.sh
/// builds and runs both. OwnAsyncEvaluate is an app module with its own `extension LAContext`
/// re-declaring Apple's async `evaluatePolicy` (open2fa, SwiftKit).
let swift5 = Context.environment["APP_FIDELITY_SWIFT"] == "5"
let mode: SwiftLanguageMode = swift5 ? .v5 : .v6
/// The app protocol with a plain reply (BiometricContext.swift) is Swift 5 mode's; Swift 6 mode
/// builds its `@Sendable` form, as on a Mac (see BiometricContext+Sendable.swift).
let modeOnly = swift5 ? ["BiometricContext+Sendable.swift"] : ["BiometricContext.swift"]

let package = Package(
  name: "AppFidelity",
  dependencies: [.package(name: "localauthd", path: "../..")],
  targets: [
    .target(
      name: "OwnAsyncEvaluate",
      dependencies: [.product(name: "LocalAuthentication", package: "localauthd")],
      swiftSettings: [.swiftLanguageMode(mode)]),
    .executableTarget(
      name: "AppFidelity",
      dependencies: [
        "OwnAsyncEvaluate", .product(name: "LocalAuthentication", package: "localauthd"),
      ],
      exclude: modeOnly,
      swiftSettings: [.swiftLanguageMode(mode)]),
  ]
)
