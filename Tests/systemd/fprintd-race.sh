# sudo by finger, pam_localauthd against pam_fprintd in one run; sourced by fprintd-sudo.sh (cx, RUN,
# ROOT are set there, and $RUN/sudo.localauthd, $RUN/sudo.fprintd hold the two /etc/pam.d/sudo files).

SUDO_PROMPT='\[sudo\] password for [a-z]+: '
export SUDO_PROMPT

# sudo_run WHO PRESS [pty-run arguments...]: `sudo -k true` as WHO in a logind session (su -l) on a
# pseudo-terminal of its own (su --pty); PRESS ("-" for none) is pressed on the virtual sensor the
# moment fprintd's device waits for a finger (vfinger watches the bus: no polling, the same for both
# modules). vfinger records the bus events of the run in /tmp/vfinger-events. $TIMED_SUDO is the
# command run in the session (timed-sudo; the timing runs add --after).
TIMED_SUDO=timed-sudo
sudo_run() {
    local who=$1 press=$2
    shift 2
    local finger=
    [ "$press" = - ] || finger="vfinger --events /tmp/vfinger-events $press --"
    cx sh -c "rm -f /tmp/vfinger-events; exec $finger pty-run --timeout 25 --optional-steps \"\$@\" -- su -P -l $who -c '$TIMED_SUDO'" \
        pty "$@" 2>&1
}

# The bar for a case with the finger: sudo ran, no password asked.
by_finger() {
    grep -q '^pty-run: exit 0$' <<<"$1" && ! grep -Eq "$SUDO_PROMPT" <<<"$1"
}
export -f by_finger

# race RUNS: sudo by finger RUNS times with each module, interleaved (pam_localauthd, pam_fprintd,
# pam_localauthd, ...: whatever else loads the machine meanwhile falls on both alike), then the
# figures (fprintd-race.py): both medians and their ratio against the 1.1x target, by wall time, by
# CPU time (sudo and everything it ran, plus the system services': timed-sudo) and outside fprintd's
# cycle (the bus timestamps vfinger recorded). Leaves docs/pam.md's /etc/pam.d/sudo in place.
race() {
    local runs=$1 index module finger=0
    local dir=$RUN/race
    mkdir -p "$dir"
    for index in $(seq -w "$runs"); do
        for module in localauthd fprintd; do
            cp "$RUN/sudo.$module" "$ROOT/etc/pam.d/sudo"
            TIMED_SUDO="timed-sudo --after" sudo_run alice alice-print >"$dir/$index-pam_$module.out"
            cx cat /tmp/vfinger-events >"$dir/$index-pam_$module.events" 2>/dev/null
            [ $module = localauthd ] && by_finger "$(<"$dir/$index-pam_$module.out")" && finger=$((finger + 1))
        done
    done
    cp "$RUN/sudo.localauthd" "$ROOT/etc/pam.d/sudo"
    python3 "$HERE/fprintd-race.py" "$dir"
    check "sudo by finger, interleaved: pam_localauthd ran by finger $finger times of $runs" test "$finger" -eq "$runs"
}
