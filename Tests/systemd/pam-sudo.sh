#!/bin/bash
# pam_localauthd.so in a real sudo and su, for real users, in real logind sessions, under a real
# systemd (systemd-nspawn).
#
# Boots a bookworm root with sudo, pamtester, polkit and libpam-systemd (its own cache,
# $LOCALAUTHD_PAM_NSPAWN_CACHE, default /var/cache/localauthd-test/rootfs-pam, so the shared root's
# package list is untouched), installs localauthd (systemd/install.mk) and the module (make
# install-pam), puts docs/pam.md's lines into the container's /etc/pam.d/sudo and /etc/pam.d/polkit-1
# (created: bookworm ships /usr/lib/pam.d/polkit-1) and the same lines into /etc/pam.d/su, creates
# alice (a password, sudo rights) and bob, and drives them on pseudo-terminals that type real keys.
# alice's commands run in her shell of a real logind session (`login -f alice` in a systemd-run
# service with a pseudo-terminal: pam_systemd registers it; loginctl shows Remote=no, Class=user,
# Active=yes):
#   a scripted face match -> `sudo -k true` runs with no password asked;
#   scripted no-matches   -> the module's prompt stays and the password typed there works: one
#                            prompt, never sudo's own after the module's;
#   the password typed while the sensor waits -> sudo runs, one prompt only;
#   `su bob -c true` by alice, bob's face -> su runs (the daemon evaluates for bob, requested by
#                            alice);
#   journalctl REQUEST_ID= shows the module's PAM entry next to the daemon's;
# and outside any session (a systemd-run service of alice's without login; a process entered with
# nsenter) the module steps aside: sudo asks for the password at once, the journal says noSession;
# in a remote logind session (login -h HOST) with no SSH_* variable it steps aside (remoteSession).
#   pkexec (polkit's helper, PAM service polkit-1, alice's pkttyagent) through the same module;
#   the service stopped -> sudo asks for the password at once.
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
container_root_with_daemon
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
# docs/pam.md's lines for sudo, exactly (between the markers there).
sed -n '/^<!-- pam.d\/sudo -->$/,/^<!-- end -->$/p' "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d' >"$ROOT/etc/pam.d/sudo"
grep -q pam_localauthd.so "$ROOT/etc/pam.d/sudo" || die "docs/pam.md has no /etc/pam.d/sudo block: $(cat "$ROOT/etc/pam.d/sudo")"
# bookworm ships /usr/lib/pam.d/polkit-1: /etc/pam.d/polkit-1 is created, as docs/pam.md says.
test ! -e "$ROOT/etc/pam.d/polkit-1" || die "the root already has an /etc/pam.d/polkit-1"
sed -n '/^<!-- pam.d\/polkit-1 -->$/,/^<!-- end -->$/p' "$REPO/docs/pam.md" | sed '1,2d;$d' | sed '$d' >"$ROOT/etc/pam.d/polkit-1"
grep -q pam_localauthd.so "$ROOT/etc/pam.d/polkit-1" || die "docs/pam.md has no /etc/pam.d/polkit-1 block"
# su: pam_rootok first (root's su -l, as pkexec-agent uses, asks nothing), then the sudo block's lines.
{ echo '#%PAM-1.0'; echo 'auth       sufficient pam_rootok.so'
  grep '^auth' "$ROOT/etc/pam.d/sudo"; echo '@include common-account'; echo '@include common-session'; } >"$ROOT/etc/pam.d/su"
# A PAM service for a service's own session of class background (row 6a).
printf 'auth required pam_permit.so\naccount required pam_permit.so\nsession required pam_systemd.so class=background\n' \
    >"$ROOT/etc/pam.d/la-background"
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

# --- real users: alice may sudo, bob is su's target; each with a face in localauthd ---
cx useradd -m -s /bin/bash alice || die "useradd alice failed"
cx useradd -m -s /bin/bash bob || die "useradd bob failed"
printf 'alice:%s\n' "$PASSWORD" | cx chpasswd || die "chpasswd failed"
printf 'alice ALL=(ALL:ALL) ALL\n' | cx tee /etc/sudoers.d/alice >/dev/null
cx chmod 0440 /etc/sudoers.d/alice
check "alice's face enrolled in localauthd (no localauthd passcode: system authentication needs none)" \
    test -n "$(json_get "$(crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"alice-face","user":"alice"}}')" result.enrolled)"
check "bob's face enrolled in localauthd" \
    test -n "$(json_get "$(crpc '{"method":"sensors.enroll","params":{"sensor":"face","identity":"bob-face","user":"bob"}}')" result.enrolled)"
