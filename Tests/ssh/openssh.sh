#!/bin/bash
# localauthctl ssh-agent with real OpenSSH and git, against the project's own daemon (simulated
# sensors) and a private sshd on 127.0.0.1 (its own config, host key, port and
# AuthorizedKeysFile in a temp dir; UsePAM no; a test user made with useradd, password field *).
# Nothing of the host's ssh configuration is read or changed. Needs root (sshd, useradd).
#
# Environment: BINDIR (the localauthd and localauthctl binaries); EXTRA_CONFIG and
# EXPECT_KEY_STORE (Tests/tpm/openssh-tpm.sh). Prints one line per check and
# "N passed, N failed"; exits non-zero on any failure.
set -u
BINDIR=${BINDIR:?set BINDIR to the directory of localauthd and localauthctl}
HERE=$(cd "$(dirname "$0")" && pwd)
PASSED=0
FAILED=0
check() {
    local name=$1
    shift
    if "$@"; then
        PASSED=$((PASSED + 1)); echo "ok   $name"
    else
        FAILED=$((FAILED + 1)); echo "FAIL $name"
    fi
}
die() { echo "openssh.sh: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (sshd and useradd)"
for tool in ssh sshd ssh-keygen ssh-add git setpriv useradd; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || die "$tool is missing (make ssh-deps)"
done

T=$(mktemp -d /tmp/localauthd-ssh.XXXXXX)
# sshd reads the test user's authorized keys as that user: it may pass through (not list) $T;
# the agent's socket and the state have 0700 directories of their own.
chmod 0711 "$T"
TESTUSER="lassh$$"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    [ -f "$T/sshd.pid" ] && kill "$(cat "$T/sshd.pid")" 2>/dev/null
    sleep 0.2
    userdel "$TESTUSER" 2>/dev/null
    if [ "$FAILED" != 0 ]; then
        for log in daemon.log agent.log sshd.log ssh1.err ssh2.err prompts remote-sudo.out session.err; do
            [ -f "$T/$log" ] && { echo "--- $log"; tail -20 "$T/$log"; }
        done
    fi
    [ -n "${KEEP_TEMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# The daemon, with the demo's simulated face (identity demo-user, uid of the runner) and passcode.
mkdir -m 0700 "$T/state" "$T/agent" "$T/home" "$T/home/.ssh"
export LOCALAUTHD_SOCKET="$T/daemon.sock"
# The system's known hosts, as the daemon reads them (root's file, written below), stand in for
# /etc/ssh/ssh_known_hosts, which this test never touches.
printf '[Broker]\nSSHKnownHostsFile=%s\n' "$T/ssh_known_hosts" >"$T/localauthd.conf"
# EXTRA_CONFIG: more of the daemon's configuration (Tests/tpm/openssh-tpm.sh: [Keys] in swtpm).
printf '%b' "${EXTRA_CONFIG:-}" >>"$T/localauthd.conf"
"$BINDIR/localauthd" --demo --config "$T/localauthd.conf" --stderr --state-dir "$T/state" \
    --socket "$LOCALAUTHD_SOCKET" >"$T/daemon.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$LOCALAUTHD_SOCKET" ] && break; sleep 0.1; done
[ -S "$LOCALAUTHD_SOCKET" ] || die "the daemon did not start: $(cat "$T/daemon.log")"
CTL="$BINDIR/localauthctl"
# Every capture waits for a scripted answer: a missing MATCH shows as a timeout, not a pass.
"$CTL" sim face --replace DEFAULT WAIT >/dev/null

python3 "$HERE/prompt_recorder.py" "$LOCALAUTHD_SOCKET" "$T/prompts" >"$T/recorder.log" 2>&1 &
PIDS+=($!)

check "ssh-key create prints an OpenSSH public key line" \
    bash -c "'$CTL' ssh-key create login > '$T/login.pub' && grep -q '^ecdsa-sha2-nistp256 AAAA[^ ]* login\$' '$T/login.pub'"
check "ssh-key create --reuse 30 for the signing key" \
    bash -c "'$CTL' ssh-key create signing --reuse 30 > '$T/signing.pub'"
check "ssh-key import is refused with a reason" \
    bash -c "out=\$('$CTL' ssh-key import 2>&1); [ \$? = 2 ] && grep -q 'importing keys is refused.*copies elsewhere' <<<\"\$out\""
check "ssh-key list --json names both keys with fingerprints" \
    bash -c "'$CTL' --json ssh-key list | python3 -c 'import json,sys; k=json.load(sys.stdin)[\"keys\"]; assert [x[\"name\"] for x in k]==[\"login\",\"signing\"] and all(x[\"fingerprint\"].startswith(\"SHA256:\") for x in k)'"

if [ -n "${EXPECT_KEY_STORE:-}" ]; then
    check "both keys live in the key store $EXPECT_KEY_STORE" \
        bash -c "'$CTL' --json ssh-key list | python3 -c 'import json,sys; assert {x[\"keyStore\"] for x in json.load(sys.stdin)[\"keys\"]}=={\"$EXPECT_KEY_STORE\"}'"
fi

# The agent, with HOME where the known_hosts file is.
export SSH_AUTH_SOCK="$T/agent/agent.sock"
HOME="$T/home" "$CTL" ssh-agent --listen "$SSH_AUTH_SOCK" >"$T/agent.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$SSH_AUTH_SOCK" ] && break; sleep 0.1; done
check "the agent's socket is mode 0600" test "$(stat -c %a "$SSH_AUTH_SOCK")" = 600
check "ssh-add -L lists the keys" \
    bash -c "ssh-add -L > '$T/listed' && grep -qF \"\$(cut -d' ' -f2 '$T/login.pub')\" '$T/listed' && [ \$(wc -l < '$T/listed') = 2 ]"
