#!/bin/bash
# An SSH login through the agent with the desktop prompt running (issue 34): `ssh` to a private sshd
# on 127.0.0.1 through `localauthctl ssh-agent`, with localauthd-prompt under Xvfb as the user's
# agent and a fake notification server (Tests/notifications/fake-notification-server.py) on a
# private session bus. It checks that the window (its title by xdotool, its texts through the
# accessibility tree, Tests/desktop/a11y.py) names the host as the system's known hosts name its
# host key (the daemon's SSHKnownHostsFile, root's file) with the host key's fingerprint, and the
# login key; that the
# notification says "ssh: sign in to HOST — look at the camera" (the demo's sensor is a face) and
# names the login key and the host key; that once the face matches, ssh logs in and the window and
# the notification close. Hostile: a name the user's own known_hosts gives the host key (ssh -o
# HostKeyAlias) is never shown as the host: beside a verified name it is a warning, without one it
# is "unverified" and the host is its fingerprint, in the window and in the notification.
#
# Needs root (sshd, useradd): as anyone else it says SKIP and exits 0. Nothing of the host's ssh
# configuration is read or changed (its own sshd_config, host key, free port, authorized keys).
#
# Usage: ssh-login.sh BINDIR   (BINDIR holds localauthd, localauthctl and localauthd-prompt)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
BINDIR=$(cd "${1:?usage: ssh-login.sh BINDIR}" && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP - $HARNESS: an SSH login to a private sshd needs root (sshd, useradd)"
    exit 0
fi
# The tree needs a session bus with the accessibility bus activatable: the script runs itself
# again inside dbus-run-session, whose bus the fake notification server joins too.
if [ -z "${LOCALAUTHD_SSH_LOGIN_BUS:-}" ]; then
    need_cmd dbus-run-session
    LOCALAUTHD_SSH_LOGIN_BUS=1 exec dbus-run-session -- "$0" "$@" 2> >(grep -v -e '^dbus-daemon' -e '^SpiRegistry daemon' >&2)
fi
need_cmd Xvfb xdotool timeout ssh ssh-keygen useradd userdel /usr/sbin/sshd /usr/bin/python3
/usr/bin/python3 -c 'import gi; gi.require_version("Atspi", "2.0")' 2>/dev/null ||
    die "python3-gi with Atspi 2.0 (gir1.2-atspi-2.0) is missing: make desktop-deps"
desktop_run ssh-login
# sshd reads the test user's authorized keys as that user: it may pass through (not list) $RUN.
chmod 0711 "$RUN"
TESTUSER="lalogin$$"
cleanup() {
    [ -f "$RUN/sshd.pid" ] && kill -TERM "$(cat "$RUN/sshd.pid")" 2>/dev/null
    stop_pids
    userdel "$TESTUSER" 2>/dev/null
    if [ "$FAILED" -ne 0 ]; then
        for log in daemon.log prompt.log ssh-agent.log sshd.log notifications.jsonl; do
            [ -f "$RUN/$log" ] && { echo "--- $log"; tail -n 20 "$RUN/$log"; }
        done
    fi
    [ -n "${KEEP_TEMP:-}" ] || rm -rf "$RUN"
}
trap cleanup EXIT
export PATH="$BINDIR:$PATH"
export GTK_THEME=Adwaita
unset WAYLAND_DISPLAY GTK_A11Y
A11Y="/usr/bin/python3 $HERE/../desktop/a11y.py"

# The daemon, with the demo's face; the system's known hosts (root's file, written below) stand in
# for /etc/ssh/ssh_known_hosts, which this test never touches.
mkdir -m 0700 "$RUN/state" "$RUN/agent" "$RUN/home" "$RUN/home/.ssh"
printf '[Broker]\nSSHKnownHostsFile=%s\n' "$RUN/ssh_known_hosts" >"$RUN/localauthd.conf"
start_demo_daemon --config "$RUN/localauthd.conf"
localauthctl sim face --replace DEFAULT WAIT >/dev/null || die "cannot script the demo face"

start_xvfb

start_notification_server

localauthd-prompt --scope user >"$RUN/prompt.log" 2>&1 &
PROMPT=$!
PIDS+=($PROMPT)
wait_for 20 grep -q "showing prompts for" "$RUN/prompt.log" ||
    die "the prompt program did not register: $(cat "$RUN/prompt.log")"

# The login key (presence on every signature: no reuse window) and the agent, with HOME where the
# user's known_hosts is.
localauthctl ssh-key create login >"$RUN/login.pub" || die "ssh-key create failed"
KEY_FINGERPRINT=$(ssh-keygen -l -f "$RUN/login.pub" | cut -d' ' -f2)
export SSH_AUTH_SOCK=$RUN/agent/agent.sock
HOME=$RUN/home localauthctl ssh-agent --listen "$SSH_AUTH_SOCK" >"$RUN/ssh-agent.log" 2>&1 &
PIDS+=($!)
wait_for 20 test -S "$SSH_AUTH_SOCK" || die "the SSH agent did not start: $(cat "$RUN/ssh-agent.log")"

# A private sshd on 127.0.0.1, a free port, that lets the test user in with the login key only.
useradd -M -d "$RUN/home-$TESTUSER" -s /bin/sh -p '*' "$TESTUSER" || die "useradd failed"
PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$RUN/host_key" || die "ssh-keygen (host key) failed"
HOST_KEY=$(cut -d' ' -f1,2 "$RUN/host_key.pub")
HOST_FINGERPRINT=$(ssh-keygen -l -f "$RUN/host_key.pub" | cut -d' ' -f2)
mkdir -m 0755 "$RUN/authorized"
install -m 0644 "$RUN/login.pub" "$RUN/authorized/$TESTUSER"
mkdir -p /run/sshd
cat >"$RUN/sshd_config" <<CONFIG
Port $PORT
ListenAddress 127.0.0.1
HostKey $RUN/host_key
PidFile $RUN/sshd.pid
AuthorizedKeysFile $RUN/authorized/%u
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AllowUsers $TESTUSER
CONFIG
/usr/sbin/sshd -f "$RUN/sshd_config" -E "$RUN/sshd.log" || die "sshd did not start: $(cat "$RUN/sshd.log")"
wait_for 20 test -s "$RUN/sshd.pid" || die "sshd wrote no pid: $(cat "$RUN/sshd.log")"

# The name a verified host has: root's file, as the daemon reads it.
VERIFIED=verified-host.internal
echo "$VERIFIED $HOST_KEY" >"$RUN/ssh_known_hosts"
chmod 0644 "$RUN/ssh_known_hosts"

# login ALIAS NAME: ssh in the background (LOGIN: its pid), knowing the host by ALIAS in the user's
# known_hosts (HostKeyAlias: what the agent reads as the caller's claim); it prints logged-in.
login() {
    echo "$1 $HOST_KEY" >"$RUN/home/.ssh/known_hosts"
    timeout 60 ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
        -o GlobalKnownHostsFile=/dev/null -o UserKnownHostsFile="$RUN/home/.ssh/known_hosts" \
        -o HostKeyAlias="$1" -o IdentityAgent="$SSH_AUTH_SOCK" -o IdentitiesOnly=yes \
        -o IdentityFile="$RUN/login.pub" -p "$PORT" "$TESTUSER@127.0.0.1" echo logged-in \
        >"$RUN/$2.out" 2>"$RUN/$2.err" &
    LOGIN=$!
    PIDS+=($LOGIN)
}
# The prompt windows (a11y.py: title, then texts, tab-separated) of an SSH login.
ssh_windows() { $A11Y windows 2>/dev/null | grep -F $'\tssh: sign in '; }
has_ssh_window() { [ -n "$(ssh_windows)" ]; }
no_ssh_window() { [ -z "$(ssh_windows)" ] && [ -z "$(xdotool search --onlyvisible --name ' — ssh: sign in ' 2>/dev/null)" ]; }
# window_says TEXT: a text of the login's window (a label: the whole field between tabs) is TEXT,
# within 10 s: the window process is new with each prompt, and its labels reach the accessibility
# tree a moment after its window does.
window_says_now() { ssh_windows | tr '\t' '\n' | grep -qxF -- "$1"; }
window_says() { wait_for 10 window_says_now "$1"; }
window_never_says() { ! ssh_windows | grep -qF -- "$1"; }
# The X11 title (xdotool: a regular expression) begins with TEXT.
title_begins() { [ -n "$(xdotool search --onlyvisible --name "^$(sed 's/[][\.*^$()+?{}|]/\\&/g' <<<"$1")" 2>/dev/null)" ]; }
# notice FIELD: the field of the last Notify call (empty when there is none).
notice() {
    /usr/bin/python3 - "$RUN/notifications.jsonl" "$1" <<'PY' 2>/dev/null
import json, sys
calls = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
notify = [c for c in calls if c["call"] == "Notify"]
print(notify[-1][sys.argv[2]] if notify else "")
PY
}
# How many Notify calls the server has had; NOTICES: how many before this login.
notices() { cat "$RUN/notifications.jsonl" 2>/dev/null | grep -c '"call": "Notify"'; }
NOTICES=0
notified() { [ "$(notices)" -gt "$NOTICES" ]; }
closed() {
    local id
    id=$(notice id)
    [ -n "$id" ] && grep -q "\"call\": \"CloseNotification\", \"id\": $id}" "$RUN/notifications.jsonl"
}
# logs_in NAME: the face matches; ssh logs in; the window and the notification close.
logs_in() {
    localauthctl sim face MATCH >/dev/null
    wait "$LOGIN"
    local status=$?
    check "$1: the face matches and ssh logs in (status $status)" grep -qx logged-in "$RUN/$1.out"
    check "$1: the window closes" wait_for 20 no_ssh_window
    check "$1: the notification closes (CloseNotification $(notice id))" wait_for 20 closed
    NOTICES=$(notices)
    localauthctl sim face --replace DEFAULT WAIT >/dev/null
}

# 1. The user's known_hosts agrees with the system's: the window and the notification name the
#    verified host, its host key and the login key.
REASON="ssh: sign in to $VERIFIED ($HOST_FINGERPRINT) as $TESTUSER"
login "$VERIFIED" verified
check "verified: the login shows a window" wait_for 30 has_ssh_window
check "verified: its title names the host (localauthctl — ssh: sign in to $VERIFIED …)" \
    title_begins "localauthctl — ssh: sign in to $VERIFIED"
check "verified: its text names the host, the host key and the user ($REASON)" window_says "$REASON"
check "verified: its text names the login key (SSH key: login)" window_says "SSH key: login"
check "verified: a notification" wait_for 20 notified
check "verified: the notification says 'ssh: sign in to $VERIFIED — look at the camera'" \
    test "$(notice summary)" = "ssh: sign in to $VERIFIED — look at the camera"
check "verified: its body names the login key and the host key" \
    bash -c '[[ $1 == "Key login, host key $2; asked by "* ]]' - "$(notice body)" "$HOST_FINGERPRINT"
logs_in verified

# 2. Hostile: the user's known_hosts calls the host bank.example (HostKeyAlias); the system's names
#    it otherwise. The window says the verified name, and the claim only as a warning.
CLAIMED=bank.example
login "$CLAIMED" claimed
check "claimed beside verified: the login shows a window" wait_for 30 has_ssh_window
check "claimed beside verified: the window names the verified host, the claim as a warning" \
    window_says "$REASON; warning: the caller calls it $CLAIMED"
check "claimed beside verified: the title names the verified host" \
    title_begins "localauthctl — ssh: sign in to $VERIFIED"
check "claimed beside verified: never 'sign in to $CLAIMED' in the window" \
    window_never_says "sign in to $CLAIMED"
check "claimed beside verified: a notification" wait_for 20 notified
check "claimed beside verified: the notification names the verified host only" \
    test "$(notice summary)" = "ssh: sign in to $VERIFIED — look at the camera"
logs_in claimed

# 3. Hostile: no verified name (the system's known hosts do not know the key); the user's
#    known_hosts claims bank.example. The host is its fingerprint; the claim is "unverified".
: >"$RUN/ssh_known_hosts"
login "$CLAIMED" unverified
check "unverified: the login shows a window" wait_for 30 has_ssh_window
check "unverified: the window names the host key, the claim as unverified" \
    window_says "ssh: sign in to $HOST_FINGERPRINT as $TESTUSER (known_hosts calls it $CLAIMED, unverified)"
check "unverified: never 'sign in to $CLAIMED' in the window" window_never_says "sign in to $CLAIMED"
check "unverified: never '$VERIFIED' (the system no longer names it)" window_never_says "$VERIFIED"
check "unverified: a notification" wait_for 20 notified
check "unverified: the notification names the host key, not the claim" \
    test "$(notice summary)" = "ssh: sign in to $HOST_FINGERPRINT — look at the camera"
logs_in unverified

check "the journal has the logins with the login key's fingerprint ($KEY_FINGERPRINT) and the host key's" \
    test "$(grep 'SSH key login' "$RUN/daemon.log" | grep -F "$HOST_FINGERPRINT" | grep -cF "$KEY_FINGERPRINT")" -ge 3
finish
