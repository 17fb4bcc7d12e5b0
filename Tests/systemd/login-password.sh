#!/bin/bash
# The login password as the passcode (issue 31), in the booted container with the package as
# installed: the packaged /etc/localauthd/localauthd.conf (a Kind=fprintd and a Kind=password
# sensor) unchanged, fprintd with libfprint's virtual device, docs/drivers.md's polkit rule.
# alice has a Unix password and a finger, and no localauthd passcode; bob has a password.
#
# Checked: alice can evaluate biometrics (no passcodeNotSet) and does so by finger; she evaluates
# owner by typing her login password into `localauthctl agent`; a wrong password is refused; bob
# cannot have the daemon check alice's password; six wrong guesses, then the next is refused with the
# back-off's wait, and `faillock --user alice` shows the failures; the helper refuses a peer that is
# not the daemon (root gets 'R', alice cannot connect); the password is in neither the journal nor a
# core of the daemon (gcore from the host) after the evaluations; the rate: guesses per minute
# through the daemon against su, printed (measured, never failed on).
#
# Usage: login-password.sh DEB   (make deb; or LOCALAUTHD_DEB=path)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_root
need_cmd systemd-nspawn nsenter unshare python3 gdb
DEB=$(readlink -f "${1:-${LOCALAUTHD_DEB:-}}" 2>/dev/null)
[ -f "$DEB" ] || die "usage: login-password.sh localauthd_VERSION_ARCH.deb (make deb)"

. "$HERE/fprintd-root.sh"
NAME=localauthd-password-$$
RUN=$(mktemp -d /var/tmp/localauthd-password.XXXXXX)
ROOT=$RUN/root
. "$HERE/container.sh"
trap container_cleanup EXIT
trap 'container_cleanup; trap - EXIT; exit 130' INT TERM
# Short, as most are: 11 bytes, below the 16 from which a Swift string lives on the heap anyway.
PASSWORD='Al1ce-Pw-31'
BOB_PASSWORD='bob-Login-Passw0rd-31'

cp -a --reflink=auto "$CACHE" "$ROOT" || die "cannot copy $CACHE"
chmod 0755 "$ROOT"
cp "$DEB" "$ROOT/root/"
install -D -m 0755 "$HERE/pty-run.py" "$ROOT/usr/local/bin/pty-run"
install -D -m 0755 "$HERE/vfinger.py" "$ROOT/usr/local/bin/vfinger"
install -D -m 0755 "$HERE/rpc.py" "$ROOT/usr/local/bin/localauthd-rpc"
mkdir -p "$ROOT/etc/systemd/system/fprintd.service.d"
printf '[Service]\nEnvironment=FP_VIRTUAL_DEVICE=/run/fprintd-vdev/vdev.sock\nRuntimeDirectory=fprintd-vdev\n' \
    >"$ROOT/etc/systemd/system/fprintd.service.d/virtual-device.conf"
mkdir -p "$ROOT/etc/polkit-1/rules.d"
sed -n '/^\/\/ \/etc\/polkit-1\/rules.d\/50-localauthd-fprintd.rules$/,/^```$/p' "$REPO/docs/drivers.md" | sed '$d' \
    >"$ROOT/etc/polkit-1/rules.d/50-localauthd-fprintd.rules"

container_boot
SOCK=/run/localauthd/localauthd.sock
if cx env DEBIAN_FRONTEND=noninteractive sh -c "cd /root && apt install -y ./$(basename "$DEB")" >"$RUN/apt.log" 2>&1; then
    pass "apt install ./$(basename "$DEB")"
else
    die "apt install failed: $(tail -n 15 "$RUN/apt.log")"
fi
check "the packaged configuration has the fprintd and the password sensor" \
    bash -c 'cx grep -qx "Kind=fprintd" /etc/localauthd/localauthd.conf && cx grep -qx "Kind=password" /etc/localauthd/localauthd.conf'
