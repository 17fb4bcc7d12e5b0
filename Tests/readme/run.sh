#!/bin/bash
# `make test-readme`: the README's sessions against `make run` (the demo daemon as the README
# starts it), on a private socket given the documented way (RUN_SOCKET for make run,
# LOCALAUTHD_SOCKET for the clients) and a fresh state directory: the founding bug's recipe and
# what doctor says (once: doctor counts since start), then the first session twice in a row.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d /tmp/localauthd-readme.XXXXXX)
chmod 700 "$dir"
export LOCALAUTHD_SOCKET="$dir/localauthd.sock"
setsid make -s run RUN_SOCKET="$LOCALAUTHD_SOCKET" RUN_STATE="$dir/state" >"$dir/run.log" 2>&1 &
make_pid=$!
cleanup() {
  # Ctrl-C, as a person would: SIGINT to make run's own process group (setsid made it).
  kill -INT -- "-$make_pid" 2>/dev/null || true
  wait "$make_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 600); do [ -S "$LOCALAUTHD_SOCKET" ] && break; sleep 0.1; done
[ -S "$LOCALAUTHD_SOCKET" ] || { echo "make run did not serve $LOCALAUTHD_SOCKET:"; cat "$dir/run.log"; exit 1; }
status=0
echo "=== README founding bug and doctor"
python3 Tests/readme/sessions.py founding-bug || status=1
for round in 1 2; do
  echo "=== README first session, round $round"
  python3 Tests/readme/sessions.py first-session || status=1
done
exit $status
