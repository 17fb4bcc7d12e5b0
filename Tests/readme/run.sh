#!/bin/bash
# `make test-readme`: the README's sessions against `make run` (the demo daemon as the README
# starts it), on a private socket given the documented way (RUN_SOCKET for make run,
# LOCALAUTHD_SOCKET for the clients) and a fresh state directory: the founding bug's recipe and
# what doctor says (once: doctor counts since start), then the first session twice in a row.
set -euo pipefail
cd "$(dirname "$0")/../.."
# As from a person's shell: a make started by `make test` would otherwise pass its -w on, and
# `make -s run-socket` would print "Entering directory" around the path.
unset MAKEFLAGS MFLAGS MAKELEVEL
# Unless told otherwise, make run serves a private socket in the clone, never the service's.
default_socket=$(env -u RUN_SOCKET make -s run-socket)
case "$default_socket" in
  "$PWD/.build/"*) echo "ok    make run's default socket is private: $default_socket" ;;
  *) echo "FAIL  make run would serve $default_socket, not a socket under $PWD/.build"; exit 1 ;;
esac
dir=$(mktemp -d /tmp/localauthd-readme.XXXXXX)
chmod 700 "$dir"
export LOCALAUTHD_SOCKET="$dir/localauthd.sock"
# The README's `export LOCALAUTHD_SOCKET=$(make -s run-socket)` then names this socket too.
export RUN_SOCKET="$LOCALAUTHD_SOCKET"
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
# The demo hint names localauthctl by its full path and the socket to export.
hint="export LOCALAUTHD_SOCKET=$LOCALAUTHD_SOCKET; $(swift build --show-bin-path)/localauthctl status"
if grep -qF "$hint" "$dir/run.log"; then echo "ok    the daemon's hint: $hint"; else
  echo "FAIL  the daemon's hint lacks: $hint"; cat "$dir/run.log"; status=1
fi
echo "=== README founding bug and doctor"
python3 Tests/readme/sessions.py founding-bug || status=1
# The first session is not a bug: doctor's counts (the founding bug's findings) stay as they are.
counts() {
  "$(swift build --show-bin-path)/localauthctl" --json doctor 2>&1 |
    python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["counts"], sort_keys=True))'
}
before=$(counts)
for round in 1 2; do
  echo "=== README first session, round $round"
  python3 Tests/readme/sessions.py first-session || status=1
done
after=$(counts)
if [[ -n $before && $before == "$after" ]]; then
  echo "ok    doctor finds nothing in the first session: $after"
else
  echo "FAIL  doctor flags the README's first session: $before, then $after"; status=1
fi
exit $status
