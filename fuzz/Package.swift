// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for localauthd's wire code, built apart from the main package:
/// `swift build -c debug -Xswiftc -sanitize=fuzzer,address --product localauthd-fuzz` (see mk/bench.mk).
let package = Package(
  name: "localauthd-fuzz",
  dependencies: [.package(name: "main", path: "..")],
  targets: [
    // LineFramer + IncomingFrame.decode + JSONParser/JSONWriter properties, and the SSH agent
    // message decoder; main.swift hands control to libFuzzer's LLVMFuzzerRunDriver (SwiftPM
    // renames an executable's main).
    .executableTarget(
      name: "localauthd-fuzz",
      dependencies: [
        .product(name: "LocalAuthProtocol", package: "main"),
        .product(name: "SSHAgent", package: "main"),
      ])
  ]
)
