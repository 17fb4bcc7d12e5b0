#!/bin/bash
# localauthd under a real systemd as PID 1, in a systemd-nspawn container.
#
# Builds (once, cached by rootfs.sh) a bookworm minbase root with systemd,
# copies it per run, installs localauthd with systemd/install.mk (binary,
# units, catalog, sysusers, config), enables localauthd.socket with
# `systemctl --root`, boots the container in a private mount namespace and
# its own cgroups, and drives it with nsenter + systemctl:
# socket activation on the first connection, an evaluation, STATUS in
# `systemctl status`, reload and restart keeping the socket, the watchdog
# restarting a SIGSTOPped daemon, `systemctl stop` answering a pending
# evaluation with systemCancel (-4), journal entries by REQUEST_ID with the
# catalog text, `systemd-analyze verify` and `security` inside the container.
# Stops the container and removes its cgroups: nothing is left running.
#
# Usage: nspawn.sh [LOCALAUTHD]   (or LOCALAUTHD=path). Build the daemon with
#   swift build -c release --static-swift-stdlib
# so it runs inside a plain Debian root. Cache: $LOCALAUTHD_NSPAWN_CACHE.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare make python3
resolve_daemon "${1:-}"

ROOTFS=$("$HERE/rootfs.sh") || die "could not build the container root file system"
NAME=localauthd-test-$$
RUN=$(mktemp -d /var/tmp/localauthd-nspawn.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM

# --- the root: a per-run copy of the cached one, with localauthd installed ---
cp -a --reflink=auto "$ROOTFS" "$ROOT" || die "cannot copy $ROOTFS"
chmod 0755 "$ROOT"
mkdir -p "$RUN/bin"
cp "$LOCALAUTHD" "$RUN/bin/localauthd"
if [ -x "$(dirname "$LOCALAUTHD")/localauthctl" ]; then
    cp "$(dirname "$LOCALAUTHD")/localauthctl" "$RUN/bin/localauthctl"
else
    printf '#!/bin/sh\necho "localauthctl was not built" >&2\nexit 1\n' >"$RUN/bin/localauthctl"
    chmod +x "$RUN/bin/localauthctl"
fi
printf 'include %s/systemd/install.mk\n' "$REPO" >"$RUN/Makefile"
make -s -C "$RUN" install DESTDIR="$ROOT" PREFIX=/usr BINDIR_BUILD="$RUN/bin" >"$RUN/install.log" 2>&1 \
    || die "make install (systemd/install.mk) failed: $(cat "$RUN/install.log")"
pass "systemd/install.mk installed into the container root"

# Under systemd nothing is enrolled by default: a config with an enrolled face
# that matches after 0.5 s, and a passcode.
cat >"$ROOT/etc/localauthd/localauthd.conf" <<'CONF'
[Broker]
AdminGroup=localauth
# Per-user owners (the default): the enrolled face and the passcode below are root's, the user the
# test evaluates as (the daemon itself runs as the system user localauthd).
SetupOwner=root

[Sensor.face]
Kind=faceID
Enrolled=alice
Script=DEFAULT MATCH
DefaultDelayMs=500

[Sensor.passcode]
Kind=passcode
Passcode=123456
CONF
# A short watchdog for the wedge test; abort quickly when the process is stopped.
mkdir -p "$ROOT/etc/systemd/system/localauthd.service.d"
printf '[Service]\nWatchdogSec=2s\nTimeoutAbortSec=3s\n' >"$ROOT/etc/systemd/system/localauthd.service.d/test-watchdog.conf"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
systemctl --root="$ROOT" enable localauthd.socket >"$RUN/enable.log" 2>&1 \
    || die "systemctl --root enable localauthd.socket failed: $(cat "$RUN/enable.log")"
pass "systemctl --root enable localauthd.socket"

# --- boot ---
container_boot

SOCK=/run/localauthd/localauthd.sock
crpc() { cx localauthd-rpc --socket "$SOCK" --timeout "${2:-20}" "$1"; }
main_pid() { cx systemctl show -P MainPID localauthd.service; }
# real_pid PID: a positive pid (never signal 0, -1 or an empty string).
real_pid() { [[ ${1:-} =~ ^[1-9][0-9]*$ ]]; }
json_get() { python3 -c 'import json,sys
v = json.loads(sys.argv[1])
for k in sys.argv[2].split("."):
    v = v[k] if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" 2>/dev/null; }

missing_libs=$(cx ldd /usr/libexec/localauthd 2>&1 | grep 'not found')
check "the daemon's shared libraries resolve in the container${missing_libs:+: $missing_libs}" test -z "$missing_libs"
check "units verify inside the container (systemd-analyze verify)" \
    cx systemd-analyze verify --man=no localauthd.socket localauthd.service
score=$(cx systemd-analyze security localauthd.service 2>/dev/null | sed -n 's/.*Overall exposure level for localauthd.service: \([0-9.]*\).*/\1/p')
echo "     systemd-analyze security localauthd.service (online, in the container): $score"
check "exposure score $score <= 2.0" python3 -c "import sys; sys.exit(0 if float('${score:-99}') <= 2.0 else 1)"

check "systemctl enable --now localauthd.socket" cx systemctl enable --now localauthd.socket
check "localauthd.socket is active" cx systemctl is-active --quiet localauthd.socket
check "localauthd.service is not running before the first connection" \
    bash -c '! cx systemctl is-active --quiet localauthd.service' _
check "the socket exists in the container, mode 0666" \
    bash -c '[ "$(cx stat -c %a '"$SOCK"')" = 666 ]'

# 1. The first connection activates the service.
status=$(crpc '{"method":"broker.status"}')
echo "     broker.status -> $status"
check "first connection answered (broker.status)" test -n "$(json_get "$status" result.version)"
check "the first connection started localauthd.service" cx systemctl is-active --quiet localauthd.service
PID=$(main_pid)
check "the daemon runs as the sysusers user localauthd" \
    bash -c '[ "$(cx ps -o user= -p '"$PID"')" = localauthd ]'

# 2. An evaluation.
evaluation=$(crpc '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"nspawn test"}}' 30)
echo "     evaluatePolicy -> $evaluation"
REQUEST_ID=$(json_get "$evaluation" result.requestID)
check "an evaluation succeeds under systemd" test -n "$REQUEST_ID"

# 2b. Clients keep their real identity (SO_PEERCRED) under the sandbox: an
# unprivileged client may evaluate but not administer; a member of the
# localauth group may administer.
as_user() { local who=$1; shift; cx setpriv --reuid="$who" --regid="$who" --init-groups "$@"; }
cx useradd --system --no-create-home --groups localauth laadmin 2>/dev/null
cx useradd --system --no-create-home lauser 2>/dev/null
LAUSER_UID=$(cx id -u lauser)
denied=$(as_user lauser localauthd-rpc --socket "$SOCK" '{"method":"sensors.script","params":{"sensor":"face","commands":["MATCH"]}}')
check "an unprivileged client gets permissionDenied (-32003) for sensors.script" \
    test "$(json_get "$denied" error.code)" = -32003
allowed=$(as_user laadmin localauthd-rpc --socket "$SOCK" '{"method":"sensors.script","params":{"sensor":"face","commands":["MATCH"]}}')
check "a member of the localauth group may script sensors (AdminGroup=localauth)" \
    test -n "$(json_get "$allowed" result.queued)"
# Per-user owners: root enrolls a face and sets a passcode for lauser (whose own evaluation needs them).
crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"lauser-face","user":"lauser"}}' >/dev/null
crpc '{"method":"sensors.setPasscode","params":{"passcode":"2468","user":"lauser"}}' >/dev/null
user_eval=$(as_user lauser localauthd-rpc --socket "$SOCK" --timeout 30 '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"user"}}')
USER_REQUEST=$(json_get "$user_eval" result.requestID)
check "an unprivileged client can evaluate" test -n "$USER_REQUEST"
user_entry=$(cx journalctl -b --no-pager -u localauthd.service REQUEST_ID="$USER_REQUEST" MESSAGE_ID=58f85e6fc39a4c9093b7a9704736f258 -o json)
check "the journal records the client's real uid $LAUSER_UID" \
    test "$(json_get "$user_entry" CLIENT_UID)" = "$LAUSER_UID"
