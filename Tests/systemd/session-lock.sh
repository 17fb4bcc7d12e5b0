#!/bin/bash
# Reuse windows that end when the session locks (issue 34), with a real logind under a real
# systemd (systemd-nspawn): the installed localauthd.service (its sandbox, User=localauthd) on the
# container's system bus.
#
# Boots pam-sudo.sh's root (its cache, $LOCALAUTHD_PAM_NSPAWN_CACHE; it has dbus and
# libpam-systemd), installs localauthd (systemd/install.mk), creates alice and bob, each with a
# logind session of their own (a systemd-run service through a PAM service with pam_systemd), and:
#   alice's SSH key with --reuse 600 signs after a match, then again with no capture;
#   bob, as himself, sends logind's Lock for alice's session on the system bus (busctl emit:
#     broadcast and to the daemon directly) and PrepareForSleep(true): nothing closes (a
#     `loginctl lock-session` of bob's own session afterwards shows the daemon had read them);
#   `loginctl lock-session` of alice's session: the journal says "reuse windows of uid ALICE
#     closed: lock" and her next signature captures;
#   a key made with --keep-on-lock keeps its window through a lock;
#   `loginctl terminate-session` of alice's session: "closed: logout".
# Stops the container and removes its cgroups: nothing is left running.
#
# Usage: session-lock.sh [LOCALAUTHD]   (or LOCALAUTHD=path)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare make python3
resolve_daemon "${1:-}"

export LOCALAUTHD_NSPAWN_CACHE=${LOCALAUTHD_PAM_NSPAWN_CACHE:-/var/cache/localauthd-test/rootfs-pam}
export LOCALAUTHD_NSPAWN_EXTRA_PACKAGES=sudo,pamtester,libpam-modules
export LOCALAUTHD_NSPAWN_LATE_PACKAGES="polkitd pkexec libpam-systemd"
ROOTFS=$("$HERE/rootfs.sh") || die "could not build the container root file system"
NAME=localauthd-lock-$$
RUN=$(mktemp -d /var/tmp/localauthd-lock.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM

# --- the root: a copy of the cached one, with localauthd installed ---
container_root_with_daemon
cat >"$ROOT/etc/localauthd/localauthd.conf" <<'CONF'
[Sensor.face]
Kind=faceID
Default=WAIT
CONF
# A PAM service that only registers a logind session (class user), for a service of each user.
printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required pam_systemd.so class=user\n' \
    >"$ROOT/etc/pam.d/la-session"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
systemctl --root="$ROOT" enable localauthd.socket >"$RUN/enable.log" 2>&1 \
    || die "systemctl --root enable localauthd.socket failed: $(cat "$RUN/enable.log")"

container_boot

SOCK=/run/localauthd/localauthd.sock
json_get() { python3 -c 'import json,sys
v = json.loads(sys.argv[1])
for k in sys.argv[2].split("."):
    v = v[k] if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" 2>/dev/null; }
crpc() { cx localauthd-rpc --socket "$SOCK" --timeout 20 "$1"; }
# as USER JSON: one request as USER (SO_PEERCRED says USER).
as() { cx setpriv --reuid="$1" --regid="$1" --init-groups localauthd-rpc --socket "$SOCK" --timeout 20 "$2"; }
script() { crpc '{"method":"sensors.script","params":{"sensor":"face","commands":['"$1"'],"replace":true}}' >/dev/null; }
# sign USER KEY: "signed", or the error's code (userCancel is -2).
sign() {
    local answer
    answer=$(as "$1" '{"method":"sshKey.sign","params":{"name":"'"$2"'","data":"AQID"}}')
    if [ -n "$(json_get "$answer" result.signature)" ]; then echo signed; else
        echo "sign $1 $2: $answer" >&2
        json_get "$answer" error.code; fi
}
journal() { cx journalctl -b --no-pager -u localauthd.service -o cat; }
closed() { journal | grep -c "reuse windows of $1 closed: $2"; }

cx useradd -m -s /bin/bash alice || die "useradd alice failed"
cx useradd -m -s /bin/bash bob || die "useradd bob failed"
ALICE=$(cx id -u alice)
BOB=$(cx id -u bob)
for user in alice bob; do
    crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"'$user'-face","user":"'$user'"}}' >/dev/null
    crpc '{"method":"sensors.setPasscode","params":{"passcode":"1234","user":"'$user'"}}' >/dev/null
    cx systemd-run --quiet --unit="la-session-$user" -p User=$user -p PAMName=la-session sleep infinity \
        || die "cannot start a session for $user"