check "localauthd-password.socket is enabled and listening" cx systemctl is-active --quiet localauthd-password.socket
check "the helper's socket: the daemon's, mode 0600" \
    bash -c '[ "$(cx stat -c "%U %a" /run/localauthd/password.sock)" = "localauthd 600" ]'
check "/etc/pam.d/localauthd-password is installed" cx grep -q pam_faillock.so /etc/pam.d/localauthd-password

for who in alice bob; do
    cx useradd -m -s /bin/bash "$who" || die "useradd $who failed"
done
printf 'alice:%s\nbob:%s\n' "$PASSWORD" "$BOB_PASSWORD" | cx chpasswd || die "chpasswd failed"
cx sh -c "fprintd-enroll -f right-index-finger alice >/tmp/enroll-alice.log 2>&1 & pid=\$!
    for i in \$(seq 30); do kill -0 \$pid 2>/dev/null || break; vfinger --timeout 2 alice-print; sleep 0.1; done
    wait \$pid"
check "fprintd-enroll: alice's right index finger enrolled" \
    bash -c "cx fprintd-list alice 2>/dev/null | grep -q right-index-finger"
as() { local who=$1; shift; cx runuser -u "$who" -- "$@"; }

# --- no localauthd passcode, and nothing says passcodeNotSet ---
out=$(as alice localauthctl can-evaluate owner 2>&1)
check "alice (a password, no localauthd passcode): can-evaluate owner: $out" bash -c '! grep -qi passcodeNotSet <<<"$1"' - "$out"
for _ in 1 2 3 4 5; do  # the sensors' first answers come from the background (fprintd, the helper)
    out=$(as alice localauthctl can-evaluate biometrics 2>&1) && break
    sleep 1
done
check "alice: can-evaluate biometrics: $out" bash -c '! grep -qiE "passcodeNotSet|notEnrolled|not available" <<<"$1"' - "$out"
cx usermod -L bob
for _ in 1 2 3 4 5 6 7 8; do
    out=$(as bob localauthctl can-evaluate owner 2>&1)
    grep -q passcodeNotSet <<<"$out" && break
    sleep 5
done
check "bob with a locked password: can-evaluate owner is passcodeNotSet: $out" grep -q passcodeNotSet <<<"$out"
cx usermod -U bob

# --- biometrics by finger ---
cx sh -c 'vfinger --timeout 20 alice-print >/dev/null 2>&1 &'
out=$(as alice timeout 30 localauthctl evaluate biometrics --reason "finger test" 2>&1)
check "alice evaluates biometrics by finger: $(tail -n 1 <<<"$out")" grep -qi success <<<"$out"

# --- owner by the login password, typed into localauthctl agent ---
# agent_session STEPS...: alice's `localauthctl evaluate owner` with her agent on a pty: a finger that
# is not hers touches the sensor (vfinger, the moment fprintd waits), the agent offers the fallback
# ("f: Enter Password") and takes it, then pty-run's STEPS (--step PATTERN KEYS...), then Ctrl-C once
# a result is shown (the agent stops). Sets AGENT (the transcript) and EVAL (evaluate's output).
agent_session() {
    cx sh -c 'vfinger --timeout 20 stranger-print >/dev/null 2>&1 &'
    as alice pty-run --timeout 120 --settle-ms 100 --step 'f: Enter Password' 'f' "$@" \
        --step 'Result: ' '\x03' -- localauthctl agent >"$RUN/agent.out" 2>&1 &
    local agent_pid=$!
    wait_for 10 bash -c "cx runuser -u alice -- localauthctl agent --list 2>/dev/null | grep -q user" \
        || fail "alice's agent did not register"
    EVAL=$(as alice timeout 110 localauthctl evaluate owner --reason "password test" 2>&1)
    wait "$agent_pid"
    AGENT=$(tr -d '\r' <"$RUN/agent.out")
}
agent_session --step 'Password: ' "$PASSWORD\\r"
check "the agent offers the fallback as Enter Password and asks for a Password (not a Passcode)" \
    bash -c 'grep -q "f: Enter Password" <<<"$1" && grep -q "  Password: " <<<"$1"' - "$AGENT"
