#!/bin/bash
# The fprintd row of `make bench`: a real fprintd with libfprint's virtual device on a private bus
# (Tests/fprintd/private-stack.sh), one print enrolled for root, then fprintd-cycle measures the full
# verify cycle against fprintd directly and through localauthd. Needs root and `make deps`.
# Usage: fprintd-bench.sh LOCALAUTHD FPRINTD_CYCLE [CYCLES]
set -euo pipefail
daemon=$1 cycle=$2 cycles=${3:-200}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/localauthd-fprintd-bench.XXXXXX)
stack_pid=""
daemon_pid=""
cleanup() {
  [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
  if [ -f "$dir/pids" ]; then while read -r p; do kill -9 "$p" 2>/dev/null || true; done <"$dir/pids"; fi
  [ -n "$stack_pid" ] && kill -9 "$stack_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkfifo "$dir/stack-in"
"$here/Tests/fprintd/private-stack.sh" "$dir" <"$dir/stack-in" >"$dir/stack-out" 2>/dev/null &
stack_pid=$!
disown "$stack_pid"
exec 9>"$dir/stack-in"
for _ in $(seq 1000); do grep -q READY "$dir/stack-out" 2>/dev/null && break; sleep 0.01; done
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/bus/system_bus_socket"
fprintd-enroll -f right-index-finger root >/dev/null &
enroll=$!
while kill -0 "$enroll" 2>/dev/null; do
  printf 'SCAN bench-print' | socat - "UNIX-CONNECT:$dir/vdev.sock" 2>/dev/null || true
  sleep 0.1
done
printf '[Sensor.finger]\nKind=fprintd\n[Sensor.passcode]\nKind=passcode\nPasscode=1234\n' >"$dir/localauthd.conf"
"$daemon" --config "$dir/localauthd.conf" --socket "$dir/localauthd.sock" --state-dir "$dir/state" \
  --stderr 2>"$dir/daemon.log" &
daemon_pid=$!
for _ in $(seq 1000); do [ -S "$dir/localauthd.sock" ] && break; sleep 0.01; done
"$cycle" "$dir/localauthd.sock" "$dir/vdev.sock" root bench-print "$cycles"
