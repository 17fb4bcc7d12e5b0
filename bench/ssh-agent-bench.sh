#!/bin/bash
# The SSH agent row of `make bench`: signatures through localauthctl ssh-agent and localauthd (an
# instant simulated match per signature: Default=MATCH, DefaultDelayMs 0, no reuse window) next to
# OpenSSH's own ssh-agent holding an ECDSA P-256 file key, in the same run, with the same client
# (bench/ssh_agent_client.py: one connection, one request at a time).
# Usage: ssh-agent-bench.sh LOCALAUTHD LOCALAUTHCTL [SIGNATURES]
set -euo pipefail
daemon=$1 ctl=$2 count=${3:-300}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/localauthd-ssh-bench.XXXXXX)
chmod 0700 "$dir"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${KEEP_TEMP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
printf '[Sensor.face]\nKind=faceID\nEnrolled=bench\nDefault=MATCH\n[Sensor.passcode]\nKind=passcode\nPasscode=1234\n' >"$dir/localauthd.conf"
"$daemon" --config "$dir/localauthd.conf" --socket "$dir/localauthd.sock" --state-dir "$dir/state" \
  --stderr 2>"$dir/daemon.log" &
pids+=($!)
for _ in $(seq 1000); do [ -S "$dir/localauthd.sock" ] && break; sleep 0.01; done
export LOCALAUTHD_SOCKET="$dir/localauthd.sock"
"$ctl" ssh-key create bench >/dev/null
mkdir -m 0700 "$dir/agent"
"$ctl" ssh-agent --listen "$dir/agent/localauthd.sock" 2>"$dir/agent.log" &
pids+=($!)
ssh-agent -D -a "$dir/agent/openssh.sock" >/dev/null &
pids+=($!)
for _ in $(seq 1000); do
  [ -S "$dir/agent/localauthd.sock" ] && [ -S "$dir/agent/openssh.sock" ] && break
  sleep 0.01
done
ssh-keygen -q -t ecdsa -b 256 -N '' -f "$dir/filekey"
SSH_AUTH_SOCK="$dir/agent/openssh.sock" ssh-add -q "$dir/filekey"
openssh=$(python3 "$here/ssh_agent_client.py" "$dir/agent/openssh.sock" "$count")
ours=$(python3 "$here/ssh_agent_client.py" "$dir/agent/localauthd.sock" "$count")
python3 - "$openssh" "$ours" "$count" <<'REPORT'
import json, sys
openssh, ours, count = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
print(f"\nSSH agent signature, {count} sequential ECDSA P-256 signatures (median / p90 / p99, µs):")
for name, row in (("OpenSSH ssh-agent, file key", openssh), ("localauthctl ssh-agent + localauthd, instant match", ours)):
    print(f"  {name:52} {row['median_us']:>9} {row['p90_us']:>9} {row['p99_us']:>9}  {row['per_second']:>8}/s")
print(f"  ratio (median): {ours['median_us'] / openssh['median_us']:.1f}x (target: within 2x)")
REPORT