check "ssh-add of a file key is refused" bash -c "ssh-keygen -q -t ed25519 -N '' -f '$T/filekey' && ! ssh-add '$T/filekey' 2>/dev/null"
# Socket activation, as localauthd-ssh-agent.socket starts it: the agent takes the fd (sd_listen_fds).
if command -v systemd-socket-activate >/dev/null; then
    systemd-socket-activate -E LOCALAUTHD_SOCKET -l "$T/agent/activated.sock" "$CTL" ssh-agent >"$T/activated.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do [ -S "$T/agent/activated.sock" ] && break; sleep 0.1; done
    check "a socket-activated agent lists the keys" \
        bash -c "[ \$(SSH_AUTH_SOCK='$T/agent/activated.sock' ssh-add -L | wc -l) = 2 ]"
fi
mkdir -m 0700 "$T/open"
check "--listen in a directory others can enter is refused" \
    bash -c "chmod 0755 '$T/open' && ! '$CTL' ssh-agent --listen '$T/open/a.sock' 2>'$T/open.err' && grep -q 'mode 0700' '$T/open.err'"

# Another user cannot use the socket.
useradd -M -d "$T/home-$TESTUSER" -s /bin/sh -p '*' "$TESTUSER" || die "useradd failed"
check "another user cannot use the agent's socket" \
    bash -c "! setpriv --reuid='$TESTUSER' --regid='$TESTUSER' --clear-groups env SSH_AUTH_SOCK='$SSH_AUTH_SOCK' ssh-add -L >/dev/null 2>&1"

# A private sshd on 127.0.0.1 that lets the test user in with the login key only.
PORT=$((20000 + $$ % 20000))
ssh-keygen -q -t ed25519 -N '' -f "$T/host_key"
mkdir -m 0755 "$T/authorized"
cp "$T/login.pub" "$T/authorized/$TESTUSER"
chmod 0644 "$T/authorized/$TESTUSER"
mkdir -p /run/sshd
cat >"$T/sshd_config" <<CONFIG
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized/%u
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AllowUsers $TESTUSER
CONFIG
/usr/sbin/sshd -f "$T/sshd_config" -E "$T/sshd.log" || die "sshd did not start: $(cat "$T/sshd.log")"
for _ in $(seq 50); do [ -f "$T/sshd.pid" ] && break; sleep 0.1; done
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$T/host_key.pub")" >"$T/home/.ssh/known_hosts"
HOST_FINGERPRINT=$(ssh-keygen -l -f "$T/host_key.pub" | cut -d' ' -f2)
run_ssh() {
    timeout 30 ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
        -o UserKnownHostsFile="$T/home/.ssh/known_hosts" -o IdentityAgent="$SSH_AUTH_SOCK" \
        -o IdentitiesOnly=yes -o IdentityFile="$T/login.pub" -p "$PORT" "$TESTUSER@127.0.0.1" "$@"
}