check "the journal names the client by its process name (python3), got '$(json_get "$user_entry" CLIENT_NAME)'" \
    test "$(json_get "$user_entry" CLIENT_NAME)" = python3

# 3. STATUS= in systemctl status.
status_text=$(cx systemctl show -P StatusText localauthd.service)
echo "     StatusText: $status_text"
check "systemctl status shows the STATUS line" \
    bash -c 'cx systemctl status --no-pager localauthd.service | grep -Eq "Status: \"[0-9]+ clients, [0-9]+ evaluating, [0-9]+ queued\""'

# 4. Reload keeps the process and the socket.
check "systemctl reload localauthd" cx timeout 30 systemctl reload localauthd.service
check "reload kept the main pid" test "$(main_pid)" = "$PID"
check "a new connection works after reload" test -n "$(json_get "$(crpc '{"method":"broker.status"}')" result.version)"

# 5. Restart: new process, same socket.
check "systemctl restart localauthd" cx timeout 30 systemctl restart localauthd.service
NEWPID=$(main_pid)
check "restart started a new main pid ($PID -> $NEWPID)" test "$NEWPID" != "$PID" -a "$NEWPID" != 0
check "localauthd.socket stayed active across restart" cx systemctl is-active --quiet localauthd.socket
check "a new connection works after restart" test -n "$(json_get "$(crpc '{"method":"broker.status"}')" result.version)"

# 6. The watchdog restarts a wedged daemon (WatchdogSec=2s drop-in).
PID=$(main_pid)
real_pid "$PID" || die "no main pid for the watchdog test (MainPID '$PID')"
cx kill -STOP "$PID"
restarted() { local p; p=$(main_pid); real_pid "$p" && [ "$p" != "$PID" ]; }
if wait_for 30 restarted; then
    pass "watchdog restarted the SIGSTOPped daemon ($PID -> $(main_pid))"
