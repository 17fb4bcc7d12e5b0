#!/bin/bash
# pam_localauthd.so in a real sudo, for a real user, under a real systemd (systemd-nspawn).
#
# Boots a bookworm root with sudo, pamtester and polkit (its own cache, $LOCALAUTHD_PAM_NSPAWN_CACHE, default
# /var/cache/localauthd-test/rootfs-pam, so the shared root's package list is untouched), installs
# localauthd (systemd/install.mk) and the module (make install-pam), puts docs/pam.md's lines into the
# container's /etc/pam.d/sudo, creates a user alice (useradd, a password, sudo rights), and drives
# `sudo -k true` as alice on a pseudo-terminal that types real keys:
#   a scripted face match -> sudo runs with no password asked;
#   scripted no-matches   -> sudo asks for the password, which works;
#   the password typed while the sensor waits -> sudo runs, one prompt only;
#   the service stopped   -> sudo asks for the password at once;
#   journalctl REQUEST_ID= shows the module's PAM entry next to the daemon's;
#   pkexec (polkit's helper, PAM service polkit-1, alice's pkttyagent) through the same module:
#   a match runs the command with no password, no-matches fall through to the password.
# Stops the container and removes its cgroups: nothing is left running.
#
# Usage: pam-sudo.sh [LOCALAUTHD]   (or LOCALAUTHD=path; PAM_MODULE=path, default .build/pam/pam_localauthd.so)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare make python3
resolve_daemon "${1:-}"
PAM_MODULE=$(readlink -f "${PAM_MODULE:-$REPO/.build/pam/pam_localauthd.so}")
[ -f "$PAM_MODULE" ] || die "no PAM module at $PAM_MODULE (make pam)"

