#!/bin/bash
# A login by finger (issue 33), under a real systemd and logind (systemd-nspawn): docs/pam.md's
# `login` lines in the container's /etc/pam.d/login and in Debian's /etc/pam.d/lightdm (from the
# lightdm package, `apt-get download`), a scripted face (Kind=faceID) for alice.
#
# login-probe (login-probe.c) runs the login's PAM transaction as login(1) and a display manager's
# worker do: PAM_TTY, PAM_RHOST, XDG_SEAT as they set them. The container has no virtual terminal:
# with --vt N the probe binds its own pseudo-terminal over /dev/ttyN in a mount namespace of its own,
# so PAM_TTY=ttyN is the caller's controlling terminal as on a real VT, and the kernel's
# /sys/class/tty/tty0/active (the host's, read-only) says which VT is on screen. Checked:
#   login on the VT on screen, face match        -> signed in, no password asked;
#   login on another VT                          -> steps aside (inactiveTerminal), the password works;
#   PAM_TTY a VT that is not the caller's        -> steps aside (notControllingTerminal);
#   login on a pseudo-terminal, real login(1)    -> steps aside (remoteTerminal);
#   login -h HOST (real login(1)), PAM_RHOST set -> steps aside (remoteSession);
#   an ssh-like login (PAM_TTY=ssh, PAM_RHOST)   -> steps aside (remoteSession);
#   lightdm's service, a greeter session active on seat0 (logind, class greeter) -> signed in by face;
#   lightdm's service, no greeter on the seat   -> steps aside (noGreeter);
#   sudo on the VT, outside any session          -> today's rule: steps aside (noSession).
# Then the keyring (issue 33's second part), /etc/pam.d/login with docs/pam.md's login-keyring and
# login-keyring-session blocks, a D-Bus user session (dbus-user-session) and gnome-keyring:
#   alice logs in with her password -> kept; `secret-tool store` in that session; logs out;
#   alice logs in by finger (fprintd's virtual device) -> `secret-tool lookup` gives the secret, the
#                                       login keyring unlocked;
#   localauthd restarted, by finger  -> signed in, the keyring stays locked.
#
# Usage: login-keyring.sh [LOCALAUTHD]   (or LOCALAUTHD=path; PAM_MODULE=path, default .build/pam/pam_localauthd.so)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare make python3 gcc apt-get dpkg-deb
resolve_daemon "${1:-}"
PAM_MODULE=$(readlink -f "${PAM_MODULE:-$REPO/.build/pam/pam_localauthd.so}")
[ -f "$PAM_MODULE" ] || die "no PAM module at $PAM_MODULE (make pam)"