else
    fail "SIGSTOPped daemon $PID not restarted by the watchdog within 30 s"
fi
check "the journal records the watchdog timeout" \
    bash -c 'cx journalctl -b --no-pager -u localauthd.service | grep -q "Watchdog timeout"'
wait_for 10 cx systemctl is-active --quiet localauthd.service
check "a new connection works after the watchdog restart" \
    test -n "$(json_get "$(crpc '{"method":"broker.status"}')" result.version)"

# 7. systemctl stop answers a pending evaluation with systemCancel (-4).
scripted=$(crpc '{"method":"sensors.script","params":{"sensor":"face","commands":["DEFAULT WAIT"],"replace":true}}')
check "sensors.script DEFAULT WAIT accepted (root is admin)" test -n "$(json_get "$scripted" result.queued)"
cx rm -f /run/pending.ready
cx localauthd-rpc --socket "$SOCK" --timeout 60 --ready /run/pending.ready \
    '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"pending"}}' \
    >"$RUN/pending.out" 2>&1 &
PENDING=$!
wait_for 10 cx test -e /run/pending.ready
evaluating() { cx systemctl show -P StatusText localauthd.service | grep -q '[1-9][0-9]* evaluating'; }
wait_for 10 evaluating || echo "     (StatusText never showed the evaluation: $(cx systemctl show -P StatusText localauthd.service))"
check "systemctl stop localauthd" cx timeout 30 systemctl stop localauthd.service
wait "$PENDING"
pending=$(cat "$RUN/pending.out")
echo "     pending evaluation -> $pending"
check "the pending evaluation was answered with systemCancel (-4)" test "$(json_get "$pending" error.code)" = -4
check "the service stopped cleanly (not failed)" \
    bash -c '[ "$(cx systemctl show -P Result localauthd.service)" = success ]'
check "the socket is still active after stopping the service" cx systemctl is-active --quiet localauthd.socket

# 8. The journal, by REQUEST_ID, with the catalog.
cx journalctl --update-catalog
entries=$(cx journalctl -b --no-pager -u localauthd.service REQUEST_ID="$REQUEST_ID" -o json | grep -c .)
check "journalctl -u localauthd REQUEST_ID=$REQUEST_ID finds 2 entries (found $entries)" test "$entries" -eq 2
check "both entries come from _SYSTEMD_UNIT=localauthd.service" \
    bash -c '[ "$(cx journalctl -b --no-pager _SYSTEMD_UNIT=localauthd.service REQUEST_ID='"$REQUEST_ID"' -o json | grep -c .)" -eq 2 ]'
explained=$(cx journalctl -b --no-pager -x -u localauthd.service REQUEST_ID="$REQUEST_ID")
check "journalctl -x explains the entries from localauthd.catalog" \
    grep -q "Subject: Evaluation $REQUEST_ID" <<<"$explained"
check "daemon-started and daemon-stopping entries are in the journal" \
    bash -c 'cx journalctl -b --no-pager -u localauthd.service MESSAGE_ID=007c3e8bb647412cb52813f1c7944d99 -o cat | grep -q . &&
             cx journalctl -b --no-pager -u localauthd.service MESSAGE_ID=eae9485abfa647bba4c1d4180a854a19 -o cat | grep -q .'

# 9. The sandboxed unit reaches the system bus (Kind=fprintd): with no fprintd in the container,
# the bus itself answers ServiceUnknown, which a unit cut off from the bus would never hear.
# fprintd is activated on demand, so an evaluation of a user without a face (lauser) makes the
# finger's first call.
cx mkdir -p /etc/localauthd/localauthd.conf.d
printf '[Sensor.finger]\nKind=fprintd\n' | cx tee /etc/localauthd/localauthd.conf.d/50-fprintd.conf >/dev/null
check "systemctl restart localauthd with a fprintd sensor" cx timeout 30 systemctl restart localauthd.service
as_user lauser localauthd-rpc --socket "$SOCK" --timeout 10 \
    '{"method":"context.evaluatePolicy","params":{"policy":"deviceOwnerAuthenticationWithBiometrics","localizedReason":"finger"}}' >/dev/null 2>&1 || true
bus_answered() { cx journalctl -b --no-pager -u localauthd.service -o cat | grep -q "fprintd sensor finger: fprintd not reachable (org.freedesktop.DBus.Error.ServiceUnknown)"; }
check "the service reached the system bus (the bus answered ServiceUnknown for fprintd)" wait_for 10 bus_answered
check "the service never failed to connect to the bus" \
    bash -c '! cx journalctl -b --no-pager -u localauthd.service -o cat | grep -q "cannot connect to the system bus"'
cx rm -f /etc/localauthd/localauthd.conf.d/50-fprintd.conf

if [ "$FAILED" -gt 0 ]; then
    echo "     --- journalctl -u localauthd (last 30 lines) ---"
    cx journalctl -b --no-pager -u localauthd.service -u localauthd.socket | tail -n 30 | sed 's/^/     /'
fi

# --- shut down: the container, then its cgroups ---
container_stop
finish
