#!/bin/bash
# Socket activation without systemd as PID 1: systemd-socket-activate binds
# the socket, and on the first connection execs localauthd with LISTEN_FDS=1,
# LISTEN_FDNAMES=localauthd. Checks that the first connection is answered,
# that the daemon serves the passed fd and bound nothing itself, that an
# evaluation works (--demo), and that ExitOnIdleSec= makes an idle,
# socket-activated daemon exit 0.
#
# Usage: socket-activation.sh [LOCALAUTHD]   (or LOCALAUTHD=path)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_cmd systemd-socket-activate python3 ss
resolve_daemon "${1:-}"

WORK=$(mktemp -d /tmp/localauthd-sockact.XXXXXX)
SOCK=$WORK/localauthd.sock
ACTIVATOR=
cleanup() {
    [ -n "$ACTIVATOR" ] && kill "$ACTIVATOR" 2>/dev/null && wait "$ACTIVATOR" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/state" "$WORK/run"
cat >"$WORK/localauthd.conf" <<CONF
[Broker]
ExitOnIdleSec=3
CONF

# start_activator: runs systemd-socket-activate in the background; sets ACTIVATOR.
start_activator() {
    rm -f "$SOCK"
    STATE_DIRECTORY=$WORK/state RUNTIME_DIRECTORY=$WORK/run \
        systemd-socket-activate -l "$SOCK" --fdname=localauthd \
        -E STATE_DIRECTORY -E RUNTIME_DIRECTORY \
        "$LOCALAUTHD" --demo --config "$WORK/localauthd.conf" \
        >"$WORK/daemon.log" 2>&1 &
    ACTIVATOR=$!
    wait_for 5 test -S "$SOCK" || die "systemd-socket-activate did not create $SOCK: $(cat "$WORK/daemon.log")"
}

start_activator
# Until the first connection, only the activator runs: not the daemon.
check "daemon not started before the first connection" \
    test "$(readlink -f /proc/$ACTIVATOR/exe)" != "$LOCALAUTHD"

status=$(rpc "$SOCK" '{"method":"broker.status"}' 20)
check "first connection is answered (broker.status)" \
    python3 -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if "version" in r.get("result",{}) else 1)' "$status"
echo "     broker.status -> $status"

check "the activator exec'd the daemon (same pid)" \
    test "$(readlink -f /proc/$ACTIVATOR/exe)" = "$LOCALAUTHD"

# The listening socket of the daemon is the passed fd 3 on $SOCK, and the only one.
fd3_inode=$(readlink "/proc/$ACTIVATOR/fd/3" | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p')
check "fd 3 of the daemon is a socket" test -n "$fd3_inode"
listening=$(ss -xlpn 2>/dev/null | awk -v pid="pid=$ACTIVATOR," 'index($0, pid)')
echo "     listening unix sockets of the daemon:"
echo "$listening" | sed 's/^/       /'
check "the daemon listens on exactly one unix socket" test "$(printf '%s\n' "$listening" | grep -c .)" -eq 1
check "that socket is $SOCK on fd 3" \
    bash -c '[[ "$1" == *" $2 "* && "$1" == *",fd=3)"* ]]' _ "$listening" "$SOCK"
check "no socket bound in RUNTIME_DIRECTORY" \
    test -z "$(find "$WORK/run" -type s 2>/dev/null)"

evaluation=$(rpc "$SOCK" '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"socket activation test"}}' 20)
echo "     evaluatePolicy -> $evaluation"
check "an evaluation succeeds on the activated socket" \
    python3 -c 'import json,sys; r=json.loads(sys.argv[1])["result"]; sys.exit(0 if r["requestID"] and r["sensor"] else 1)' "$evaluation"

# ExitOnIdleSec=3: with no client connected the daemon exits, status 0.
if wait_for 15 gone "$ACTIVATOR"; then
    wait "$ACTIVATOR"
    rc=$?
    ACTIVATOR=
    check "idle socket-activated daemon exits with status 0 (ExitOnIdleSec=3)" test "$rc" -eq 0
else
    fail "idle socket-activated daemon still running 15 s after ExitOnIdleSec=3"
fi

echo "     daemon log (last lines):"
tail -n 5 "$WORK/daemon.log" | sed 's/^/       /'
finish