done
session_of() { cx loginctl --no-legend list-sessions | awk -v u="$1" '$3 == u { print $1; exit }'; }
wait_for 10 test -n "$(session_of alice)" || die "alice has no logind session: $(cx loginctl list-sessions)"
wait_for 10 test -n "$(session_of bob)" || die "bob has no logind session"
ALICE_SESSION=$(session_of alice)
BOB_SESSION=$(session_of bob)
check "the daemon watches logind from its sandbox" \
    wait_for 10 bash -c "$(declare -f journal cx); journal | grep -q 'watching logind'"

created=$(as alice '{"method":"sshKey.create","params":{"name":"git","reuseSeconds":600}}')
check "alice's key git made with a reuse window" test "$(json_get "$created" result.reuseSeconds)" = 600
script '"MATCH","CANCEL"'
check "the first signature matches" test "$(sign alice git)" = signed
check "the second signs in the window (no capture: the CANCEL waits)" test "$(sign alice git)" = signed

# bob speaks for logind: broadcast and straight to the daemon's connection.
DAEMON_NAME=$(cx busctl --no-legend list | awk '$3 == "localauthd" && $1 ~ /^:/ { print $1; exit }')
SESSION_PATH=$(cx busctl call org.freedesktop.login1 /org/freedesktop/login1 \
    org.freedesktop.login1.Manager GetSession s "$ALICE_SESSION" | awk '{ print $2 }' | tr -d '"')
check "the daemon's bus name and alice's session path are known" test -n "$DAEMON_NAME" -a -n "$SESSION_PATH"
for destination in "" "--destination=$DAEMON_NAME"; do
    check "bob sends a look-alike Lock of alice's session ${destination:-(broadcast)}" \
        cx setpriv --reuid=bob --regid=bob --init-groups busctl emit $destination "$SESSION_PATH" \
        org.freedesktop.login1.Session Lock
    check "bob sends a look-alike PrepareForSleep(true) ${destination:-(broadcast)}" \
        cx setpriv --reuid=bob --regid=bob --init-groups busctl emit $destination /org/freedesktop/login1 \
        org.freedesktop.login1.Manager PrepareForSleep b true
done
cx loginctl lock-session "$BOB_SESSION"
check "logind's lock of bob's own session reaches the daemon" \
    wait_for 10 bash -c "$(declare -f journal cx closed); test \$(closed 'uid $BOB' lock) -ge 1"
check "bob's look-alike Lock and PrepareForSleep closed nothing" \
    test "$(closed "uid $ALICE" lock)$(closed 'every uid' sleep)" = 00
check "alice's window is still open" test "$(sign alice git)" = signed

cx loginctl lock-session "$ALICE_SESSION"
check "loginctl lock-session closes alice's windows (journal)" \
    wait_for 10 bash -c "$(declare -f journal cx closed); test \$(closed 'uid $ALICE' lock) -ge 1"
check "alice's next signature captures (the CANCEL)" test "$(sign alice git)" = -2

as alice '{"method":"sshKey.create","params":{"name":"kept","reuseSeconds":600,"keepOnLock":true}}' >/dev/null
script '"MATCH","CANCEL"'
check "the kept key matches" test "$(sign alice kept)" = signed
cx loginctl lock-session "$ALICE_SESSION"
check "a second lock of alice's session" \
    wait_for 10 bash -c "$(declare -f journal cx closed); test \$(closed 'uid $ALICE' lock) -ge 2"
check "a key made with keepOnLock signs through the lock" test "$(sign alice kept)" = signed

script '"MATCH","CANCEL"'
check "git matches again" test "$(sign alice git)" = signed
cx systemctl stop la-session-alice.service
check "the end of alice's session closes her windows (journal)" \
    wait_for 10 bash -c "$(declare -f journal cx closed); test \$(closed 'uid $ALICE' logout) -ge 1"
check "alice's next signature captures after the logout" test "$(sign alice git)" = -2

container_stop
finish