check "alice evaluates owner by her login password: $(tail -n 1 <<<"$EVAL")" grep -qi success <<<"$EVAL"
check "the password is not echoed by the agent" bash -c '! grep -qF "$1" <<<"$2"' - "$PASSWORD" "$AGENT"
[ "$FAILED" -gt 0 ] && printf '     %s\n' "$AGENT" | tail -n 25

agent_session --step 'Password: ' 'wrong-pw-short\r' --step 'Password: ' "$PASSWORD\\r"
check "a wrong password is refused (Wrong password), then the right one succeeds" \
    bash -c 'grep -q "Wrong password" <<<"$1" && grep -qi success <<<"$2"' - "$AGENT" "$EVAL"

# --- bob cannot have alice's password checked ---
out=$(as bob localauthd-rpc --socket "$SOCK" --timeout 10 \
    '{"method":"context.evaluatePolicy","params":{"policy":2,"localizedReason":"x","user":"alice"}}' 2>&1)
check "bob evaluating for alice: permissionDenied" grep -q -- '-32003' <<<"$out"
out=$(as bob localauthd-rpc --socket "$SOCK" --timeout 10 \
    '{"method":"agent.respond","params":{"requestID":"0","action":"passcode","passcode":"guess"}}' 2>&1)
check "bob answering a prompt he does not show: notFound" grep -q -- '-32004' <<<"$out"

# --- the helper refuses every peer but the daemon ---
ask_helper='import socket,struct,sys
s=socket.socket(socket.AF_UNIX)
try:
    s.connect("/run/localauthd/password.sock")
except OSError as e:
    print("refused at connect:", e.strerror); sys.exit(0)
s.settimeout(10); s.sendall(b"U"+struct.pack(">I",int(sys.argv[1]))); print("answer:", s.recv(8))'
alice_uid=$(cx id -u alice)
out=$(cx python3 -c "$ask_helper" "$alice_uid" 2>&1)
check "the helper refuses root: $out" grep -q "answer: b'R'" <<<"$out"
out=$(as alice python3 -c "$ask_helper" "$alice_uid" 2>&1)
check "alice cannot reach the helper: $out" grep -q "refused at connect" <<<"$out"
out=$(cx journalctl -b --no-pager -t localauthd-password-helper 2>&1)
check "the helper's refusal is in the journal" grep -q "refused a peer of uid 0" <<<"$out"

# --- six wrong guesses, then the back-off; faillock counts ---
cx faillock --user alice --reset
guesses=()
for i in 1 2 3 4 5 6; do guesses+=(--step 'Password: ' "wrong-guess-number-$i-of-six\\r"); done
# The 7th, the right password, is typed during the wait: refused unchecked; then the prompt is cancelled.
agent_session "${guesses[@]}" --step 'the next try waits' "$PASSWORD\\r" --step 'the next try waits' '\x03'
backoff_from=$(date +%s)  # the back-off's first wait (60 s) runs from about here
wrongs=$(grep -c 'Wrong password' <<<"$AGENT")
check "six wrong passwords are judged ($wrongs), then the back-off's wait: $(grep -m1 'next try waits' <<<"$AGENT")" \
    bash -c '[ "$1" -eq 6 ] && grep -q "Too many wrong passwords: the next try waits [0-9]* s" <<<"$2"' - "$wrongs" "$AGENT"
check "the right password typed during the wait is not checked: the evaluation ends userCancel" \
    bash -c 'grep -qi userCancel <<<"$1" && [ "$(grep -c "the next try waits" <<<"$2")" -ge 2 ]' - "$EVAL" "$AGENT"
first=$(sed -n 's/^pty-run: step 2 seen after \([0-9]*\) ms$/\1/p' <<<"$AGENT")
waited=$(sed -n 's/^pty-run: step 8 seen after \([0-9]*\) ms$/\1/p' <<<"$AGENT")
six_ms=$((${waited:-0} - ${first:-0}))
fails=$(cx faillock --user alice | grep -c '^[0-9]')
check "faillock --user alice shows the failures ($fails)" test "$fails" -ge 6

