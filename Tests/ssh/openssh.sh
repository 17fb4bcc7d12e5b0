#!/bin/bash
# localauthctl ssh-agent with real OpenSSH and git, against the project's own daemon (simulated
# sensors) and a private sshd on 127.0.0.1 (its own config, host key, port and
# AuthorizedKeysFile in a temp dir; UsePAM no; a test user made with useradd, password field *).
# Nothing of the host's ssh configuration is read or changed. Needs root (sshd, useradd).
#
# Environment: BINDIR (the localauthd and localauthctl binaries). Prints one line per check and
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
        for log in daemon.log agent.log sshd.log ssh1.err ssh2.err prompts; do
            [ -f "$T/$log" ] && { echo "--- $log"; tail -20 "$T/$log"; }
        done
    fi
    [ -n "${KEEP_TEMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT

# The daemon, with the demo's simulated face (identity demo-user, uid of the runner) and passcode.
mkdir -m 0700 "$T/state" "$T/agent" "$T/home" "$T/home/.ssh"
export LOCALAUTHD_SOCKET="$T/daemon.sock"
"$BINDIR/localauthd" --demo --stderr --state-dir "$T/state" --socket "$LOCALAUTHD_SOCKET" \
    >"$T/daemon.log" 2>&1 &
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
check "the prompt named the host and its key's fingerprint" \
    grep -qF "ssh: sign in to [127.0.0.1]:$PORT ($HOST_FINGERPRINT) as $TESTUSER" "$T/prompts"
check "the journal entry has the key and host fingerprints" \
    bash -c "grep 'SSH key login' '$T/daemon.log' | grep -q 'signed.*host key $HOST_FINGERPRINT'"

# Face ID stops after two no-matches and waits for the person's choice (a prompt agent is
# registered): the person cancels.
"$CTL" sim face NOMATCH NOMATCH CANCEL >/dev/null
check "ssh is refused after no-matches and Cancel (agent refused operation)" \
    bash -c "$(declare -f run_ssh); T='$T' PORT=$PORT TESTUSER=$TESTUSER SSH_AUTH_SOCK='$SSH_AUTH_SOCK' run_ssh true 2>'$T/ssh2.err'; [ \$? != 0 ] && grep -q 'agent refused operation' '$T/ssh2.err'"
check "the refusal is journaled with its outcome" grep -q "SSH key login.*userCancel" "$T/daemon.log"

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
check "the state directory holds only the store and the device key" \
    bash -c "[ \"\$(ls '$T/state' | grep -v '^rights.sqlite3' | grep -v '^device.key\$')\" = '' ]"
check "no PEM or OpenSSH private key in the state directory" \
    bash -c "! grep -rqa -e 'PRIVATE KEY' -e 'openssh-key-v1' '$T/state'"
check "ssh-key list records the last use" \
    bash -c "'$CTL' ssh-key list | grep '^signing' | grep -qv never"
check "ssh-key delete removes a key from the agent" \
    bash -c "'$CTL' ssh-key delete login >/dev/null && [ \$(ssh-add -L | wc -l) = 1 ]"
check "the agent survived everything" bash -c "SSH_AUTH_SOCK='$SSH_AUTH_SOCK' ssh-add -L >/dev/null"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