export LOCALAUTHD_NSPAWN_CACHE=${LOCALAUTHD_KEYRING_NSPAWN_CACHE:-/var/cache/localauthd-test/rootfs-keyring}
export LOCALAUTHD_NSPAWN_EXTRA_PACKAGES=sudo,pamtester,libpam-modules,login
# libtss2-*: the daemon links tpm2-tss since issue 32.
export LOCALAUTHD_NSPAWN_LATE_PACKAGES="libpam-systemd dbus-user-session gnome-keyring libpam-gnome-keyring libsecret-tools fprintd polkitd libtss2-esys-3.0.2-0 libtss2-mu0 libtss2-rc0 libtss2-sys1 libtss2-tctildr0"
export LOCALAUTHD_NSPAWN_ARGS=--system-call-filter=@memlock
ROOTFS=$("$HERE/rootfs.sh") || die "could not build the container root file system"
NAME=localauthd-login-$$
RUN=$(mktemp -d /var/tmp/localauthd-login.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM
PASSWORD='Al1ce-login-33'

container_root_with_daemon
make -s -C "$REPO" install-pam DESTDIR="$ROOT" PREFIX=/usr PAM_MODULE="$PAM_MODULE" >>"$RUN/install.log" 2>&1 \
    || die "make install-pam failed: $(cat "$RUN/install.log")"
# The password helper checks a password before the daemon keeps it (issue 33's keyring rows).
make -s -C "$REPO" install-password-helper DESTDIR="$ROOT" PREFIX=/usr >>"$RUN/install.log" 2>&1 \
    || die "make install-password-helper failed: $(cat "$RUN/install.log")"
gcc -std=gnu11 -O1 -Wall -Wextra -Werror -o "$ROOT/usr/local/bin/login-probe" "$HERE/login-probe.c" -lpam -lpam_misc \
    || die "cannot build login-probe"
cat >"$ROOT/etc/localauthd/localauthd.conf" <<'CONF'
[Sensor.face]
Kind=faceID
Default=WAIT
CONF

# block NAME: docs/pam.md's lines between <!-- pam.d/NAME --> and <!-- end --> (without the fences).
block() { sed -n "/^<!-- pam.d\/$1 -->\$/,/^<!-- end -->\$/p" "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d'; }
# replace_common_auth FILE NAME: FILE's `@include common-auth` line replaced by block NAME.
replace_common_auth() {
    local lines
    lines=$(block "$2")
    grep -q pam_localauthd.so <<<"$lines" || die "docs/pam.md has no pam.d/$2 block"
    grep -qx '@include common-auth' "$1" || die "$1 has no '@include common-auth' line"
    python3 -c 'import sys
path, lines = sys.argv[1], sys.argv[2]
text = open(path).read().replace("@include common-auth\n", lines + "\n", 1)
open(path, "w").write(text)' "$1" "$lines"
}
cp "$ROOT/etc/pam.d/login" "$RUN/login.debian"
replace_common_auth "$ROOT/etc/pam.d/login" login-auth
# Debian's lightdm PAM file, from its package (the package itself pulls in X).
(cd "$RUN" && apt-get download lightdm >"$RUN/lightdm-download.log" 2>&1) || die "apt-get download lightdm failed"
dpkg-deb --fsys-tarfile "$RUN"/lightdm_*.deb | tar -x -C "$RUN" ./etc/pam.d/lightdm || die "no etc/pam.d/lightdm in lightdm's package"
install -m 0644 "$RUN/etc/pam.d/lightdm" "$ROOT/etc/pam.d/lightdm"
replace_common_auth "$ROOT/etc/pam.d/lightdm" lightdm-auth
# sudo: docs/pam.md's sudo block (no `login`): today's rule.
block sudo >"$ROOT/etc/pam.d/sudo"
# A greeter's own session (lightdm-greeter's shape: pam_systemd, class greeter).
printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required pam_systemd.so class=greeter\n' \
    >"$ROOT/etc/pam.d/la-greeter"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
install -D -m 0755 "$HERE/pty-run.py" "$ROOT/usr/local/bin/pty-run"
install -D -m 0755 "$HERE/vfinger.py" "$ROOT/usr/local/bin/vfinger"
# The keyring rows' login by finger: fprintd with libfprint's virtual device (docs/fprintd-tryout.md)
# and docs/drivers.md's polkit rule for the daemon's user, verbatim.
mkdir -p "$ROOT/etc/systemd/system/fprintd.service.d" "$ROOT/etc/polkit-1/rules.d"
printf '[Service]\nEnvironment=FP_VIRTUAL_DEVICE=/run/fprintd-vdev/vdev.sock\nRuntimeDirectory=fprintd-vdev\n' \
    >"$ROOT/etc/systemd/system/fprintd.service.d/virtual-device.conf"
sed -n '/^\/\/ \/etc\/polkit-1\/rules.d\/50-localauthd-fprintd.rules$/,/^```$/p' "$REPO/docs/drivers.md" | sed '$d' \
    >"$ROOT/etc/polkit-1/rules.d/50-localauthd-fprintd.rules"
grep -q localauthd "$ROOT/etc/polkit-1/rules.d/50-localauthd-fprintd.rules" || die "docs/drivers.md has no polkit rule for fprintd"
printf '127.0.1.1 localauthd-test\n' >>"$ROOT/etc/hosts"
systemctl --root="$ROOT" enable localauthd.socket localauthd-password.socket >"$RUN/enable.log" 2>&1 \
    || die "systemctl --root enable localauthd.socket failed: $(cat "$RUN/enable.log")"

container_boot
SOCK=/run/localauthd/localauthd.sock
crpc() { cx localauthd-rpc --socket "$SOCK" --timeout 20 "$1"; }
json_get() { python3 -c 'import json,sys
v = json.loads(sys.argv[1])
for k in sys.argv[2].split("."):
    v = v[k] if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" 2>/dev/null; }
export -f json_get
cx useradd -m -s /bin/bash alice || die "useradd alice failed"
cx useradd -r -M -s /usr/sbin/nologin lightdm || die "useradd lightdm failed"
printf 'alice:%s\n' "$PASSWORD" | cx chpasswd || die "chpasswd failed"
check "alice's face enrolled in localauthd" \
    test -n "$(json_get "$(crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"alice-face","user":"alice"}}')" result.enrolled)"
script() { crpc '{"method":"sensors.script","params":{"sensor":"face","commands":['"$1"'],"replace":true}}' >/dev/null; }
last_entry() { cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd -o json "$@" | tail -n 1; }
ACTIVE=$(cx cat /sys/class/tty/tty0/active 2>/dev/null)
ACTIVE=${ACTIVE#tty}
[[ $ACTIVE =~ ^[1-9][0-9]?$ ]] || die "no active virtual terminal in /sys/class/tty/tty0/active (the host's): '$ACTIVE'"
OTHER=$((ACTIVE == 3 ? 4 : 3))
cx touch "/dev/tty$ACTIVE" "/dev/tty$OTHER"  # mount points for the probe's bind (see login-probe.c)
echo "     the kernel's active VT: tty$ACTIVE; another: tty$OTHER"
# probe ARGS... [-- STEPS]: login-probe ARGS on a pseudo-terminal; STEPS answer prompts.
probe() {
    local args=() steps=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
    [ $# -gt 0 ] && { shift; steps=("$@"); }
    cx pty-run --timeout 30 "${steps[@]}" -- login-probe "${args[@]}"
}
# aside_row DESCRIPTION REASON SERVICE PROBE-ARGS...: the module steps aside with REASON, the
# password typed at pam_unix's prompt signs alice in.
aside_row() {
    local description=$1 reason=$2 service=$3 out entry
    shift 3
    script '"MATCH"'
    out=$(probe "$@" "$service" alice -- --step 'Password: $' "$PASSWORD\r" 2>&1)
    entry=$(last_entry PAM_SERVICE="$service")
    check "$description: the password asked and it works; the journal: LA_ERROR=$(json_get "$entry" LA_ERROR) ($(json_get "$entry" MESSAGE | sed 's/^[^:]*: //'))" \
        bash -c 'grep -q "login-probe: authenticated" <<<"$1" && ! grep -q "wants to" <<<"$1" &&
                 [ "$(json_get "$2" LA_ERROR)" = "$3" ]' _ "$out" "$entry" "$reason"
    [ "$FAILED" -gt 0 ] && printf '     | %s\n' "$out" | tail -n 6
}

# 1. login on the VT on screen, a face match: signed in, no password.
script '"MATCH"'
out=$(probe --vt "$ACTIVE" login alice 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=login)
check "login on tty$ACTIVE (the VT on screen), face match: signed in, no password asked" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && grep -q "login wants to sign in alice" <<<"$1" && ! grep -q "^Password: *$" <<<"$1"' _ "$out"
check "...the journal: PAM_OUTCOME=$(json_get "$entry" PAM_OUTCOME), PAM_TTY=$(json_get "$entry" PAM_TTY)" \
    bash -c '[ "$(json_get "$1" PAM_OUTCOME)" = success ] && [ "$(json_get "$1" PAM_TTY)" = "tty$2" ]' _ "$entry" "$ACTIVE"

# 2-6. What steps aside.
aside_row "login on tty$OTHER (not on screen)" inactiveTerminal login --vt "$OTHER"
aside_row "PAM_TTY=tty$ACTIVE from a caller whose terminal it is not" notControllingTerminal login --tty "tty$ACTIVE"
aside_row "a login on a pseudo-terminal (PAM_TTY=/dev/pts/0)" remoteTerminal login --tty /dev/pts/0
aside_row "login on tty$ACTIVE with PAM_RHOST=203.0.113.5" remoteSession login --vt "$ACTIVE" --rhost 203.0.113.5
aside_row "an ssh-like login (PAM_TTY=ssh, PAM_RHOST=198.51.100.7)" remoteSession login --tty ssh --rhost 198.51.100.7
# Real login(1): on a pseudo-terminal, and with -h HOST.
for row in "remoteTerminal:" "remoteSession:-h 203.0.113.5"; do
    reason=${row%%:*} host=${row#*:}
    script '"MATCH"'
    # shellcheck disable=SC2086
    out=$(cx pty-run --timeout 30 --step 'Password: $' "$PASSWORD\r" --step '\$ $' 'exit\r' -- login $host alice 2>&1)
    entry=$(last_entry PAM_SERVICE=login)
    check "real login(1) ${host:-on a pseudo-terminal}: the password signs alice in; LA_ERROR=$(json_get "$entry" LA_ERROR)" \
        bash -c 'grep -q "pty-run: step 2 seen" <<<"$1" && ! grep -q "wants to" <<<"$1" && [ "$(json_get "$2" LA_ERROR)" = "$3" ]' \
        _ "$out" "$entry" "$reason"
done

# 7. lightdm: a greeter session on seat0 (logind's class greeter), then alice's login by face.
cx systemd-run --unit=la-greeter -p PAMName=la-greeter -p User=lightdm -E XDG_SEAT=seat0 sleep 600 >/dev/null 2>&1
wait_for 10 bash -c 'cx loginctl list-sessions --no-legend | grep -q lightdm' || fail "no greeter session"
greeter=$(cx loginctl list-sessions --no-legend | awk '$3 == "lightdm" { print $1; exit }')
facts=$(cx loginctl show-session "$greeter" -p Class -p Seat -p Active -p Remote | tr '\n' ' ')
echo "     greeter session $greeter: $facts"
script '"MATCH"'
out=$(probe --tty :0 --seat seat0 lightdm alice 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=lightdm)
check "lightdm's service, a greeter active on seat0 ($facts): face match signs alice in, no password" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && ! grep -q "^Password: *$" <<<"$1" && [ "$(json_get "$2" PAM_OUTCOME)" = success ]' _ "$out" "$entry"
cx systemctl stop la-greeter
wait_for 10 bash -c '! cx loginctl list-sessions --no-legend | grep -q lightdm'
aside_row "lightdm's service with no greeter on seat0" noGreeter lightdm --tty :0 --seat seat0

# 8. sudo keeps today's rule: outside any session it steps aside, VT or not.
script '"MATCH"'
out=$(probe --vt "$ACTIVE" sudo alice -- --step 'Password: $' "$PASSWORD\r" 2>&1)
entry=$(last_entry PAM_SERVICE=sudo)
check "sudo's service on tty$ACTIVE outside any session: steps aside (LA_ERROR=$(json_get "$entry" LA_ERROR)), the password works" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && [ "$(json_get "$2" LA_ERROR)" = noSession ]' _ "$out" "$entry"

# 9. The keyring: docs/pam.md's login-keyring blocks in Debian's /etc/pam.d/login and its
# lightdm-keyring block in Debian's /etc/pam.d/lightdm (which has pam_gnome_keyring's auth and
# session lines). The container has no VTs, so logind refuses a session for PAM_TTY=ttyN ("Seat
# has no VTs"): the password login runs on a pseudo-terminal (the module steps aside, pam_unix asks,
# keep_password keeps), the logins by face through lightdm's service with a greeter on seat0.
# The finger from here on: a Kind=fprintd sensor, alice's right index finger enrolled in fprintd by
# the virtual device, pressed at each login by finger (vfinger, the moment fprintd waits).
cx sh -c 'printf "[Sensor.finger]\nKind=fprintd\n" >/etc/localauthd/localauthd.conf'
cx systemctl restart localauthd.service
cx sh -c "fprintd-enroll -f right-index-finger alice >/tmp/enroll-alice.log 2>&1 & pid=\$!
    for i in \$(seq 30); do kill -0 \$pid 2>/dev/null || break; vfinger --timeout 2 alice-print; sleep 0.1; done
    wait \$pid"
check "keyring: alice's right index finger enrolled in fprintd (the virtual device)" \
    bash -c "cx fprintd-list alice 2>/dev/null | grep -q right-index-finger"
# by_finger ARGS...: login-probe ARGS on a pseudo-terminal, alice's finger pressed when fprintd waits.
by_finger() { cx rm -f /run/vfinger-events; cx vfinger --timeout 20 --events /run/vfinger-events alice-print -- pty-run --timeout 30 -- login-probe "$@"; }
install -m 0644 "$RUN/login.debian" "$ROOT/etc/pam.d/login"
replace_common_auth "$ROOT/etc/pam.d/login" login-keyring
block login-keyring-session >>"$ROOT/etc/pam.d/login"
install -m 0644 "$RUN/etc/pam.d/lightdm" "$ROOT/etc/pam.d/lightdm"
replace_common_auth "$ROOT/etc/pam.d/lightdm" lightdm-keyring
SECRET='s3cr3t-of-issue-33'
BUS='DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$(id -u)/bus'
LOCKED='busctl --user get-property org.freedesktop.secrets /org/freedesktop/secrets/collection/login org.freedesktop.Secret.Collection Locked'
# logout: alice's sessions and processes ended (logind), her user manager gone.
logout_alice() {
    cx loginctl terminate-user alice >/dev/null 2>&1
    wait_for 30 bash -c '! cx loginctl show-user alice >/dev/null 2>&1' || echo "     (alice's user still listed)"
}
greeter_on() {
    cx systemd-run --unit=la-greeter -p PAMName=la-greeter -p User=lightdm -E XDG_SEAT=seat0 sleep 600 >/dev/null 2>&1
    wait_for 10 bash -c 'cx loginctl list-sessions --no-legend | grep -q lightdm' || fail "no greeter session"
}
greeter_off() {
    cx systemctl stop la-greeter
    wait_for 10 bash -c '! cx loginctl list-sessions --no-legend | grep -q lightdm'
}
kept() { json_get "$(crpc '{"method":"broker.status"}')" result.keptPasswords; }
debug_dump() {
    [ -n "${KEYRING_DEBUG:-}" ] || return 0
    cx journalctl -b --no-pager | grep -e 'localauthd\[' -e pam_localauthd -e gkr -e 'keyring-d' -e 'secure memory' | grep -v -e 'evaluation ' | tail -n 25 | sed 's/^/     dbg| /'
}
logout_alice
script ''
# Debian's gkr-pam unlocks but does not create a login keyring without a prompter (gcr-prompter needs
# a display): created in the first session as a desktop's first login would, from the password
# (gnome-keyring-daemon --unlock reads it on stdin and creates the login keyring).
# The login keyring is made once, in a first password login of its own, as a desktop's first login
# would: Debian's gkr-pam unlocks but does not create one without a prompter (gcr-prompter needs a
# display), and a keyring gnome-keyring-daemon --unlock creates from the password (on stdin, from a
# file of alice's) is seen by the secrets service from the next session on.
printf %s "$PASSWORD" | cx sh -c 'umask 077; cat >/run/alice-first-login; chown alice /run/alice-first-login'
probe --tty /dev/pts/0 --session "gnome-keyring-daemon --unlock </run/alice-first-login >/dev/null; rm -f /run/alice-first-login" \
    login alice -- --step 'Password: $' "$PASSWORD\r" >/dev/null 2>&1
logout_alice
crpc '{"method":"login.dropPassword","params":{"uid":'"$(cx id -u alice)"',"reason":"admin"}}' >/dev/null
out=$(probe --tty /dev/pts/0 --session "export $BUS; for i in 1 2 3 4 5 6; do printf %s '$SECRET' | secret-tool store --label=issue33 app localauthd-33 2>/dev/null && { echo stored; break; }; sleep 0.5; done; $LOCKED" \
    login alice -- --step 'Password: $' "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "keyring: alice's password login (login-keyring block): signed in, the password kept (keptPasswords=$(kept))" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && [ "$2" = 1 ]' _ "$out" "$(kept)"
check "keyring: ...secret-tool store in that session, the login keyring unlocked" \
    bash -c 'grep -q "^stored" <<<"$1" && grep -q "b false" <<<"$1"' _ "$out"
debug_dump
logout_alice
greeter_on
out=$(by_finger --tty :0 --seat seat0 --session "export $BUS; timeout 15 secret-tool lookup app localauthd-33 </dev/null; echo; echo lookup-exit \$?; $LOCKED" lightdm alice 2>&1)
echo "$out" | sed 's/^/     | /'
check "keyring: the login by finger was fprintd's (the only sensor): the virtual finger pressed at its wait" \
    cx grep -q press /run/vfinger-events
check "keyring: alice's login by finger (lightdm-keyring block), no password typed: secret-tool lookup gives the secret, the login keyring unlocked" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && ! grep -q "^Password: *$" <<<"$1" && grep -q "$2" <<<"$1" && grep -q "b false" <<<"$1"' _ "$out" "$SECRET"
check "keyring: the daemon's journal says the password was released to lightdm (with the evaluation's id)" \
    bash -c 'cx journalctl -b --no-pager -u localauthd.service | grep -q "released to lightdm after evaluation"'
debug_dump
greeter_off
logout_alice
cx systemctl restart localauthd.service
greeter_on
out=$(by_finger --tty :0 --seat seat0 --session "export $BUS; timeout 10 secret-tool lookup app localauthd-33 </dev/null; echo; echo lookup-exit \$?; $LOCKED" lightdm alice 2>&1)
echo "$out" | sed 's/^/     | /'
check "keyring: after a daemon restart the login by finger works, nothing kept (keptPasswords=$(kept)), the keyring stays locked" \
    bash -c 'grep -q "login-probe: authenticated" <<<"$1" && ! grep -q "$2" <<<"$1" && grep -q "b true" <<<"$1" && [ "$3" = 0 ]' _ "$out" "$SECRET" "$(kept)"
check "keyring: the password is in no journal field of this boot" \
    bash -c '! cx journalctl -b --no-pager -o export | grep -aqF -e "$1"' _ "$PASSWORD"
debug_dump
greeter_off
logout_alice

cx rm -f "/dev/tty$ACTIVE" "/dev/tty$OTHER"
container_stop
finish
