#!/bin/bash
# The TPM row of `make bench` (issue 32): an SSH signature through localauthctl ssh-agent and
# localauthd with the key made in swtpm ([Keys] Store=tpm), next to tpm2_sign alone on the same
# swtpm (a persistent P-256 key, one process a signature: the TPM's own signature time as a tool
# sees it) and next to the file-sealed key (Store=file), in the same run, with the same client
# (bench/ssh_agent_client.py: one connection, one request at a time; an instant simulated match).
# Target: the TPM path within 1.5x of tpm2_sign alone.
# Usage: tpm-bench.sh LOCALAUTHD LOCALAUTHCTL [SIGNATURES]
set -euo pipefail
daemon=$1 ctl=$2 count=${3:-200}
here=$(cd "$(dirname "$0")" && pwd)
for tool in swtpm tpm2_createprimary tpm2_create tpm2_load tpm2_evictcontrol tpm2_sign; do
  command -v "$tool" >/dev/null || { echo "TPM row skipped: $tool is missing (make tpm-deps)"; exit 0; }
done
dir=$(mktemp -d /tmp/localauthd-tpm-bench.XXXXXX)
chmod 0700 "$dir"
pids=()
# Stops everything in reverse order (each agent before its daemon); whatever outlives a TERM for
# half a second (seen: an agent whose daemon went first) is killed.
cleanup() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  sleep 0.5
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "${KEEP_TEMP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
export TSS2_LOG=all+NONE

# swtpm on a free even port (control: port + 1).
mkdir "$dir/swtpm-state"
for _ in $(seq 20); do
  port=$(((RANDOM % 20000 + 30000) & ~1))
  swtpm socket --tpm2 --server type=tcp,port=$port,bindaddr=127.0.0.1 \
    --ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
    --flags not-need-init,startup-clear --tpmstate dir="$dir/swtpm-state" >"$dir/swtpm.log" 2>&1 &
  pid=$!
  up=
  for _ in $(seq 50); do
    kill -0 $pid 2>/dev/null || break
    (exec 3<>/dev/tcp/127.0.0.1/$((port + 1))) 2>/dev/null && { up=1; break; }
    sleep 0.1
  done
  [ -n "$up" ] && { pids+=($pid); break; }
  kill $pid 2>/dev/null || true
done
[ -n "${up:-}" ] || { echo "TPM row skipped: swtpm did not start"; exit 0; }
tcti="swtpm:host=127.0.0.1,port=$port"
export TPM2TOOLS_TCTI=$tcti

# tpm2_sign alone: a P-256 signing key under the TCG SRK, made persistent so each signature is one
# tpm2_sign process and one TPM2_Sign, nothing loaded or flushed.
flush() { tpm2_flushcontext -t >/dev/null 2>&1 || true; }
flush
tpm2_createprimary -Q -C o -g sha256 -G ecc256:aes128cfb -c "$dir/srk.ctx" && flush
tpm2_create -Q -C "$dir/srk.ctx" -G ecc256:ecdsa-sha256 -u "$dir/key.pub" -r "$dir/key.priv" && flush
tpm2_load -Q -C "$dir/srk.ctx" -u "$dir/key.pub" -r "$dir/key.priv" -c "$dir/key.ctx" && flush
tpm2_evictcontrol -Q -C o -c "$dir/key.ctx" 0x81000123 >/dev/null && flush
echo "bench message" >"$dir/msg"
tools=$(python3 - "$dir/msg" "$count" <<'TIME'
import json, statistics, subprocess, sys, time
message, count = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(count):
    start = time.perf_counter_ns()
    subprocess.run(["tpm2_sign", "-c", "0x81000123", "-g", "sha256", "-o", "/dev/null", message],
                   check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter_ns() - start) // 1000)
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(json.dumps({"median_us": pick(0.5), "p90_us": pick(0.9), "p99_us": pick(0.99),
                  "per_second": round(1e6 / statistics.mean(times))}))
TIME
)

# One daemon per key store, each with its own agent, an instant simulated match, no reuse window.
start_pair() { # NAME STORE-LINES
  local name=$1
  mkdir -m 0700 "$dir/$name"
  printf '[Sensor.face]\nKind=faceID\nEnrolled=bench\nDefault=MATCH\n[Sensor.passcode]\nKind=passcode\nPasscode=1234\n%b' \
    "$2" >"$dir/$name/localauthd.conf"
  "$daemon" --config "$dir/$name/localauthd.conf" --socket "$dir/$name/localauthd.sock" \
    --state-dir "$dir/$name/state" --stderr 2>"$dir/$name/daemon.log" &
  pids+=($!)
  for _ in $(seq 1000); do [ -S "$dir/$name/localauthd.sock" ] && break; sleep 0.01; done
  LOCALAUTHD_SOCKET="$dir/$name/localauthd.sock" "$ctl" ssh-key create bench >/dev/null
  mkdir -m 0700 "$dir/$name/agent"
  LOCALAUTHD_SOCKET="$dir/$name/localauthd.sock" "$ctl" ssh-agent --listen "$dir/$name/agent/sock" \
    2>"$dir/$name/agent.log" &
  pids+=($!)
  for _ in $(seq 1000); do [ -S "$dir/$name/agent/sock" ] && break; sleep 0.01; done
}
start_pair tpm "[Keys]\nStore=tpm\nTCTI=$tcti\n"
start_pair file "[Keys]\nStore=file\n"
LOCALAUTHD_SOCKET="$dir/tpm/localauthd.sock" "$ctl" ssh-key list | grep -q 'tpm-resident' ||
  { echo "TPM row: the key was not made in the TPM"; exit 1; }
in_tpm=$(python3 "$here/ssh_agent_client.py" "$dir/tpm/agent/sock" "$count")
in_file=$(python3 "$here/ssh_agent_client.py" "$dir/file/agent/sock" "$count")
python3 - "$tools" "$in_tpm" "$in_file" "$count" <<'REPORT'
import json, sys
tools, in_tpm, in_file = (json.loads(arg) for arg in sys.argv[1:4])
print(f"\nTPM signature, {sys.argv[4]} sequential ECDSA P-256 signatures on swtpm (median / p90 / p99, µs):")
for name, row in (("tpm2_sign alone (persistent key, a process each)", tools),
                  ("localauthctl ssh-agent + localauthd, key in swtpm", in_tpm),
                  ("localauthctl ssh-agent + localauthd, file-sealed key", in_file)):
    print(f"  {name:52} {row['median_us']:>9} {row['p90_us']:>9} {row['p99_us']:>9}  {row['per_second']:>8}/s")
print(f"  ratio TPM path / tpm2_sign alone (median): {in_tpm['median_us'] / tools['median_us']:.2f}x (target: within 1.5x)")
REPORT