"$CTL" sim face MATCH >/dev/null
check "ssh logs in after a scripted match" bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER=$TESTUSER SSH_AUTH_SOCK='$SSH_AUTH_SOCK' run_ssh echo logged-in 2>'$T/ssh1.err' | grep -qx logged-in"
check "the prompt named the key's fingerprint, and the user's known_hosts name only as unverified" \
    grep -qF "ssh: sign in to $HOST_FINGERPRINT as $TESTUSER (known_hosts calls it [127.0.0.1]:$PORT, unverified)" "$T/prompts"
# With the host in the system's known hosts (root's file), the prompt names it as fact.
echo "verified-host.internal $(cut -d' ' -f1,2 "$T/host_key.pub")" >"$T/ssh_known_hosts"
chmod 0644 "$T/ssh_known_hosts"
"$CTL" sim face MATCH >/dev/null
check "ssh logs in again after a scripted match" bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER=$TESTUSER SSH_AUTH_SOCK='$SSH_AUTH_SOCK' run_ssh true 2>>'$T/ssh1.err'"
check "the prompt named the host from the system's known hosts; the user's differing name as a warning" \
    grep -qF "ssh: sign in to verified-host.internal ($HOST_FINGERPRINT) as $TESTUSER; warning: the caller calls it [127.0.0.1]:$PORT" "$T/prompts"
check "the journal entry has the key and host fingerprints" \
    bash -c "grep 'SSH key login' '$T/daemon.log' | grep -q 'signed.*host key $HOST_FINGERPRINT'"

# Issue 28, row 8: an ssh that goes away while its signature waits for the person ends the
# daemon's evaluation at once (the agent cancels it), so it never holds the sensor.
evaluating() { "$CTL" --json status | python3 -c 'import json, sys; print(json.load(sys.stdin)["evaluating"])'; }
"$CTL" sim face --replace DEFAULT WAIT >/dev/null
timeout 30 ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
    -o UserKnownHostsFile="$T/home/.ssh/known_hosts" -o IdentityAgent="$SSH_AUTH_SOCK" \
    -o IdentitiesOnly=yes -o IdentityFile="$T/login.pub" -p "$PORT" "$TESTUSER@127.0.0.1" true 2>/dev/null &
waiting_ssh=$!
for _ in $(seq 200); do [ "$(evaluating)" = 1 ] && break; sleep 0.05; done
sleep 1.5
check "a signature waits for the person while its ssh waits (control)" test "$(evaluating)" = 1
kill "$waiting_ssh" 2>/dev/null; wait "$waiting_ssh" 2>/dev/null
ended=no
for _ in $(seq 20); do [ "$(evaluating)" = 0 ] && { ended=yes; break; }; sleep 0.05; done
check "...and its evaluation ends within a second of the ssh going away" test "$ended" = yes

# Face ID stops after two no-matches and waits for the person's choice (a prompt agent is
# registered): the person cancels.
"$CTL" sim face NOMATCH NOMATCH CANCEL >/dev/null
check "ssh is refused after no-matches and Cancel (agent refused operation)" \
    bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER=$TESTUSER SSH_AUTH_SOCK='$SSH_AUTH_SOCK' run_ssh true 2>'$T/ssh2.err'; [ \$? != 0 ] && grep -q 'agent refused operation' '$T/ssh2.err'"
check "the refusal is journaled with its outcome" grep -q "SSH key login.*userCancel" "$T/daemon.log"