script() { crpc '{"method":"sensors.script","params":{"sensor":"face","commands":['"$1"'],"replace":true}}' >/dev/null; }
# in_session COMMAND [--step PATTERN KEYS]...: COMMAND typed into alice's login shell of a real logind
# session, then its exit status printed as "RC=N"; the steps in between answer prompts.
# LOGIN_FROM=HOST makes it a remote session (login -h HOST: logind records Remote=yes).
in_session() {
    local command=$1
    shift
    cx pty-run --timeout 40 --step '\$ $' "$command; echo RC=\$?\r" "$@" --step 'RC=[0-9]+' 'exit\r' -- \
        systemd-run --quiet --pty --wait --collect login -f ${LOGIN_FROM:+-h "$LOGIN_FROM"} alice
}
# outside_session [--step PATTERN KEYS]...: `sudo -k true` as alice in a service of hers, in no session.
outside_session() {
    cx pty-run --timeout 20 "$@" -- systemd-run --quiet --pty --wait --collect -p User=alice sudo -k true
}
SUDO_PROMPT='\[sudo\] password for alice: '
last_entry() { cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd -o json "$@" | tail -n 1; }
SESSION_FACTS='loginctl show-session "$XDG_SESSION_ID" -p Remote -p Class -p Active -p Type | tr "\n" " "; echo'

# 1. A scripted face match in alice's session: sudo runs with no password asked.
script '"MATCH"'
out=$(in_session "$SESSION_FACTS; sudo -k true" 2>&1)
echo "$out" | sed 's/^/     | /'
check "alice's shell is a real logind session: $(grep -o 'Remote=.*Active=[a-z]*' <<<"$out")" \
    bash -c 'grep -q "Remote=no Type=tty Class=user Active=yes" <<<"$1"' _ "$out"
check "face match in the session: sudo -k true exits 0" grep -q 'RC=0' <<<"$out"
check "face match: no password asked (no [sudo] prompt)" bash -c '! grep -q "\[sudo\] password" <<<"$1"' _ "$out"
check "face match: the default reason names sudo and alice" grep -q 'sudo wants to act as root for alice' <<<"$out"