# --- the password stays nowhere: the journal, a core of the daemon ---
journal=$(cx journalctl -b --no-pager -o cat 2>&1)
check "no password, right or wrong, is in the journal" \
    bash -c '! grep -qF -e "$1" -e wrong-guess-number -e wrong-pw-short <<<"$2"' - "$PASSWORD" "$journal"
daemon=$(find /sys/fs/cgroup/*/"$NAME" -path '*localauthd.service/cgroup.procs' -exec cat {} + 2>/dev/null | head -n 1)
if [[ ${daemon:-} =~ ^[0-9]+$ ]]; then
    gdb -nx -batch -p "$daemon" -ex "gcore $RUN/daemon.core" >"$RUN/gcore.log" 2>&1
    if [ -s "$RUN/daemon.core" ]; then
        check "the core of the daemon holds alice's name (it is the daemon's)" grep -qa alice "$RUN/daemon.core"
        check "the password is not in a core of the daemon" bash -c '! grep -qaF -e "$1" "$2"' - "$PASSWORD" "$RUN/daemon.core"
        check "no wrong guess is in a core of the daemon" \
            bash -c '! grep -qaF -e wrong-guess-number-3-of-six "$1"' - "$RUN/daemon.core"
        check "a short (14-byte) wrong password is not in a core of the daemon" \
            bash -c '! grep -qaF -e wrong-pw-short "$1"' - "$RUN/daemon.core"
        [ "${LOCALAUTHD_KEEP_RUN:-0}" = 1 ] || rm -f "$RUN/daemon.core"
    else
        fail "gcore of the daemon (host pid $daemon): $(tail -n 3 "$RUN/gcore.log")"
    fi
else
    fail "cannot find the daemon's host pid"
fi

# --- the rate against su: wrong passwords for alice typed by bob into su ---
su_started=$(date +%s%N)
for i in 1 2 3 4 5; do
    as bob pty-run --timeout 30 --optional-steps --step 'Password: ' "su-guess-$i\\r" -- su alice -c true >/dev/null 2>&1
done
su_ms=$((($(date +%s%N) - su_started) / 1000000))
echo "     rate: through the daemon, 6 wrong passwords took ${six_ms} ms (pam_unix's delay each), then the"
echo "           back-off (1, 5, 15 min, hourly): at most 7 guesses in the first minute, 9 in 21 minutes;"
echo "           su: 5 wrong passwords took ${su_ms} ms: $((5 * 60000 / (su_ms > 0 ? su_ms : 1))) a minute per terminal, no back-off"

# --- the README's SSH steps, as written, by alice in her login session: ssh by finger, no passcode ---
SSH_PORT=$((20000 + $$ % 20000))
cx sh -c "mkdir -p /run/sshd /etc/ssh/test && ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/test/host_key &&
    printf 'Port $SSH_PORT\nListenAddress 127.0.0.1\nHostKey /etc/ssh/test/host_key\nUsePAM yes\nKbdInteractiveAuthentication no\nPasswordAuthentication no\nPidFile /run/sshd-test.pid\n' >/etc/ssh/test/sshd_config"
cx systemd-run --unit=localauthd-test-sshd /usr/sbin/sshd -D -f /etc/ssh/test/sshd_config >/dev/null 2>&1
wait_for 10 cx test -s /run/sshd-test.pid || fail "the private sshd did not listen on 127.0.0.1:$SSH_PORT"
readme=$(sed -n '/^SSH and git keys that need your finger/,/^```$/p' "$REPO/README.md" | sed -n '/^\$ /s/^\$ //p' |
    sed 's/[[:space:]]*#.*$//')
check "the README's SSH steps found (three lines)" test "$(wc -l <<<"$readme")" -eq 3
ssh_to="ssh -p $SSH_PORT -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes 127.0.0.1"
cx sh -c 'vfinger --timeout 30 alice-print >/dev/null 2>&1 &'
out=$(cx su -l alice -c "set -e
$(sed 's/^localauthctl ssh-key create work --reuse 60$/localauthctl ssh-key create work --reuse 60 >~\/work.pub/' <<<"$readme")
mkdir -p -m 700 ~/.ssh && cp ~/work.pub ~/.ssh/authorized_keys
$ssh_to echo logged-in-by-finger" 2>&1)
check "alice runs the README's SSH steps and logs in by finger, with no passcode set" grep -q logged-in-by-finger <<<"$out"
[ "$FAILED" -gt 0 ] && printf '     %s\n' "$out" | tail -n 8
list=$(cx su -l alice -c 'localauthctl ssh-key list' 2>&1)
check "ssh-key list: the last outcome is signed" bash -c 'grep -E "^work .* signed *$" <<<"$1"' - "$list"
# A refused signature (a key without a reuse window; three fingers that are not hers, Touch ID's
# attempts): ssh is refused, and why is in ssh-key list and in the journal.
cx su -l alice -c 'localauthctl ssh-key create strict >~/strict.pub && cat ~/strict.pub >>~/.ssh/authorized_keys'
cx sh -c 'for i in 1 2 3; do vfinger --timeout 15 stranger-print >/dev/null 2>&1; done &'
out=$(cx su -l alice -c "export SSH_AUTH_SOCK=\$XDG_RUNTIME_DIR/localauthd/ssh-agent.sock
$ssh_to -i ~/strict.pub -o IdentitiesOnly=yes echo logged-in" 2>&1)
check "a refused signature refuses the login" bash -c '! grep -q logged-in <<<"$1"' - "$out"
list=$(cx su -l alice -c 'localauthctl ssh-key list' 2>&1)
check "ssh-key list says why: $(grep '^strict' <<<"$list" | awk '{print $NF}')" \
    bash -c 'grep -E "^strict .*authenticationFailed" <<<"$1"' - "$list"
check "the journal says why" bash -c 'cx journalctl -b --no-pager -o verbose MESSAGE_ID=0c7d4e7e45ac4bdca8cc25d31b4f92e6 | grep -q OUTCOME=authenticationFailed'
# A key with --policy any falls back to the login password: a finger that is not hers, the fallback
# taken at her agent ("f: Enter Password"), her password typed there; ssh logs in. First the wait
# the six wrong passwords above started is waited out (a password typed during it is not checked).
left=$((backoff_from + 65 - $(date +%s)))
[ "$left" -gt 0 ] && sleep "$left"
cx su -l alice -c 'localauthctl ssh-key create anykey --policy any >~/anykey.pub && cat ~/anykey.pub >>~/.ssh/authorized_keys'
cx sh -c 'vfinger --timeout 20 stranger-print >/dev/null 2>&1 &'
as alice pty-run --timeout 90 --settle-ms 100 --step 'f: Enter Password' 'f' --step 'Password: ' "$PASSWORD\\r" \
    --step 'Result: ' '\x03' -- localauthctl agent >"$RUN/agent.out" 2>&1 &
agent_pid=$!
wait_for 10 bash -c "cx runuser -u alice -- localauthctl agent --list 2>/dev/null | grep -q user" \
    || fail "alice's agent did not register"
out=$(cx su -l alice -c "export SSH_AUTH_SOCK=\$XDG_RUNTIME_DIR/localauthd/ssh-agent.sock
$ssh_to -i ~/anykey.pub -o IdentitiesOnly=yes echo logged-in-by-password" 2>&1)
wait "$agent_pid"
check "a --policy any key falls back to the login password: ssh logs in" grep -q logged-in-by-password <<<"$out"
[ "$FAILED" -gt 0 ] && tr -d '\r' <"$RUN/agent.out" | tail -n 12 | sed 's/^/     /'

container_stop
finish
