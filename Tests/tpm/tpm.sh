#!/bin/bash
# Keys in the TPM (issue 32) against the project's daemon and swtpm on 127.0.0.1: Store=tpm with
# no TPM, SSH keys and persisted-right keys made and used in the TPM, a restart, the device key
# of a file store moved into the TPM (localauthd --migrate-device-key), 1,000 signatures leaving
# no transient object, a TPM in dictionary-attack lockout and a full one, the state directory next
# to a fresh TPM, the TPM going away, and the hostile case: root
# with the state directory and the TPM (tpm2-tools), the daemon stopped, cannot sign.
#
# Environment: BINDIR (localauthd and localauthctl). Prints one line per check and
# "N passed, N failed"; exits non-zero on any failure. Needs swtpm, tpm2-tools, python3.
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
die() { echo "tpm.sh: $*" >&2; exit 2; }
for tool in swtpm tpm2_createprimary tpm2_create tpm2_load tpm2_sign tpm2_getcap tpm2_unseal \
    tpm2_dictionarylockout tpm2_flushcontext python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (make test-deps)"
done
python3 -c 'import cryptography' 2>/dev/null || die "python3-cryptography is missing (make test-deps)"
T=$(mktemp -d /tmp/localauthd-tpm.XXXXXX)
PIDS=()
DAEMON=
cleanup() {
    # start_swtpm runs in a subshell (read < <(...)): its pids come back through swtpm.pids.
    [ -f "$T/swtpm.pids" ] && mapfile -t -O "${#PIDS[@]}" PIDS <"$T/swtpm.pids"
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    sleep 0.2
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; done
    if [ "$FAILED" != 0 ]; then
        for log in "$T"/*.log; do [ -f "$log" ] && { echo "--- $log"; tail -15 "$log"; }; done
    fi
    [ -n "${KEEP_TEMP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
export TSS2_LOG=all+NONE

# swtpm on two free ports (commands, control = +1) with its state in $T/NAME.
start_swtpm() {
    local name=$1 port
    mkdir -p "$T/$name"
    for _ in $(seq 20); do
        port=$(( (RANDOM % 20000 + 30000) & ~1 ))
        swtpm socket --tpm2 --server type=tcp,port=$port,bindaddr=127.0.0.1 \
            --ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
            --flags not-need-init,startup-clear --tpmstate dir="$T/$name" >"$T/$name-swtpm.log" 2>&1 &
        local pid=$!
        for _ in $(seq 50); do
            kill -0 $pid 2>/dev/null || break
            (exec 3<>/dev/tcp/127.0.0.1/$((port + 1))) 2>/dev/null && { echo $pid >>"$T/swtpm.pids"; echo "$port $pid"; return; }
            sleep 0.1
        done
        kill $pid 2>/dev/null
    done
    die "swtpm did not start"
}
tpm_conf() { # PORT: the configuration of a daemon with its keys in the swtpm on PORT
    printf '[Keys]\nStore=tpm\nTCTI=swtpm:host=127.0.0.1,port=%s\n' "$1" >"$T/conf-$1"
    echo "$T/conf-$1"
}
printf '[Keys]\nStore=file\n' >"$T/conf-file"
start_daemon() { # STATE PORT|file
    local conf=$T/conf-file
    [ "$2" = file ] || conf=$(tpm_conf "$2")
    rm -f "$T/daemon.sock"
    "$BINDIR/localauthd" --demo --config "$conf" --stderr --state-dir "$1" \
        --socket "$T/daemon.sock" >>"$T/daemon.log" 2>&1 &
    DAEMON=$!
    PIDS+=($DAEMON)
    for _ in $(seq 100); do [ -S "$T/daemon.sock" ] && return 0; sleep 0.1; done
    return 1
}
stop_daemon() { kill "$DAEMON"; wait "$DAEMON" 2>/dev/null; }
rpc() { python3 "$HERE/rpc.py" "$T/daemon.sock" "$@"; }
export LOCALAUTHD_SOCKET="$T/daemon.sock"
CTL="$BINDIR/localauthctl"

# Store=tpm with no TPM: a start-up error naming the TCTI.
printf '[Keys]\nStore=tpm\nTCTI=swtpm:host=127.0.0.1,port=9\n' >"$T/no-tpm.conf"
mkdir -m 0700 "$T/state-none"
check "Store=tpm with no TPM is a start-up error naming the TCTI" bash -c \
    "! timeout 20 '$BINDIR/localauthd' --config '$T/no-tpm.conf' --stderr --state-dir '$T/state-none' --socket '$T/none.sock' >'$T/no-tpm.log' 2>&1 && grep -q 'no TPM answers at TCTI=swtpm:host=127.0.0.1,port=9' '$T/no-tpm.log'"

read -r PORT SWTPM < <(start_swtpm tpm-a)
export TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$PORT"
mkdir -m 0700 "$T/state"
start_daemon "$T/state" "$PORT" || die "the daemon did not start: $(cat "$T/daemon.log")"
check "the start entry names the key store" grep -q "keys: tpm (swtpm:host=127.0.0.1,port=$PORT, device key sealed by the TPM)" "$T/daemon.log"
check "status says the keys live in the TPM" bash -c "'$CTL' status | grep -q 'Keys: tpm (swtpm:host=127.0.0.1,port=$PORT'"
check "status --json says so" bash -c "'$CTL' --json status | python3 -c 'import json,sys; k=json.load(sys.stdin)[\"keyStore\"]; assert k[\"store\"]==\"tpm\" and k[\"deviceKey\"]==\"tpm\", k'"
check "no device.key, a device.key.tpm" bash -c "[ ! -e '$T/state/device.key' ] && [ -s '$T/state/device.key.tpm' ]"
"$CTL" ssh-key create laptop --reuse 3600 >"$T/laptop.pub" 2>>"$T/ctl.log"
check "ssh-key list says the key is TPM-resident" bash -c "'$CTL' ssh-key list | grep -q '^laptop .*tpm-resident'"
check "ssh-key list --json says keyStore tpm" bash -c "'$CTL' --json ssh-key list | grep -q '\"keyStore\":\"tpm\"'"
"$CTL" sim face MATCH >/dev/null
check "1,000 signatures in a row by the TPM" bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' sign-many laptop 1000 2>'$T/sign-many.log')\" = 1000 ]"
check "they leave no transient object in the TPM" bash -c "[ -z \"\$(tpm2_getcap handles-transient)\" ]"

# A persisted right's key, made in the TPM: it signs, decrypts ECIES made for its public key and
# agrees on an ECDH secret, all by the TPM; rights show says tpm-resident.
"$CTL" sim face MATCH >/dev/null
check "a persisted right's key is made in the TPM" bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' right-save wallet)\" = tpm ]"
"$CTL" sim face MATCH >/dev/null
check "it signs (verified), decrypts ECIES made for it and exchanges keys, by the TPM" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' right-use wallet)\" = 'ok tpm' ]"
"$CTL" sim face MATCH >/dev/null
"$CTL" rights save cli-right --reason "save a right" >/dev/null 2>>"$T/ctl.log"
"$CTL" sim face MATCH >/dev/null
check "rights show says the right's key is tpm-resident" bash -c \
    "'$CTL' rights show cli-right --reason 'show it' | grep -q '^  key:   tpm-resident'"
check "they leave no transient object in the TPM" bash -c "[ -z \"\$(tpm2_getcap handles-transient)\" ]"

# A TPM in dictionary-attack lockout (at most one wrong auth value, then one given with tpm2-tools
# to a DA-protected object of their own): every key use is keyUnavailable saying so, the daemon
# serves the rest, and once the lockout is cleared the keys sign again.
# (tpm2-tools leave every context they load in a TPM without a resource manager: flush each time.)
flush() { tpm2_flushcontext -t >/dev/null 2>&1; }
flush
tpm2_dictionarylockout -Q -s -n 1 -t 3600 -l 3600
tpm2_createprimary -Q -C o -c "$T/da-primary.ctx" && flush
echo "bait" | tpm2_create -Q -C "$T/da-primary.ctx" -p right -i - -u "$T/da.pub" -r "$T/da.priv" && flush
tpm2_load -Q -C "$T/da-primary.ctx" -u "$T/da.pub" -r "$T/da.priv" -c "$T/da.ctx" && flush
tpm2_unseal -c "$T/da.ctx" -p wrong >/dev/null 2>&1
flush
check "the TPM is in dictionary-attack lockout" bash -c "tpm2_getcap properties-variable | grep -q 'inLockout: *1'"
"$CTL" sim face MATCH >/dev/null
OUT=$(rpc sshKey.sign '{"name":"laptop","data":"aGk="}')
check "in lockout an SSH signature answers keyUnavailable, dictionary-attack lockout" bash -c \
    "grep -q keyUnavailable <<<'$OUT' && grep -q 'dictionary-attack lockout' <<<'$OUT'"
"$CTL" sim face MATCH >/dev/null
OUT=$(python3 "$HERE/rpc.py" "$T/daemon.sock" right-use wallet)
check "and so does a persisted right's key" bash -c "grep -q 'dictionary-attack lockout' <<<'$OUT'"
check "the daemon serves everything else in lockout" bash -c "'$CTL' status >/dev/null && '$CTL' --json ssh-key list | grep -q laptop"
tpm2_dictionarylockout -Q -c
tpm2_dictionarylockout -Q -s -n 32 -t 600 -l 600
"$CTL" sim face MATCH >/dev/null
check "the lockout cleared (tpm2_dictionarylockout -c), the key signs again" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' sign-many laptop 1)\" = 1 ]"

# A full TPM (no resource manager: three objects left loaded by tpm2-tools fill its slots): a
# clear keyUnavailable, the rest served, and the key signs again once they are flushed.
for n in 1 2 3; do tpm2_createprimary -Q -C o -c "$T/fill-$n.ctx" 2>/dev/null; done
check "tpm2-tools filled the TPM's object slots" bash -c "[ \$(tpm2_getcap handles-transient | grep -c 0x80) -ge 3 ]"
"$CTL" sim face MATCH >/dev/null
OUT=$(rpc sshKey.sign '{"name":"laptop","data":"aGk="}')
check "a full TPM: a signature answers keyUnavailable, no room for another object" bash -c \
    "grep -q keyUnavailable <<<'$OUT' && grep -q 'no room for another object' <<<'$OUT'"
check "the daemon serves everything else with the TPM full" bash -c "'$CTL' status >/dev/null"
flush
"$CTL" sim face MATCH >/dev/null
check "flushed, the key signs again" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' sign-many laptop 1)\" = 1 ]"

# A restart keeps every key.
stop_daemon
start_daemon "$T/state" "$PORT" || die "the daemon did not restart"
check "a restart keeps the key" bash -c "'$CTL' ssh-key list | grep -q '^laptop .*tpm-resident'"
"$CTL" sim face MATCH >/dev/null
check "the key signs after the restart" bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' sign-many laptop 1)\" = 1 ]"
"$CTL" sim face MATCH >/dev/null
check "the persisted right's key signs, decrypts and exchanges after the restart" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' right-use wallet)\" = 'ok tpm' ]"

# The TPM goes away (swtpm killed): a clear error, and the daemon serves the rest.
kill -9 "$SWTPM"
sleep 0.3
OUT=$(rpc sshKey.sign '{"name":"laptop","data":"aGk="}')
check "the TPM gone: a signature answers keyUnavailable, the TPM does not answer" bash -c \
    "grep -q keyUnavailable <<<'$OUT' && grep -q 'does not answer' <<<'$OUT'"
check "the daemon serves everything else" bash -c "'$CTL' status >/dev/null"
stop_daemon

# The state directory copied next to a fresh TPM: every key use is keyUnavailable.
read -r PORT2 _ < <(start_swtpm tpm-b)
cp -a "$T/state" "$T/state-copy"
start_daemon "$T/state-copy" "$PORT2" || die "the daemon did not start on the copy"
OUT=$(rpc sshKey.sign '{"name":"laptop","data":"aGk="}')
check "next to another TPM a signature answers keyUnavailable, sealed to another TPM" bash -c \
    "grep -q 'keyUnavailable' <<<'$OUT' && grep -q 'sealed to another TPM' <<<'$OUT'"
OUT=$(rpc sshKey.create '{"name":"second"}')
check "and so does making a key" bash -c "grep -q 'keyUnavailable' <<<'$OUT'"
"$CTL" sim face MATCH >/dev/null
OUT=$(rpc right-use wallet)
check "and a persisted right's key, sealed to another TPM" bash -c \
    "grep -q 'keyUnavailable' <<<'$OUT' && grep -q 'sealed to another TPM' <<<'$OUT'"
check "status says why keys are unavailable" bash -c "'$CTL' status | grep -q 'unavailable: .*sealed to another TPM'"
stop_daemon

# Moving the device key into the TPM: a store made with Store=file (an SSH key and a persisted
# right sealed under device.key), the daemon stopped, `localauthd --migrate-device-key` (root
# only, refused with Store=file); then device.key is gone and both keys work under Store=tpm.
read -r PORT3 _ < <(start_swtpm tpm-m)
mkdir -m 0700 "$T/state-m"
start_daemon "$T/state-m" file || die "the file-key daemon did not start"
"$CTL" ssh-key create old-key --reuse 3600 >/dev/null 2>>"$T/ctl.log"
"$CTL" sim face MATCH >/dev/null
check "a store made with Store=file seals a right's key in it" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' right-save old-right)\" = file ]"
stop_daemon
MIGRATE=("$BINDIR/localauthd" --migrate-device-key --state-dir "$T/state-m")
check "--migrate-device-key is refused to anyone but root" bash -c \
    "! setpriv --reuid=65534 --regid=65534 --clear-groups $(printf '%q ' "${MIGRATE[@]}") --config '$(tpm_conf "$PORT3")' >'$T/migrate-nobody.log' 2>&1 && grep -q 'root only' '$T/migrate-nobody.log'"
check "and with [Keys] Store=file" bash -c \
    "! $(printf '%q ' "${MIGRATE[@]}") --config '$T/conf-file' >'$T/migrate-file.log' 2>&1 && grep -q 'Store=file' '$T/migrate-file.log' && [ -e '$T/state-m/device.key' ]"
check "--migrate-device-key seals the device key by the TPM" bash -c \
    "$(printf '%q ' "${MIGRATE[@]}") --config '$(tpm_conf "$PORT3")' >'$T/migrate.log' 2>&1 && grep -q 'sealed by the TPM' '$T/migrate.log'"
check "device.key is gone, device.key.tpm is there" bash -c \
    "[ ! -e '$T/state-m/device.key' ] && [ -s '$T/state-m/device.key.tpm' ] && [ \$(stat -c %a '$T/state-m/device.key.tpm') = 600 ]"
check "run again, it has nothing to do" bash -c \
    "$(printf '%q ' "${MIGRATE[@]}") --config '$(tpm_conf "$PORT3")' | grep -q 'already sealed'"
start_daemon "$T/state-m" "$PORT3" || die "the daemon did not start after the migration"
check "status says the device key is sealed by the TPM" bash -c \
    "'$CTL' status | grep -q 'Keys: tpm (swtpm:host=127.0.0.1,port=$PORT3, device key sealed by the TPM)'"
check "the SSH key made before is listed file-sealed" bash -c "'$CTL' ssh-key list | grep -q '^old-key .*file-sealed'"
"$CTL" sim face MATCH >/dev/null
check "and signs" bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' sign-many old-key 1)\" = 1 ]"
"$CTL" sim face MATCH >/dev/null
check "the right saved before signs, decrypts and exchanges (file-sealed)" \
    bash -c "[ \"\$(python3 '$HERE/rpc.py' '$T/daemon.sock' right-use old-right)\" = 'ok file' ]"
stop_daemon

# Hostile: the daemon stopped, root with the state directory and the TPM (tpm2-tools, the TCG
# SRK) cannot sign with the user's key.
read -r PORT _ < <(start_swtpm tpm-a)
export TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$PORT"
python3 - "$T" <<'PY'
import sqlite3, struct, sys
t = sys.argv[1]
blob = sqlite3.connect(t + "/state/rights.sqlite3").execute(
    "SELECT tpm_key FROM ssh_keys WHERE name = 'laptop'").fetchone()[0]
def parts(b):
    n = struct.unpack(">H", b[:2])[0]
    m = struct.unpack(">H", b[2 + n:4 + n])[0]
    return b[2:2 + n], b[4 + n:4 + n + m]
pub, priv = parts(blob)
open(t + "/key.pub", "wb").write(pub)
open(t + "/key.priv", "wb").write(priv)
pub, priv = parts(open(t + "/state/device.key.tpm", "rb").read())
open(t + "/dk.pub", "wb").write(pub)
open(t + "/dk.priv", "wb").write(priv)
PY
# tpm2-tools leave what they load in a TPM without a resource manager: flush after each step.
srk() {
    tpm2_flushcontext -t >/dev/null 2>&1
    head -c 64 /dev/zero | tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb \
        -a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt' -u - -c "$T/srk.ctx" &&
        tpm2_flushcontext -t
}
check "root loads the key's blobs under the TCG SRK with tpm2-tools" bash -c \
    "$(declare -f srk); T='$T' srk && tpm2_load -Q -C '$T/srk.ctx' -u '$T/key.pub' -r '$T/key.priv' -c '$T/key.ctx' && tpm2_flushcontext -t"
echo "a message" >"$T/msg"
check "but cannot sign with an empty auth value (the TPM's auth check refuses it)" bash -c \
    "! tpm2_sign -c '$T/key.ctx' -g sha256 -o '$T/sig' '$T/msg' 2>'$T/hostile-sign.log' && grep -q 'authorization HMAC check failed' '$T/hostile-sign.log'"
check "root can unseal the device key (no PCR policy: documented)" bash -c \
    "$(declare -f srk); T='$T' srk && tpm2_load -Q -C '$T/srk.ctx' -u '$T/dk.pub' -r '$T/dk.priv' -c '$T/dk.ctx' && tpm2_flushcontext -t && tpm2_unseal -c '$T/dk.ctx' -o '$T/dk.bin' && [ \$(stat -c %s '$T/dk.bin') = 32 ]"
DENIED=1
for guess in "hex:$(xxd -p -c 64 "$T/dk.bin")" "file:$T/state/device.key.tpm"; do
    bash -c "$(declare -f srk); T='$T' srk && tpm2_load -Q -C '$T/srk.ctx' -u '$T/key.pub' -r '$T/key.priv' -c '$T/key.ctx' && tpm2_flushcontext -t && tpm2_sign -c '$T/key.ctx' -p '$guess' -g sha256 -o '$T/sig' '$T/msg'" 2>/dev/null && DENIED=0
done
check "nor with the device key or any file of the state directory as the auth value" test $DENIED = 1
tpm2_flushcontext -t >/dev/null 2>&1
check "tpm2-tools left nothing loaded" bash -c "[ -z \"\$(tpm2_getcap handles-transient)\" ]"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
