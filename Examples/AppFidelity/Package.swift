// swift-tools-version:6.0
import PackageDescription

/// LocalAuthentication code as app developers write it (helpers, view models, a continuation
/// wrapper, LAContext test doubles, Apple's documentation snippets), unchanged even in its
/// `import LocalAuthentication`, built against this repository's client library and run against
/// a real daemon by `make test-samples` (see run.sh). APP_FIDELITY_SWIFT=5 builds it in Swift 5
/// language mode, anything else in Swift 6 mode: run.sh builds and runs both.
let mode: SwiftLanguageMode = Context.environment["APP_FIDELITY_SWIFT"] == "5" ? .v5 : .v6

let package = Package(
  name: "AppFidelity",
  dependencies: [.package(name: "localauthd", path: "../..")],
  targets: [
    .executableTarget(
      name: "AppFidelity",
      dependencies: [.product(name: "LocalAuthentication", package: "localauthd")],
      swiftSettings: [.swiftLanguageMode(mode)])
  ]
)
