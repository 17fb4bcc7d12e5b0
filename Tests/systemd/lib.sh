# Shared helpers for the real-systemd harnesses; sourced, not run.
# Each harness counts checks with check/pass/fail and ends with `finish`,
# which prints "N passed, N failed" and sets the exit status.

PASSED=0
FAILED=0
HARNESS=$(basename "$0")
# Timeouts scale with LOCALAUTHD_TEST_TIMEOUT_SCALE (default 1).
SCALE=${LOCALAUTHD_TEST_TIMEOUT_SCALE:-1}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

pass() { PASSED=$((PASSED + 1)); echo "ok   - $*"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL - $*" >&2; }

# check DESCRIPTION COMMAND...: runs the command, counts the outcome.
check() {
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

# die MESSAGE: a missing capability or broken setup; never a silent skip.
die() {
    echo "$HARNESS: ERROR: $*" >&2
    FAILED=$((FAILED + 1))
    echo "$PASSED passed, $FAILED failed"
    exit 2
}

finish() {
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root"; }

need_cmd() {
    local cmd
    for cmd in "$@"; do
        command -v "$cmd" >/dev/null 2>&1 || die "missing command: $cmd"
    done
}

# The daemon under test: $LOCALAUTHD, else the first argument, else .build/release/localauthd.
resolve_daemon() {
    LOCALAUTHD=${LOCALAUTHD:-${1:-$REPO/.build/release/localauthd}}
    [ -x "$LOCALAUTHD" ] || die "daemon binary not executable: $LOCALAUTHD (set LOCALAUTHD)"
    LOCALAUTHD=$(readlink -f "$LOCALAUTHD")
}

# wait_for SECONDS COMMAND...: polls every 50 ms until the command succeeds.
wait_for() {
    local deadline=$(( $(date +%s%N) + ${1%.*} * SCALE * 1000000000 ))
    shift
    until "$@"; do
        [ "$(date +%s%N)" -lt "$deadline" ] || return 1
        sleep 0.05
    done
}

# gone PID: the process has exited (absent, or a zombie not yet reaped).
gone() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
    [[ $state == Z* ]]
}

# rpc SOCKET JSON [TIMEOUT]: one request, prints the response line.
rpc() { python3 "$HERE/rpc.py" --socket "$1" --timeout "${3:-10}" "$2"; }
