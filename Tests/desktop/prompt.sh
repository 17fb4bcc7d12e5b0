#!/bin/bash
# The desktop prompt agent (localauthd-prompt) for real, under Xvfb (issue 34): a demo daemon on a
# private socket with a scripted face, the prompt program as the user's agent, and localauthctl
# evaluating as the app. It checks, by window title (xdotool), that an evaluation shows a window
# naming the app and the reason; that Escape ends it with userCancel; that two face misses bring the
# fallback button, which with a typed passcode succeeds (after a wrong one, which the window says);
# that a touch elsewhere closes the window; that an SSH signature (ssh-keygen -Y sign through
# localauthctl ssh-agent) shows its namespace in the window and a desktop notification, which a
# fake notification server on a private session bus records (Notify, then CloseNotification when the
# signature is made); and that a second agent for the scope is refused. Each
# state is photographed (import), checked to be the window's size and not blank, and written to
# docs/images/ (LOCALAUTHD_PROMPT_IMAGES overrides), where docs/owners-and-agents.md shows them. Tests/desktop/wayland.sh does the same
# under Weston's headless backend; `make test-desktop` runs both.
#
# Usage: prompt.sh BINDIR   (BINDIR holds localauthd, localauthctl, localauthd-prompt and
# localauthd-prompt-window)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
BINDIR=$(cd "${1:?usage: prompt.sh BINDIR}" && pwd)
IMAGES=${LOCALAUTHD_PROMPT_IMAGES:-$REPO/docs/images}
need_cmd Xvfb xdotool xwininfo import identify timeout dbus-daemon ssh-keygen
desktop_run desktop
cleanup() {
    stop_pids
    rm -rf "$RUN"
}
trap cleanup EXIT
export PATH="$BINDIR:$PATH"
# The program draws with GTK's cairo renderer by itself (CPromptWindow: no GPU driver loaded); the
# theme is named so that the pictures do not follow a desktop setting.
export GTK_THEME=Adwaita GTK_A11Y=none
mkdir -p "$IMAGES"

start_demo_daemon

start_xvfb

# A private session bus with a fake notification server that records every call in
# $RUN/notifications.jsonl (Tests/notifications/fake-notification-server.py).
cat >"$RUN/session-bus.conf" <<BUS
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$RUN/session-bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*"/>
    <allow own="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
BUS
dbus-daemon --config-file="$RUN/session-bus.conf" --nofork >"$RUN/session-bus.log" 2>&1 &
PIDS+=($!)
wait_for 20 test -S "$RUN/session-bus" || die "the session bus did not start: $(cat "$RUN/session-bus.log")"
export DBUS_SESSION_BUS_ADDRESS=unix:path=$RUN/session-bus
start_notification_server

# The window of a title, as xdotool finds it (empty when there is none).
window_titled() { xdotool search --onlyvisible --name "^$1\$" 2>/dev/null | head -n1; }
has_window() { [ -n "$(window_titled "$1")" ]; }
no_window() { [ -z "$(window_titled "$1")" ]; }

# photograph NAME WINDOW: the window's picture in $IMAGES/desktop-prompt-NAME.png, checked to be
# the window's size (xwininfo) and not blank (more than 20 colours: text, buttons, a field).
photograph() {
    local file=$IMAGES/desktop-prompt-$1.png size expected colours
    sleep 0.3 # the redraw after the last change (GTK draws on its next frame)
    import -window "$2" "$file" 2>>"$RUN/import.log" || { fail "$1: import could not photograph the window"; return; }
    size=$(identify -format '%wx%h' "$file")
    expected=$(xwininfo -id "$2" | awk '/Width:/ {w=$2} /Height:/ {h=$2} END {print w "x" h}')
    colours=$(identify -format '%k' "$file")
    if [ "$size" = "$expected" ] && [ "$colours" -gt 20 ]; then
        pass "$1: the picture ($file) is the window's size ($size) and not blank ($colours colours)"
    else
        fail "$1: the picture is $size with $colours colours; the window is $expected"
    fi
}

localauthd-prompt --help >"$RUN/help.txt" 2>&1
status=$?
check "--help prints the usage and exits 0" test $status -eq 0 -a -n "$(grep '^Usage: localauthd-prompt' "$RUN/help.txt")"
env -u DISPLAY -u WAYLAND_DISPLAY localauthd-prompt --scope user >"$RUN/nodisplay.log" 2>&1
status=$?
check "without a display it exits 4 and says so" test $status -eq 4 -a -n "$(grep 'cannot open a display' "$RUN/nodisplay.log")"

