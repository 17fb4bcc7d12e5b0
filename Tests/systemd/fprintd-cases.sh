# The cases of fprintd-sudo.sh, for one PAM module at a time, then the interleaved timing runs
# (fprintd-race.sh); sourced by it (cx, check, RUN, ROOT, PASSWORD, SSH_PORT, sudo_run and race are
# set there). Each case records a row for the table in $RUN/table.md:
# module | case | exit | what the person sees | time (to the password prompt, or to the end).

ANY_PROMPT="$SUDO_PROMPT|Password: "
printf '| Module | Case | Exit | What the person sees | Time |\n|---|---|---|---|---|\n' >"$RUN/table.md"

# seen TRANSCRIPT: what the person saw, on one line (prompts and messages, no pty-run lines).
seen() {
    grep -Ev '^(pty-run|timed-sudo): ' <<<"$1" | tr -d '\r' | sed '/^[[:space:]]*$/d' | paste -sd '/' | sed 's|/| / |g' | cut -c1-160
}
field() { sed -n "s/^pty-run: $1 //p" <<<"$2" | head -n 1; }
prompt_ms() { sed -n 's/^pty-run: step 1 seen after \([0-9]*\) ms$/\1/p' <<<"$1"; }

# row MODULE CASE TRANSCRIPT: adds the table row and echoes the transcript indented.
row() {
    local time
    time=$(prompt_ms "$3")
    if [ -n "$time" ]; then time="prompt after $time ms"; else time="ended after $(field took "$3")"; fi
    printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$(field exit "$3")" "$(seen "$3")" "$time" >>"$RUN/table.md"
    sed 's/^/     | /' <<<"$3"
}

# The bar for a case without the finger: the password typed at the first prompt works, and no
# second password prompt follows (the module's "Password:" then sudo's "[sudo] password", issue 19
# row 3). The module may show its own prompt again after a line that says why the sensor is out.
by_password() {
    grep -q '^pty-run: exit 0$' <<<"$1" &&
        ! { grep -q '^Password: ' <<<"$(tr -d '\r' <<<"$1")" && grep -Eq "$SUDO_PROMPT" <<<"$1"; } &&
        [ "$(grep -Ec "$SUDO_PROMPT" <<<"$1")" -le 1 ]
}
export -f by_password field
export ANY_PROMPT

# hold DESCRIPTION COMMAND...: a check for pam_localauthd; for the peer (pam_fprintd) the outcome is
# recorded ("peer") and never counted: the table shows where it falls short.
hold() {
    if [ "$module" = pam_localauthd ]; then check "$@"; return; fi
    local description=$1
    shift
    if "$@"; then echo "peer - $description: yes"; else echo "peer - $description: NO"; fi
}