export LOCALAUTHD_NSPAWN_CACHE=${LOCALAUTHD_PAM_NSPAWN_CACHE:-/var/cache/localauthd-test/rootfs-pam}
export LOCALAUTHD_NSPAWN_EXTRA_PACKAGES=sudo,pamtester,libpam-modules
export LOCALAUTHD_NSPAWN_LATE_PACKAGES="polkitd pkexec libpam-systemd"
ROOTFS=$("$HERE/rootfs.sh") || die "could not build the container root file system"
NAME=localauthd-pam-$$
RUN=$(mktemp -d /var/tmp/localauthd-pam.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM
PASSWORD='Sw0rdfish-sudo'

# --- the root: a copy of the cached one, with localauthd and the module installed ---
cp -a --reflink=auto "$ROOTFS" "$ROOT" || die "cannot copy $ROOTFS"
chmod 0755 "$ROOT"
mkdir -p "$RUN/bin"
cp "$LOCALAUTHD" "$RUN/bin/localauthd"
printf '#!/bin/sh\nexit 1\n' >"$RUN/bin/localauthctl"
chmod +x "$RUN/bin/localauthctl"
printf 'include %s/systemd/install.mk\n' "$REPO" >"$RUN/Makefile"
make -s -C "$RUN" install-localauthd-binaries install-localauthd-systemd install-localauthd-config \
    DESTDIR="$ROOT" PREFIX=/usr BINDIR_BUILD="$RUN/bin" >"$RUN/install.log" 2>&1 \
    || die "make install (systemd/install.mk) failed: $(cat "$RUN/install.log")"
make -s -C "$REPO" install-pam DESTDIR="$ROOT" PREFIX=/usr PAM_MODULE="$PAM_MODULE" >>"$RUN/install.log" 2>&1 \
    || die "make install-pam failed: $(cat "$RUN/install.log")"
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
check "make install-pam put the module into /usr/lib/$MULTIARCH/security" \
    test -f "$ROOT/usr/lib/$MULTIARCH/security/pam_localauthd.so"

cat >"$ROOT/etc/localauthd/localauthd.conf" <<'CONF'
[Sensor.face]
Kind=faceID
Default=WAIT

[Sensor.passcode]
Kind=passcode
CONF
# docs/pam.md's lines for sudo and polkit-1, exactly (between the markers there).
sed -n '/^<!-- pam.d\/sudo -->$/,/^<!-- end -->$/p' "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d' >"$ROOT/etc/pam.d/sudo"
grep -q pam_localauthd.so "$ROOT/etc/pam.d/sudo" || die "docs/pam.md has no /etc/pam.d/sudo block: $(cat "$ROOT/etc/pam.d/sudo")"
sed -n '/^<!-- pam.d\/polkit-1 -->$/,/^<!-- end -->$/p' "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d' >"$ROOT/etc/pam.d/polkit-1"
grep -q pam_localauthd.so "$ROOT/etc/pam.d/polkit-1" || die "docs/pam.md has no /etc/pam.d/polkit-1 block"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
printf '127.0.1.1 localauthd-test\n' >>"$ROOT/etc/hosts"  # sudo resolves its own host name
install -D -m 0755 "$HERE/pty-run.py" "$ROOT/usr/local/bin/pty-run"
install -D -m 0755 "$HERE/pkexec-agent.py" "$ROOT/usr/local/bin/pkexec-agent"
systemctl --root="$ROOT" enable localauthd.socket >"$RUN/enable.log" 2>&1 \
    || die "systemctl --root enable localauthd.socket failed: $(cat "$RUN/enable.log")"

# --- boot ---
container_boot

SOCK=/run/localauthd/localauthd.sock
crpc() { cx localauthd-rpc --socket "$SOCK" --timeout 20 "$1"; }
json_get() { python3 -c 'import json,sys
v = json.loads(sys.argv[1])
for k in sys.argv[2].split("."):
    v = v[k] if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" 2>/dev/null; }
export -f json_get

# --- a real user who may sudo, with a face and a passcode in localauthd ---
cx useradd -m -s /bin/bash alice || die "useradd alice failed"
printf 'alice:%s\n' "$PASSWORD" | cx chpasswd || die "chpasswd failed"
printf 'alice ALL=(ALL:ALL) ALL\n' | cx tee /etc/sudoers.d/alice >/dev/null
cx chmod 0440 /etc/sudoers.d/alice
check "alice's passcode set in localauthd" \
    test -n "$(json_get "$(crpc '{"method":"sensors.setPasscode","params":{"passcode":"1234","user":"alice"}}')" result.user)"
check "alice's face enrolled in localauthd" \
    test -n "$(json_get "$(crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"alice-face","user":"alice"}}')" result.enrolled)"
script() { crpc '{"method":"sensors.script","params":{"sensor":"face","commands":['"$1"'],"replace":true}}' >/dev/null; }
# sudo_as_alice [--step PATTERN KEYS]...: `sudo -k true` as alice on a pseudo-terminal.
sudo_as_alice() {
    cx pty-run --timeout 20 "$@" -- setpriv --reuid=alice --regid=alice --init-groups \
        env HOME=/home/alice USER=alice LOGNAME=alice sudo -k true
}
SUDO_PROMPT='\[sudo\] password for alice: '

# 1. A scripted face match: sudo runs with no password asked.
script '"MATCH"'
out=$(sudo_as_alice 2>&1)
echo "$out" | sed 's/^/     | /'
check "face match: sudo -k true exits 0" grep -q '^pty-run: exit 0$' <<<"$out"
check "face match: no password asked (no [sudo] prompt)" bash -c '! grep -q "\[sudo\] password" <<<"$1"' _ "$out"
check "face match: the default reason names sudo and alice" grep -q 'sudo wants to act as root for alice' <<<"$out"

# 2. Scripted no-matches: sudo asks for the password, which works.
script '"NOMATCH","NOMATCH","NOMATCH"'
out=$(sudo_as_alice --step "$SUDO_PROMPT" "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "no-matches: feedback shown, then sudo asks for the password" \
    bash -c 'grep -q "Not recognized" <<<"$1" && grep -q "pty-run: step 1 seen" <<<"$1"' _ "$out"
check "no-matches: the password typed then works (exit 0)" grep -q '^pty-run: exit 0$' <<<"$out"
crpc '{"method":"sensors.resetLockout","params":{"user":"alice"}}' >/dev/null

# 3. The password typed while the sensor waits: one prompt, sudo runs.
script '"DEFAULT WAIT"'
out=$(sudo_as_alice --step 'Password: ' "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "typed while the sensor waits: sudo runs (exit 0) with no second prompt" \
    bash -c 'grep -q "^pty-run: exit 0$" <<<"$1" && ! grep -q "\[sudo\] password" <<<"$1"' _ "$out"

# 4. The journal: the module's entry for the match in row 1, next to the daemon's, by REQUEST_ID.
entry=$(cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd PAM_OUTCOME=success -o json | head -n 1)
REQUEST_ID=$(json_get "$entry" REQUEST_ID)
echo "     module entry: $(json_get "$entry" MESSAGE)"
check "the module's journal entry has PAM_SERVICE=sudo, PAM_USER=alice, a PAM_TTY and a REQUEST_ID" \
    bash -c '[ "$(json_get "$1" PAM_SERVICE)" = sudo ] && [ "$(json_get "$1" PAM_USER)" = alice ] &&
             [[ "$(json_get "$1" PAM_TTY)" == /dev/pts/* ]] && [ -n "$2" ]' _ "$entry" "$REQUEST_ID"
by_id=$(cx journalctl -b --no-pager REQUEST_ID="$REQUEST_ID" -o json)
echo "$by_id" | python3 -c 'import json,sys
for l in sys.stdin: e=json.loads(l); print("     journalctl REQUEST_ID= ->", e.get("SYSLOG_IDENTIFIER"), "|", e.get("MESSAGE"))'
check "journalctl REQUEST_ID=$REQUEST_ID shows the PAM entry and the daemon's start and finish" \
    bash -c '[ "$(grep -c "\"PAM_SERVICE\"" <<<"$1")" -eq 1 ] && [ "$(grep -c "localauthd.service" <<<"$1")" -ge 2 ]' _ "$by_id"

ALICE_UID=$(cx id -u alice)
owners=$(python3 -c 'import json,sys
print(" ".join(sorted({json.loads(l).get("OWNER_UID", "-") for l in sys.stdin if "localauthd.service" in l})))' <<<"$by_id")
check "the daemon's entries for that REQUEST_ID name alice as the owner (OWNER_UID=$owners, alice is $ALICE_UID)" \
    test "$owners" = "$ALICE_UID"

# 5. pkexec: polkit's helper authenticates alice (an admin: group sudo) through PAM service polkit-1.
# Her own pkttyagent answers for the shell that runs pkexec (polkit 122's built-in text agent in
# setuid pkexec is refused: "No session for cookie", polkit issue 17), each on its own terminal.
cx usermod -aG sudo alice
script '"MATCH"'
out=$(cx pkexec-agent alice 2>&1)
echo "$out" | sed 's/^/     | /'
check "pkexec: a face match through polkit-1 and the module runs the command, no password asked" \
    bash -c 'grep -q "^pkexec-agent: exit 0$" <<<"$1" && grep -q "polkit wants to authorize an action for alice" <<<"$1" &&
             ! grep -q "Password:" <<<"$1"' _ "$out"
entry=$(cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd PAM_SERVICE=polkit-1 -o json | tail -n 1)
check "pkexec: the module's journal entry: PAM_SERVICE=polkit-1, PAM_USER=alice, $(json_get "$entry" PAM_OUTCOME)" \
    bash -c '[ "$(json_get "$1" PAM_OUTCOME)" = success ] && [ "$(json_get "$1" PAM_USER)" = alice ]' _ "$entry"
script '"NOMATCH","NOMATCH","NOMATCH"'
out=$(cx pkexec-agent alice "$PASSWORD" 2>&1)
echo "$out" | sed 's/^/     | /'
check "pkexec: no-matches shown by the agent, then the password (pam_unix) runs the command" \
    bash -c 'grep -q "Not recognized" <<<"$1" && grep -q "Password:" <<<"$1" && grep -q "^pkexec-agent: exit 0$" <<<"$1"' _ "$out"
crpc '{"method":"sensors.resetLockout","params":{"user":"alice"}}' >/dev/null

# 6. The service stopped: sudo asks for the password at once.
cx systemctl stop localauthd.socket localauthd.service
out=$(sudo_as_alice --step "$SUDO_PROMPT" "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "service stopped: sudo asks for the password ($(grep -o 'step 1 seen after [0-9]* ms' <<<"$out")) and it works" \
    bash -c 'grep -q "pty-run: step 1 seen" <<<"$1" && grep -q "^pty-run: exit 0$" <<<"$1" && ! grep -q "wants to act as root" <<<"$1"' _ "$out"
entry=$(cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd PAM_OUTCOME="stepped aside" -o json | tail -n 1)
check "service stopped: the module's journal entry says it stepped aside ($(json_get "$entry" LA_ERROR))" \
    test "$(json_get "$entry" LA_ERROR)" = "daemon not reachable"

# --- shut down ---
container_stop
finish