# A passcode of its own (and a wrong one), so that a find in the program's memory can only be what
# was typed.
PASSCODE=73915064
WRONG_PASSCODE=48261937
# The window process (localauthd-prompt-window), the agent's child while a window shows; empty when
# none runs.
window_process() { ps -o pid= --ppid "$PROMPT" 2>/dev/null | tr -d ' ' | head -n1; }
no_window_process() { [ -z "$(window_process)" ]; }
# memory_holds_no WHAT SECRET [PID...]: the secret is nowhere in the memory of the agent, nor of the
# window process while it runs (the field's buffer, the line sent over the pipe, each program's
# copies, the request line, the stack below the JSON writer), nor of any PID named; read through
# /proc/PID/mem, so root only.
memory_holds_no() {
    local what=$1 secret=$2 pid name
    shift 2
    if [ "$(id -u)" -ne 0 ]; then
        echo "SKIP - the memory scan for $what: reading /proc/PID/mem needs root"
        return
    fi
    for pid in "$PROMPT" "$@"; do
        name=agent
        [ "$pid" = "$PROMPT" ] || name="window process"
        check "$what is nowhere in the $name's memory (pid $pid) after sending" \
            /usr/bin/python3 "$HERE/../desktop/memory-scan.py" "$pid" "$secret"
    done
}
localauthctl passcode set "$PASSCODE" --old "${LOCALAUTHD_DEMO_PASSCODE:-1234}" >/dev/null ||
    die "cannot set the test's passcode"
localauthctl sim face DEFAULT WAIT >/dev/null || die "cannot script the demo face"
localauthd-prompt --scope user >"$RUN/prompt.log" 2>&1 &
PROMPT=$!
PIDS+=($PROMPT)
check "the prompt program registers as the user's agent" wait_for 20 log_has "$RUN/prompt.log" "showing prompts for"
# The agent links no GTK and starts no window process while no prompt shows (docs/performance.md:
# the idle agent stays small).
check "the agent links no GTK (ldd localauthd-prompt)" eval '! ldd "$BINDIR/localauthd-prompt" | grep -q gtk'
check "no window process runs while no prompt shows" no_window_process

timeout 20 localauthd-prompt --scope user >"$RUN/second.log" 2>&1
status=$?
if [ $status -eq 1 ] && log_has "$RUN/second.log" "Another prompt agent (pid $PROMPT)"; then
    pass "a second agent for the scope exits 1, naming the pid of the first"
else
    fail "a second agent: status $status, said: $(cat "$RUN/second.log")"
fi

# 1. A window naming the app and the reason; Escape ends it with userCancel.
TITLE="localauthctl — Unlock the vault"
evaluate "Unlock the vault" "$RUN/cancel.log"
check "an app evaluation shows a window titled '$TITLE'" wait_for 20 has_window "$TITLE"
WINDOW=$(window_titled "$TITLE")
if [ -n "$WINDOW" ]; then
    photograph waiting "$WINDOW"
    xdotool windowfocus --sync "$WINDOW" key Escape
fi
check "Escape ends the evaluation with userCancel" wait_for 20 log_has "$RUN/cancel.log" "userCancel"
check "the window closes when the evaluation ends" wait_for 20 no_window "$TITLE"

# 2. Two face misses, the fallback button, a typed passcode: success.
TITLE="localauthctl — Sign the release"
localauthctl sim face NOMATCH NOMATCH >/dev/null
evaluate "Sign the release" "$RUN/fallback.log"
check "a second evaluation shows its window" wait_for 20 has_window "$TITLE"
check "two face misses leave the choice to the person" wait_for 20 log_has "$RUN/fallback.log" "awaitingChoice"
WINDOW=$(window_titled "$TITLE")
if [ -n "$WINDOW" ]; then
    photograph fallback "$WINDOW"
    # The fallback button takes the focus inside its window when it appears: Return presses it.
    xdotool windowfocus --sync "$WINDOW" key Return
    check "the fallback button switches to the passcode" wait_for 20 log_has "$RUN/fallback.log" "fell back to passcode"
    sleep 0.3
    # A wrong passcode first: the field is emptied (a fresh buffer, the old one zeroed) and takes the
    # next one; while the window is still open, the wrong one is already nowhere in memory.
    xdotool windowfocus --sync "$WINDOW" type --delay 40 "$WRONG_PASSCODE"
    xdotool key Return
    check "a wrong passcode is told as such" wait_for 20 log_has "$RUN/fallback.log" "wrongPasscode"
    WINDOW_PROCESS=$(window_process)
    check "the window is drawn by a window process, the agent's child" test -n "$WINDOW_PROCESS"
    memory_holds_no "the wrong passcode, the window still open," "$WRONG_PASSCODE" $WINDOW_PROCESS
    sleep 0.3
    xdotool windowfocus --sync "$WINDOW" type --delay 40 "$PASSCODE"
    photograph passcode "$WINDOW"
    xdotool key Return
