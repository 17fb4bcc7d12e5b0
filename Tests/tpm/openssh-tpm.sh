#!/bin/bash
# Tests/ssh/openssh.sh with the daemon's keys in swtpm ([Keys] Store=tpm): the same real OpenSSH
# checks (ssh into a private sshd, ssh-keygen -Y sign, git commit -S through localauthctl
# ssh-agent), every signature made by the TPM. Environment: BINDIR. Needs root, swtpm.
set -u
BINDIR=${BINDIR:?set BINDIR to the directory of localauthd and localauthctl}
HERE=$(cd "$(dirname "$0")" && pwd)
command -v swtpm >/dev/null || { echo "openssh-tpm.sh: swtpm is missing (make test-deps)" >&2; exit 2; }
T=$(mktemp -d /tmp/localauthd-ssh-tpm.XXXXXX)
SWTPM=
trap '[ -n "$SWTPM" ] && kill -9 "$SWTPM" 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 20); do
    PORT=$(( (RANDOM % 20000 + 30000) & ~1 ))
    swtpm socket --tpm2 --server type=tcp,port=$PORT,bindaddr=127.0.0.1 \
        --ctrl type=tcp,port=$((PORT + 1)),bindaddr=127.0.0.1 \
        --flags not-need-init,startup-clear --tpmstate dir="$T" >"$T/swtpm.log" 2>&1 &
    SWTPM=$!
    for _ in $(seq 50); do
        kill -0 "$SWTPM" 2>/dev/null || break
        (exec 3<>/dev/tcp/127.0.0.1/$((PORT + 1))) 2>/dev/null && break 2
        sleep 0.1
    done
    kill "$SWTPM" 2>/dev/null
    SWTPM=
done
[ -n "$SWTPM" ] || { echo "openssh-tpm.sh: swtpm did not start" >&2; exit 2; }
export TSS2_LOG=all+NONE
EXTRA_CONFIG="[Keys]\nStore=tpm\nTCTI=swtpm:host=127.0.0.1,port=$PORT\n" EXPECT_KEY_STORE=tpm \
    "$HERE/../ssh/openssh.sh"
