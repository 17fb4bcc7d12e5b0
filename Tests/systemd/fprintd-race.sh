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

# Either module's finger prompt: pam_localauthd's, and pam_fprintd's "Place your finger on …".
FINGER_PROMPT='touch the fingerprint sensor|(Place|Swipe) your [a-z -]*finger'

# race_at_prompt RUNS (issue 28, row 6): sudo by finger RUNS times with each module, interleaved, the
# finger pressed the moment the prompt appears on the terminal (pty-run --step-touch), not when
# fprintd reports that it waits: a prompt shown before the sensor listens loses the touch, and the
# run ends without the finger. Then the figures (fprintd-race.py --at-prompt): sudo start → prompt
# and touch → sudo's exit, both medians and their ratios against issue 28's targets.
race_at_prompt() {
    local runs=$1 index module finger=0
    local dir=$RUN/race-prompt
    mkdir -p "$dir"
    for index in $(seq -w "$runs"); do
        for module in localauthd fprintd; do
            cp "$RUN/sudo.$module" "$ROOT/etc/pam.d/sudo"
            sudo_run alice - --step-touch "$FINGER_PROMPT" alice-print >"$dir/$index-pam_$module.out"
            [ $module = localauthd ] && by_finger "$(<"$dir/$index-pam_$module.out")" && finger=$((finger + 1))
        done
    done
    cp "$RUN/sudo.localauthd" "$ROOT/etc/pam.d/sudo"
    python3 "$HERE/fprintd-race.py" --at-prompt "$dir"
    check "sudo with the finger pressed the moment the prompt appears: pam_localauthd never lost it ($finger of $runs by finger)" \
        test "$finger" -eq "$runs"
}

# su_left_waiting (issue 28, row 1, in the booted container): bob runs `su alice` and leaves it
# waiting (nobody touches); alice then runs sudo and touches once, the moment her prompt appears.
# Her sudo runs by finger, and bob's su is ended, never authenticated by her touch. /etc/pam.d/su is
# Debian's with the module's lines in place of common-auth (as docs/pam.md gives them for login),
# and Debian's again afterwards.
su_left_waiting() {
    cx sh -c 'cp /etc/pam.d/su /tmp/su.pam.debian && awk '\''/^@include common-auth$/ {
        print "auth       sufficient pam_localauthd.so"
        print "auth       [success=1 default=ignore] pam_unix.so nullok try_first_pass"
        print "auth       requisite  pam_deny.so"
        print "auth       required   pam_permit.so"; next } { print }'\'' /tmp/su.pam.debian >/etc/pam.d/su'
    cx sh -c "pty-run --timeout 10 -- su -P -l bob -c 'su alice -c true' >/tmp/su-left-waiting 2>&1 &"
    local evaluating='{"method":"broker.status","params":{}}'
    wait_for 10 bash -c "cx localauthd-rpc --socket $SOCK '$evaluating' | grep -q '\"evaluating\":1'"
    local sudo_out su_out
    sudo_out=$(sudo_run alice - --step-touch "$FINGER_PROMPT" alice-print)
    wait_for 15 bash -c "cx grep -q '^pty-run: exit' /tmp/su-left-waiting"
    su_out=$(cx cat /tmp/su-left-waiting)
    cx cp /tmp/su.pam.debian /etc/pam.d/su
    local before=$FAILED
    check "bob's \`su alice\` left waiting, then alice's sudo and one touch at her prompt: her sudo runs by finger" \
        by_finger "$sudo_out"
    check "...and bob's \`su alice\` was ended, not authenticated by her touch" \
        bash -c '! grep -q "^pty-run: exit 0$" <<<"$1" && grep -q "touch the fingerprint sensor" <<<"$1"' - "$su_out"
    [ "$FAILED" -gt "$before" ] && printf '     %s\n' "$sudo_out" "$su_out" | tail -n 30
}
