#!/bin/bash
# Builds the Apple samples in Swift 6 mode and runs them against a real localauthd in demo mode
# on a private socket and state directory. Usage: Examples/AppleSamples/run.sh [LOCALAUTHD]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
daemon=${1:-$(cd "$root" && swift build --show-bin-path)/localauthd}
[ -x "$daemon" ] || (cd "$root" && swift build --product localauthd)
(cd "$here" && swift build)
samples=$(cd "$here" && swift build --show-bin-path)/AppleSamples
scratch=$(mktemp -d /tmp/localauthd-samples.XXXXXX)
"$daemon" --demo --stderr --socket "$scratch/localauthd.sock" --state-dir "$scratch/state" \
  2> "$scratch/daemon.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 1 100); do [ -S "$scratch/localauthd.sock" ] && break; sleep 0.1; done
LOCALAUTHD_SOCKET="$scratch/localauthd.sock" "$samples"
