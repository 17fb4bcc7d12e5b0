// swift-tools-version:6.0
import PackageDescription

/// Apple's LocalAuthentication sample code, unchanged except `import LocalAuthClient`, built in
/// Swift 6 mode against this repository's client library and run against a real daemon by
/// `make test` (see run.sh).
let package = Package(
  name: "AppleSamples",
  dependencies: [.package(name: "localauthd", path: "../..")],
  targets: [
    .executableTarget(
      name: "AppleSamples",
      dependencies: [.product(name: "LocalAuthClient", package: "localauthd")],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
