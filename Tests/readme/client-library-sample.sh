#!/bin/bash
# docs/client-library.md's main sample (the swift block after `<!-- compiled: ... -->`), as
# pasted into a program's main.swift: type-checked in Swift 6 language mode, warnings as errors,
# against the debug build's LocalAuthClient. Usage: Tests/readme/client-library-sample.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "$root" && swift build --show-bin-path)
scratch=$(mktemp -d /tmp/localauthd-sample.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
awk '/^<!-- compiled: Tests\/readme\/client-library-sample.sh -->$/ { m = 1; next }
     m && /^```swift$/ { b = 1; next } b && /^```$/ { exit } b' \
  "$root/docs/client-library.md" >"$scratch/main.swift"
[ -s "$scratch/main.swift" ] || { echo "client-library-sample.sh: no sample found" >&2; exit 1; }
# The library's C modules, as SwiftPM passes them to a client that imports it.
swiftc -typecheck -swift-version 6 -warnings-as-errors -I "$bin/Modules" \
  -Xcc -fmodule-map-file="$bin/CCryptoShim.build/module.modulemap" \
  -Xcc -fmodule-map-file="$root/Sources/CLibCrypto/module.modulemap" \
  -Xcc -fmodule-map-file="$bin/CLocalAuthSystem.build/module.modulemap" \
  -Xcc -I"$root/Sources/CCryptoShim/include" -Xcc -I"$root/Sources/CLocalAuthSystem/include" \
  "$scratch/main.swift"
echo "ok   docs/client-library.md's main sample compiles as a main.swift (Swift 6, no warnings)"