fi
check "the typed passcode succeeds" wait_for 20 log_has "$RUN/fallback.log" "success (deviceOwnerAuthentication, sensor passcode)"
check "the window closes after the success" wait_for 20 no_window "$TITLE"
# The typed passcode was in the window process too: it exits once its last window closed, and its
# memory with it.
check "the window process exits with its last window" wait_for 20 no_window_process
memory_holds_no "the passcode typed" "$PASSCODE"
for secret in "$PASSCODE" "$WRONG_PASSCODE"; do
    check "a typed passcode is in no log (the agent's, the daemon's, Xvfb's)" \
        eval "! grep -qF -- '$secret' '$RUN/prompt.log' '$RUN/daemon.log' '$RUN/xvfb.log'"
done

# 3. A touch elsewhere (the scripted face matches) closes the window.
TITLE="localauthctl — Open the wallet"
evaluate "Open the wallet" "$RUN/touch.log"
check "a third evaluation shows its window" wait_for 20 has_window "$TITLE"
localauthctl sim face MATCH >/dev/null
check "the face matches elsewhere: success" wait_for 20 log_has "$RUN/touch.log" "success (deviceOwnerAuthentication, sensor face)"
check "the window closes itself on agent.ended" wait_for 20 no_window "$TITLE"

# 3b. The window process dies while its window shows (a crash, a lost display): the prompt it
# showed can no longer be seen, so the agent cancels it, and the next prompt gets a new process.
TITLE="localauthctl — Unseen"
evaluate "Unseen" "$RUN/unseen.log"
check "an evaluation shows its window" wait_for 20 has_window "$TITLE"
crashed=$(window_process)
[ -n "$crashed" ] && kill -KILL "$crashed"
check "a window process killed under its window: the prompt it showed ends with userCancel" \
    wait_for 20 log_has "$RUN/unseen.log" "userCancel"
check "...and its window is gone from the display" wait_for 20 no_window "$TITLE"
TITLE="localauthctl — Seen again"
evaluate "Seen again" "$RUN/seen.log"
check "the next prompt starts a new window process and shows its window" wait_for 20 has_window "$TITLE"
localauthctl sim face MATCH >/dev/null
check "...and is answered by the face" wait_for 20 log_has "$RUN/seen.log" "success (deviceOwnerAuthentication, sensor face)"
check "...and its window process exits with it" wait_for 20 no_window_process

# 4. An SSH signature (git's: ssh-keygen -Y sign through localauthctl ssh-agent) shows its
# namespace in the window and a notification; both go when the face matches.
localauthctl ssh-key create desktop >"$RUN/desktop.pub" || die "ssh-key create failed"
mkdir -m 0700 "$RUN/agent"
localauthctl ssh-agent --listen "$RUN/agent/agent.sock" >"$RUN/ssh-agent.log" 2>&1 &
PIDS+=($!)
wait_for 20 test -S "$RUN/agent/agent.sock" || die "the SSH agent did not start: $(cat "$RUN/ssh-agent.log")"
echo "a release" >"$RUN/release.txt"
SSH_AUTH_SOCK=$RUN/agent/agent.sock ssh-keygen -q -Y sign -n git -f "$RUN/desktop.pub" "$RUN/release.txt" \
    >"$RUN/sign.log" 2>&1 &
SIGN=$!
PIDS+=($SIGN)
# (xdotool's --name is a regular expression: the parentheses are escaped.)
TITLE='localauthctl — git/ssh-keygen: sign a file \(namespace git\)'
check "an SSH signature shows a window naming its namespace" wait_for 20 has_window "$TITLE"
notified() { grep -q '"call": "Notify".*"summary": "git/ssh-keygen: sign a file (namespace git) — look at the camera"' "$RUN/notifications.jsonl" 2>/dev/null; }
check "and a desktop notification (Notify: git/ssh-keygen: sign a file (namespace git) — look at the camera)" \
    wait_for 20 notified
localauthctl sim face MATCH >/dev/null
wait "$SIGN"
check "the face matches: ssh-keygen signed" test -s "$RUN/release.txt.sig"
closed() { tail -n1 "$RUN/notifications.jsonl" | grep -q '"call": "CloseNotification", "id": 1}'; }
check "the notification is closed once the signature is made (CloseNotification)" wait_for 20 closed
check "the window closes too" wait_for 20 no_window "$TITLE"
check "the notification came from app localauthd, critical" \
    grep -q '"app": "localauthd".*"urgency": 2' "$RUN/notifications.jsonl"

# The three states are three different pictures.
shots=$(for state in waiting fallback passcode; do md5sum <"$IMAGES/desktop-prompt-$state.png"; done | sort -u | wc -l)
check "the waiting, fallback and passcode pictures differ" [ "$shots" -eq 3 ]

kill -TERM "$PROMPT"
wait "$PROMPT"
status=$?
check "SIGTERM stops the prompt program with status 0 (it said $(tail -n1 "$RUN/prompt.log"))" [ $status -eq 0 ]
echo "--- localauthd-prompt said:"
cat "$RUN/prompt.log"
finish