# Issue 28, row 7: remote sudo through `ssh -A` and pam_ssh_agent_auth, as a server's sudo asks it:
# an ssh -A session to the private sshd; in it, the forwarded agent socket; pamtester as root (as
# sudo runs its PAM stack) for the session's user, with pam_ssh_agent_auth under pam_wrapper (a
# private service directory: the host's /etc/pam.d is untouched). The local prompt names the
# server, sudo and the command, as the server's own words, with the host key's fingerprint.
SUDO_KEYS=$(mktemp -d /run/localauthd-sudo-keys.XXXXXX)  # pam_ssh_agent_auth wants root's path
cp "$T/login.pub" "$SUDO_KEYS/authorized_keys"
mkdir -p "$T/pam.d"
echo "auth required pam_ssh_agent_auth.so file=$SUDO_KEYS/authorized_keys" >"$T/pam.d/sudo"
remote_session() {  # starts `ssh -A` that prints its forwarded socket and stays; sets SESSION
    timeout 60 ssh -A -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
        -o UserKnownHostsFile="$T/home/.ssh/known_hosts" -o IdentityAgent="$SSH_AUTH_SOCK" \
        -o IdentitiesOnly=yes -o IdentityFile="$T/login.pub" -p "$PORT" "$TESTUSER@127.0.0.1" \
        'echo "$SSH_AUTH_SOCK"; exec sleep 50' >"$T/session.out" 2>"$T/session.err" &
    SESSION=$!
    for _ in $(seq 200); do [ -s "$T/session.out" ] && break; sleep 0.05; done
    FORWARDED=$(head -n 1 "$T/session.out")
}
remote_sudo() {  # pamtester as root for $TESTUSER's forwarded agent, as sudo's PAM stack runs
    (cd "$T" && env LD_PRELOAD="/usr/lib/$(gcc -print-multiarch)/libpam_wrapper.so" PAM_WRAPPER=1 \
        PAM_WRAPPER_SERVICE_DIR="$T/pam.d" SSH_AUTH_SOCK="$FORWARDED" \
        timeout 30 pamtester -I ruser="$TESTUSER" -v sudo root authenticate)
}
"$CTL" sim face MATCH MATCH >/dev/null  # the ssh -A login, then the remote sudo
remote_session
check "ssh -A: the session has a forwarded agent socket ($FORWARDED)" test -S "$FORWARDED"
check "remote sudo: pam_ssh_agent_auth authenticates through the forwarded agent and the local match" \
    bash -c "$(declare -f remote_sudo); T='$T' FORWARDED='$FORWARDED' TESTUSER=$TESTUSER remote_sudo >'$T/remote-sudo.out' 2>&1; grep -q 'successfully authenticated' '$T/remote-sudo.out'"
check "...and the local prompt named sudo, the server, the command and its host key, as the server's words" \
    grep -qxF "sudo on $(hostname) as root: pamtester -I ruser=$TESTUSER -v sudo root authenticate — the server's own words (host key $HOST_FINGERPRINT); for $TESTUSER in $T" "$T/prompts"
# Issue 28, row 4, with real OpenSSH: a user name with a long style (sshd splits user:style at the
# colon) is a login, worded "sign in", and refused on a connection bound for forwarding.
LONG_STYLE="$TESTUSER:$(printf 'x%.0s' $(seq 1100))"
"$CTL" sim face MATCH >/dev/null
check "ssh -l 'user:<1,100 x>' through the agent logs in after a match" \
    bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER='$LONG_STYLE' SSH_AUTH_SOCK='$SSH_AUTH_SOCK' run_ssh true 2>>'$T/ssh1.err'"
check "...worded as a login ('sign in ... as user:xxx…'), never 'sign data'" \
    grep -qF "ssh: sign in to verified-host.internal ($HOST_FINGERPRINT) as $TESTUSER:xxxxxxxxxx" "$T/prompts"
# On the far end of ssh -A, malware of the user asks the forwarded agent directly (no binding of
# its own, so the forwarding binding is in force) to sign a real-shaped login for the long style:
# refused as a login on a forwarding-bound connection, never signed as "data".
RAW_LOGIN=$(mktemp /tmp/localauthd-raw-login.XXXXXX.py)
chmod 0644 "$RAW_LOGIN"
cat >"$RAW_LOGIN" <<'PY'
import os, socket, struct, sys
def s(b): return struct.pack(">I", len(b)) + b
sock = socket.socket(socket.AF_UNIX); sock.connect(os.environ["SSH_AUTH_SOCK"])
def ask(body):
    sock.sendall(struct.pack(">I", len(body)) + body)
    n = struct.unpack(">I", sock.recv(4))[0]; data = b""
    while len(data) < n: data += sock.recv(n - len(data))
    return data
ids = ask(b"\x0b")
blob_len = struct.unpack(">I", ids[5:9])[0]; blob = ids[9:9 + blob_len]
login = (s(os.urandom(32)) + b"\x32" + s(sys.argv[1].encode()) + s(b"ssh-connection") + s(b"publickey")
         + b"\x01" + s(b"ecdsa-sha2-nistp256") + s(blob))
print("sign-answer=%d" % ask(b"\x0d" + s(blob) + s(login) + struct.pack(">I", 0))[0])
PY
"$CTL" sim face MATCH >/dev/null  # the ssh -A login
nested=$(timeout 60 ssh -A -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
    -o UserKnownHostsFile="$T/home/.ssh/known_hosts" -o IdentityAgent="$SSH_AUTH_SOCK" \
    -o IdentitiesOnly=yes -o IdentityFile="$T/login.pub" -p "$PORT" "$TESTUSER@127.0.0.1" \
    "python3 $RAW_LOGIN '$LONG_STYLE'" 2>>"$T/session.err")
