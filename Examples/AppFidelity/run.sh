#!/bin/bash
# Builds the app-style code in Swift 5 and in Swift 6 language mode and runs each build against a
# real localauthd in demo mode on a private socket and state directory.
# Usage: Examples/AppFidelity/run.sh [LOCALAUTHD]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
daemon=${1:-$(cd "$root" && swift build --show-bin-path)/localauthd}
[ -x "$daemon" ] || (cd "$root" && swift build --product localauthd)
scratch=$(mktemp -d /tmp/localauthd-fidelity.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT
for language in 5 6; do
  (cd "$here" && APP_FIDELITY_SWIFT=$language swift build --scratch-path ".build/swift$language")
  app=$(cd "$here" && APP_FIDELITY_SWIFT=$language swift build \
    --scratch-path ".build/swift$language" --show-bin-path)/AppFidelity
  rm -rf "$scratch/state" "$scratch/localauthd.sock"
  "$daemon" --demo --stderr --socket "$scratch/localauthd.sock" --state-dir "$scratch/state" \
    2> "$scratch/daemon-swift$language.log" &
  pid=$!
  for _ in $(seq 1 100); do [ -S "$scratch/localauthd.sock" ] && break; sleep 0.1; done
  echo "== Swift $language language mode"
  if ! LOCALAUTHD_SOCKET="$scratch/localauthd.sock" "$app"; then
    echo "--- daemon log (Swift $language run):"
    tail -n 40 "$scratch/daemon-swift$language.log"
    exit 1
  fi
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=
done