# 2. Scripted no-matches: the module's prompt stays; the password typed there works, asked once.
script '"NOMATCH","NOMATCH","NOMATCH"'
out=$(in_session "sudo -k true" --step 'Not recognized\.\s+Password: $' "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "no-matches: feedback shown, the module's Password: prompt stays, the password typed there runs sudo" \
    bash -c 'grep -q "Not recognized" <<<"$1" && grep -q "pty-run: step 2 seen" <<<"$1" && grep -q "RC=0" <<<"$1"' _ "$out"
check "no-matches: one prompt (sudo never asks after the module)" bash -c '! grep -q "\[sudo\] password" <<<"$1"' _ "$out"
entry=$(last_entry PAM_SERVICE=sudo)
check "no-matches: the journal says password after $(json_get "$entry" LA_ERROR): $(json_get "$entry" MESSAGE)" \
    bash -c '[ "$(json_get "$1" PAM_OUTCOME)" = password ]' _ "$entry"

# 3. The password typed while the sensor waits: one prompt, sudo runs.
script '"DEFAULT WAIT"'
out=$(in_session "sudo -k true" --step 'Password: $' "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
check "typed while the sensor waits: sudo runs (RC=0) with no second prompt" \
    bash -c 'grep -q "RC=0" <<<"$1" && ! grep -q "\[sudo\] password" <<<"$1"' _ "$out"

# 4. su by alice to bob, bob's face: the daemon evaluates for bob, requested by alice.
script '"MATCH"'
out=$(in_session "su bob -c true" 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=su)
check "su bob by alice in her session: bob's face match runs it with no password (RC=0)" \
    bash -c 'grep -q "RC=0" <<<"$1" && grep -q "su wants to switch to bob" <<<"$1" && ! grep -q "^Password: $" <<<"$1"' _ "$out"
check "su: the module's journal entry: PAM_SERVICE=su, PAM_USER=bob, $(json_get "$entry" PAM_OUTCOME)" \
    bash -c '[ "$(json_get "$1" PAM_USER)" = bob ] && [ "$(json_get "$1" PAM_OUTCOME)" = success ]' _ "$entry"

# 5. The journal: the module's entry for the match in row 1, next to the daemon's, by REQUEST_ID.
entry=$(cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd PAM_SERVICE=sudo PAM_OUTCOME=success -o json | head -n 1)
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

# 6. Outside any session the module steps aside, even with the face there to match.
script '"MATCH"'
out=$(outside_session --step "$SUDO_PROMPT" "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=sudo)
check "a systemd-run service of alice's (no session): no prompt of the module, sudo asks for the password and it works" \
    bash -c 'grep -q "pty-run: step 1 seen" <<<"$1" && grep -q "^pty-run: exit 0$" <<<"$1" && ! grep -q "wants to act as root" <<<"$1"' _ "$out"
check "...the journal: stepped aside, LA_ERROR=$(json_get "$entry" LA_ERROR)" \
    bash -c '[ "$(json_get "$1" PAM_OUTCOME)" = "stepped aside" ] && [ "$(json_get "$1" LA_ERROR)" = noSession ]' _ "$entry"
out=$(cx pty-run --timeout 20 --step "$SUDO_PROMPT" "$PASSWORD\r" -- setpriv --reuid=alice --regid=alice --init-groups \
    env HOME=/home/alice USER=alice LOGNAME=alice sudo -k true 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=sudo)
check "a process entered with nsenter (no session): sudo asks for the password; the journal says $(json_get "$entry" LA_ERROR)" \
    bash -c 'grep -q "pty-run: step 1 seen" <<<"$1" && ! grep -q "wants to act as root" <<<"$1" &&
             [ "$(json_get "$2" LA_ERROR)" = noSession ]' _ "$out" "$entry"

# 6a. A logind session of class background (a service's PAM session: PAMName=, pam_systemd class=):
# a session, but not a person's, so the module steps aside (sessionClass).
out=$(cx pty-run --timeout 20 --step "$SUDO_PROMPT" "$PASSWORD\r" -- systemd-run --quiet --pty --wait --collect \
    -p User=alice -p PAMName=la-background sh -c 'loginctl --no-pager show-session "$XDG_SESSION_ID" -p Class; sudo -k true' 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=sudo)
check "a service's background session ($(grep -o 'Class=[a-z-]*' <<<"$out")): sudo asks for the password; the journal says $(json_get "$entry" LA_ERROR)" \
    bash -c 'grep -q "Class=background" <<<"$1" && grep -q "pty-run: step 1 seen" <<<"$1" && ! grep -q "wants to act as root" <<<"$1" &&
             [ "$(json_get "$2" LA_ERROR)" = sessionClass ]' _ "$out" "$entry"

# 6b. A remote logind session (login -h): logind's flag decides, with no SSH_* variable anywhere (sudo's
# env_reset would remove them anyway), and setting them to empty in the shell changes nothing.
script '"MATCH"'
out=$(LOGIN_FROM=203.0.113.5 in_session "$SESSION_FACTS; unset SSH_CONNECTION SSH_CLIENT SSH_TTY; sudo -k true" \
    --step "$SUDO_PROMPT" "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
entry=$(last_entry PAM_SERVICE=sudo)
check "a remote logind session ($(grep -o 'Remote=[a-z]*' <<<"$out")): no prompt of the module, sudo asks for the password" \
    bash -c 'grep -q "Remote=yes" <<<"$1" && grep -q "pty-run: step 2 seen" <<<"$1" && grep -q "RC=0" <<<"$1" &&
             ! grep -q "wants to act as root" <<<"$1"' _ "$out"
check "...the journal: stepped aside, LA_ERROR=$(json_get "$entry" LA_ERROR): $(json_get "$entry" MESSAGE)" \
    bash -c '[ "$(json_get "$1" LA_ERROR)" = remoteSession ]' _ "$entry"

# 7. pkexec: polkit's helper authenticates alice (an admin: group sudo) through PAM service polkit-1.
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

# 8. The service stopped: sudo asks for the password at once.
cx systemctl stop localauthd.socket localauthd.service
out=$(in_session "sudo -k true" --step "$SUDO_PROMPT" "$PASSWORD\r" 2>&1)
echo "$out" | sed 's/^/     | /'
typed=$(grep -o 'step 1 seen after [0-9]*' <<<"$out" | grep -o '[0-9]*$')
asked=$(grep -o 'step 2 seen after [0-9]*' <<<"$out" | grep -o '[0-9]*$')
check "service stopped: sudo asks for the password ($(( ${asked:-0} - ${typed:-0} )) ms after the command was typed) and it works" \
    bash -c 'grep -q "pty-run: step 2 seen" <<<"$1" && grep -q "RC=0" <<<"$1" && ! grep -q "wants to act as root" <<<"$1"' _ "$out"
entry=$(cx journalctl -b --no-pager SYSLOG_IDENTIFIER=pam_localauthd PAM_OUTCOME="stepped aside" -o json | tail -n 1)
check "service stopped: the module's journal entry says it stepped aside ($(json_get "$entry" LA_ERROR))" \
    test "$(json_get "$entry" LA_ERROR)" = "daemon not reachable"

# --- shut down ---
container_stop
finish