echo "$nested" >"$T/nested.out"; rm -f "$RAW_LOGIN"
check "on the far end of ssh -A, a long-style login is refused as a login (SSH_AGENT_FAILURE), never signed as data" \
    bash -c 'grep -qx "sign-answer=5" <<<"$1" && grep -q "refused a signature with login: the request is for another session" "$2"' - "$nested" "$T/agent.log"
"$CTL" sim face --replace DEFAULT WAIT >/dev/null

# A closed ssh session ends the waiting evaluation within a second.
"$CTL" sim face --replace DEFAULT WAIT >/dev/null
remote_sudo >/dev/null 2>&1 &
waiting_sudo=$!
for _ in $(seq 200); do [ "$(evaluating)" = 1 ] && break; sleep 0.05; done
check "remote sudo waits for the local person while the session lasts (control)" test "$(evaluating)" = 1
kill "$SESSION" 2>/dev/null; wait "$SESSION" 2>/dev/null
ended=no
for _ in $(seq 20); do [ "$(evaluating)" = 0 ] && { ended=yes; break; }; sleep 0.05; done
check "...and a closed ssh session ends the waiting evaluation within a second" test "$ended" = yes
wait "$waiting_sudo" 2>/dev/null
rm -rf "$SUDO_KEYS"

# ssh-keygen -Y sign twice within the signing key's reuse window: one capture.
echo "a file" >"$T/file"
"$CTL" sim face MATCH >/dev/null
check "ssh-keygen -Y sign (first) signs after one match" \
    timeout 20 ssh-keygen -Y sign -n file -f "$T/signing.pub" "$T/file"
rm -f "$T/file.sig"
check "ssh-keygen -Y sign (second, within the reuse window) needs no capture" \
    timeout 20 ssh-keygen -Y sign -n file -f "$T/signing.pub" "$T/file"
echo "tester@example.org $(cut -d' ' -f1,2 "$T/signing.pub")" >"$T/allowed_signers"
check "the signature verifies" \
    bash -c "ssh-keygen -Y verify -f '$T/allowed_signers' -I tester@example.org -n file -s '$T/file.sig' < '$T/file'"
check "the prompt named the namespace" grep -qx "git/ssh-keygen: sign a file (namespace file)" "$T/prompts"
check "the login key has no reuse window: a second login needs a capture" \
    bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER=$TESTUSER SSH_AUTH_SOCK='$SSH_AUTH_SOCK'; ( sleep 3; '$CTL' sim face CANCEL >/dev/null ) & run_ssh true 2>/dev/null; [ \$? != 0 ]"

# git commit -S with gpg.format=ssh.
git init -q "$T/repo"
git -C "$T/repo" config user.name Tester
git -C "$T/repo" config user.email tester@example.org
git -C "$T/repo" config gpg.format ssh
git -C "$T/repo" config user.signingkey "key::$(cut -d' ' -f1,2 "$T/signing.pub")"
git -C "$T/repo" config gpg.ssh.allowedSignersFile "$T/allowed_signers"
"$CTL" sim face --replace DEFAULT WAIT >/dev/null
check "git commit -S signs (within the reuse window)" \
    timeout 30 git -C "$T/repo" commit -q -S --allow-empty -m signed
check "git verify-commit verifies it with the allowed signers file" \
    bash -c "git -C '$T/repo' verify-commit HEAD 2>&1 | grep -q 'Good \"git\" signature for tester@example.org'"

# The state directory holds no private key in the clear, and no key file at all.
# The device key: device.key, or device.key.tpm (sealed by the TPM) with keys in the TPM.
check "the state directory holds only the store and the device key" \
    bash -c "[ \"\$(ls '$T/state' | grep -v '^rights.sqlite3' | grep -v '^device.key\$' | grep -v '^device.key.tpm\$')\" = '' ]"
check "no PEM or OpenSSH private key in the state directory" \
    bash -c "! grep -rqa -e 'PRIVATE KEY' -e 'openssh-key-v1' '$T/state'"
check "ssh-key list records the last use" \
    bash -c "'$CTL' ssh-key list | grep '^signing' | grep -qv never"
check "ssh-key delete removes a key from the agent" \
    bash -c "'$CTL' ssh-key delete login >/dev/null && [ \$(ssh-add -L | wc -l) = 1 ]"
check "the agent survived everything" bash -c "SSH_AUTH_SOCK='$SSH_AUTH_SOCK' ssh-add -L >/dev/null"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
