# The desktop tests' shared set-up (prompt.sh, wayland.sh, ssh-login.sh), on top of
# Tests/systemd/lib.sh's check/pass/fail/wait_for/die: a scratch directory and the processes
# started in it, the demo daemon, Xvfb, the fake notification server, and small waits.
. "$(dirname "${BASH_SOURCE[0]}")/../systemd/lib.sh"

# desktop_run NAME: RUN, a scratch directory /tmp/localauthd-NAME.XXXXXX, and PIDS, the processes
# `stop_pids` ends. Each script's own cleanup (trapped on EXIT) calls stop_pids.
desktop_run() {
    RUN=$(mktemp -d "/tmp/localauthd-$1.XXXXXX")
    PIDS=()
}

# stop_pids: SIGTERM to every process started, then waits for each.
stop_pids() {
    local pid
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
}

# start_demo_daemon [ARGS...]: `localauthd --demo` on $RUN/localauthd.sock (LOCALAUTHD_SOCKET,
# exported), its state in $RUN/state, its log in $RUN/daemon.log.
start_demo_daemon() {
    export LOCALAUTHD_SOCKET=$RUN/localauthd.sock
    localauthd --demo "$@" --stderr --socket "$LOCALAUTHD_SOCKET" --state-dir "$RUN/state" \
        >"$RUN/daemon.log" 2>&1 &
    PIDS+=($!)
    wait_for 20 test -S "$LOCALAUTHD_SOCKET" || die "the demo daemon did not start: $(cat "$RUN/daemon.log")"
}

# start_xvfb: an X server on a free display (DISPLAY, exported). -noreset: an X server resets when
# its last client leaves, and a client connecting meanwhile cannot open the display; between two
# prompts the window process is often the only client (a desktop's display never resets so).
start_xvfb() {
    Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset 3>"$RUN/display" 2>"$RUN/xvfb.log" &
    PIDS+=($!)
    wait_for 20 test -s "$RUN/display" || die "Xvfb did not start: $(cat "$RUN/xvfb.log")"
    export DISPLAY=:$(head -n1 "$RUN/display")
}

# start_notification_server: the fake notification server
# (Tests/notifications/fake-notification-server.py) on $DBUS_SESSION_BUS_ADDRESS, recording every
# call in $RUN/notifications.jsonl.
start_notification_server() {
    /usr/bin/python3 "$REPO/Tests/notifications/fake-notification-server.py" "$DBUS_SESSION_BUS_ADDRESS" \
        "$RUN/notifications.jsonl" >"$RUN/notification-server.log" 2>&1 &
    PIDS+=($!)
    wait_for 20 grep -q READY "$RUN/notification-server.log" ||
        die "the fake notification server did not start: $(cat "$RUN/notification-server.log")"
}

# log_has FILE TEXT: FILE holds TEXT.
log_has() { grep -q -- "$2" "$1" 2>/dev/null; }

# evaluate REASON LOG: localauthctl evaluates the owner policy in the background (EVAL: its pid).
evaluate() {
    localauthctl evaluate owner --reason "$1" >"$2" 2>&1 &
    EVAL=$!
    PIDS+=($EVAL)
}