# run_cases MODULE: every case with the current /etc/pam.d/sudo.
run_cases() {
    local module=$1 out out2
    out=$(sudo_run alice alice-print)
    row "$module" finger "$out"
    hold "$module, finger: sudo runs, no password asked" by_finger "$out"

    out=$(cx sh -c "exec vfinger stranger-print alice-print -- pty-run --timeout 25 --optional-steps --step '$SUDO_PROMPT' '$PASSWORD\r' -- su -P -l alice -c timed-sudo" 2>&1)
    row "$module" "wrong then right" "$out"
    hold "$module, wrong then right: sudo runs (finger, or the password once)" \
        bash -c 'by_finger "$1" || by_password "$1"' _ "$out"

    out=$(sudo_run alice - --step "$ANY_PROMPT|finger" "$PASSWORD\r" --step "$SUDO_PROMPT" "$PASSWORD\r")
    row "$module" "password typed while the sensor waits" "$out"
    hold "$module, password typed while the sensor waits: sudo runs, nothing hangs" \
        grep -q '^pty-run: exit 0$' <<<"$out"

    # Ctrl-C at the first prompt, and again if sudo's own prompt follows (200 ms after each prompt,
    # as a person: sudo loses a Ctrl-C typed within a few milliseconds of its prompt).
    out=$(sudo_run alice - --settle-ms 200 --step "$ANY_PROMPT|finger" '\x03' --step "$SUDO_PROMPT" '\x03')
    row "$module" "Ctrl-C" "$out"
    hold "$module, Ctrl-C: sudo ends (exit $(field exit "$out"), Ctrl-C pressed $(grep -c '^pty-run: step [0-9] seen' <<<"$out") times), nothing hangs" \
        bash -c '! grep -Eq "^pty-run: exit (0|124)$" <<<"$1"' _ "$out"

    cx systemctl mask --now fprintd.service >/dev/null 2>&1
    out=$(sudo_run alice - --step "$ANY_PROMPT" "$PASSWORD\r")
    row "$module" "fprintd masked" "$out"
    hold "$module, fprintd masked: one password prompt ($(prompt_ms "$out") ms), sudo runs" by_password "$out"
    cx systemctl unmask fprintd.service >/dev/null 2>&1

    cx systemctl stop fprintd.service
    out=$(sudo_run alice alice-print)
    row "$module" "fprintd stopped, activatable" "$out"
    hold "$module, fprintd stopped but activatable: the finger gets sudo" by_finger "$out"

    cx systemctl stop localauthd.socket localauthd.service
    out=$(sudo_run alice - --step "$ANY_PROMPT" "$PASSWORD\r")
    row "$module" "localauthd stopped" "$out"
    hold "$module, localauthd stopped: one password prompt ($(prompt_ms "$out") ms), sudo runs" by_password "$out"
    cx systemctl start localauthd.socket

    out=$(cx pty-run --timeout 25 --optional-steps --step "$ANY_PROMPT" "$PASSWORD\r" -- su -P -l alice -c \
        "ssh -tt -p $SSH_PORT -i ~/.ssh/id_ed25519 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
         -o LogLevel=ERROR alice@127.0.0.1 timed-sudo" 2>&1)
    row "$module" "ssh login" "$out"
    hold "$module, a real ssh login: one password prompt, sudo runs" by_password "$out"

    out=$(cx vfinger alice-print alice-print -- sh -c "
        pty-run --timeout 25 --optional-steps --step '$SUDO_PROMPT' '$PASSWORD\r' -- su -P -l alice -c timed-sudo >/tmp/two-a 2>&1 &
        pty-run --timeout 25 --optional-steps --step '$SUDO_PROMPT' '$PASSWORD\r' -- su -P -l alice -c timed-sudo >/tmp/two-b 2>&1
        wait; cat /tmp/two-a; echo; cat /tmp/two-b" 2>&1)
    row "$module" "two sudo at once" "$out"
    hold "$module, two sudo at once: both run ($(grep -c '^pty-run: exit 0$' <<<"$out") of 2), nothing hangs" \
        test "$(grep -c '^pty-run: exit 0$' <<<"$out")" -eq 2
    hold "$module, two sudo at once: both by finger (password prompts: $(grep -Ec "$SUDO_PROMPT" <<<"$out"))" \
        bash -c '! grep -Eq "$SUDO_PROMPT" <<<"$1"' _ "$out"

    out=$(sudo_run bob bob-print --step "$SUDO_PROMPT" "$PASSWORD\r")
    row "$module" "fingers, no localauthd passcode" "$out"
    hold "$module, a user with fingers and no localauthd passcode: the finger gets sudo" by_finger "$out"
}

# --- a private sshd on 127.0.0.1 (UsePAM: logind registers the session, Remote=yes) ---
cx sh -c "mkdir -p /run/sshd /etc/ssh/test && ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/test/host_key &&
    printf 'Port $SSH_PORT\nListenAddress 127.0.0.1\nHostKey /etc/ssh/test/host_key\nUsePAM yes\nKbdInteractiveAuthentication no\nPasswordAuthentication no\nPidFile /run/sshd-test.pid\n' >/etc/ssh/test/sshd_config"
cx su -l alice -c "mkdir -p -m 700 ~/.ssh && ssh-keygen -q -t ed25519 -N '' -f ~/.ssh/id_ed25519 && cp ~/.ssh/id_ed25519.pub ~/.ssh/authorized_keys"
cx systemd-run --unit=localauthd-test-sshd /usr/sbin/sshd -D -f /etc/ssh/test/sshd_config >/dev/null 2>&1
wait_for 10 cx test -s /run/sshd-test.pid || fail "the private sshd did not listen on 127.0.0.1:$SSH_PORT"
remote=$(cx su -l alice -c "ssh -p $SSH_PORT -i ~/.ssh/id_ed25519 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o LogLevel=ERROR alice@127.0.0.1 'loginctl show-session \$XDG_SESSION_ID -p Remote'" 2>&1)
check "logind sees the ssh login as remote ($remote)" test "$remote" = Remote=yes

echo "     --- pam_localauthd (docs/pam.md's /etc/pam.d/sudo) ---"
run_cases pam_localauthd
cp "$RUN/sudo.fprintd" "$ROOT/etc/pam.d/sudo"
echo "     --- pam_fprintd (max-tries=1 timeout=10, Debian's profile) ---"
run_cases pam_fprintd
cp "$RUN/sudo.localauthd" "$ROOT/etc/pam.d/sudo"
echo "     --- what the person sees ---"
sed 's/^/     /' "$RUN/table.md"
cp "$RUN/table.md" "${LOCALAUTHD_FPRINTD_TABLE:-/tmp/localauthd-fprintd-table.md}" 2>/dev/null
echo "     --- sudo by finger, both modules interleaved ---"
race "${LOCALAUTHD_FPRINTD_RUNS:-10}"
echo "     --- the finger pressed the moment the prompt appears, both modules interleaved ---"
race_at_prompt "${LOCALAUTHD_FPRINTD_RUNS:-10}"
echo "     --- another user's su for alice left waiting, then her sudo ---"
su_left_waiting
