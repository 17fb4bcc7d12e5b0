#!/bin/bash
# The request-path profile of docs/performance.md ("Where each microsecond goes"): per
# context.canEvaluatePolicy round trip, the daemon's instructions (callgrind), allocations
# (heaptrack) and system calls (strace -c -f) at 1, 16 and 256 clients. Each figure is a run of
# N requests minus a run of none, divided by N, so start-up and shutdown cancel out.
# Usage: profile.sh LOCALAUTHD LOCALAUTHD_BENCH [N]     (`make bench-profile` runs it)
# PROFILE_STEPS picks some of "instructions allocations syscalls kernel" (default: the first three).
# "kernel" counts, with perf's tracepoints (no slow-down, unlike strace), the system calls, context
# switches and wake-ups per request of the daemon and of the C floor (PROFILE_FLOOR, default
# floor next to LOCALAUTHD_BENCH's directory) under the same load, each pinned as make bench pins.
# PROFILE_KEEP=DIR keeps the raw callgrind, heaptrack and strace outputs there.
# PROFILE_REQUEST=status (or evaluate) profiles broker.status (or evaluatePolicy) instead of
# canEvaluatePolicy. PROFILE_ENROLLED=none configures nobody enrolled, so every canEvaluatePolicy
# is refused with biometryNotEnrolled (make bench's refusal workload).
set -euo pipefail
daemon=$1 bench=$2 total=${3:-20000}
dir=$(mktemp -d /tmp/localauthd-profile.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  if [ -n "${PROFILE_KEEP:-}" ]; then mkdir -p "$PROFILE_KEEP" && cp -r "$dir"/. "$PROFILE_KEEP"/; fi
  rm -rf "$dir"
}
trap cleanup EXIT
enrolled='Enrolled=alice\n'
[ "${PROFILE_ENROLLED:-}" = none ] && enrolled=''
printf '[Sensor.face]\nKind=faceID\n%bDefault=MATCH\n[Sensor.passcode]\nKind=passcode\nPasscode=1234\n' "$enrolled" \
  >"$dir/localauthd.conf"
mkdir "$dir/state"
# valgrind cannot read the DWARF 5 Swift emits ("unhandled dwarf2 abbrev form"): profile a copy
# without debug information (the symbol table stays, so functions keep their names).
objcopy --strip-debug "$daemon" "$dir/localauthd"
daemon=$dir/localauthd

# daemon_pid PID: PID or the descendant of it that runs the daemon (strace and heaptrack fork it;
# valgrind runs it in its own process).
daemon_pid() {
  local real queue=("$1") p
  real=$(readlink -f "$daemon")
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    if [ "$(readlink -f "/proc/$p/exe" 2>/dev/null)" = "$real" ]; then echo "$p"; return; fi
    # shellcheck disable=SC2207
    queue+=($(cat /proc/"$p"/task/*/children 2>/dev/null))
  done
  echo "$1"
}

# run TOOL... -- CLIENTS REQUESTS: the daemon under the tool, driven, then stopped with SIGTERM.
run() {
  local clients=${*: -2:1} requests=${*: -1}
  local tool=("${@:1:$#-2}")
  rm -f "$dir/d.sock"
  "${tool[@]}" "$daemon" --config "$dir/localauthd.conf" --socket "$dir/d.sock" \
    --state-dir "$dir/state" --stderr 2>>"$dir/daemon.log" &
  pid=$!
  for _ in $(seq 3000); do [ -S "$dir/d.sock" ] && break; sleep 0.01; done
  sleep 0.5
  if [ "$requests" -gt 0 ]; then
    "$bench" --drive "$dir/d.sock" "$clients" "$requests" "${PROFILE_REQUEST:-canEvaluate}" >/dev/null
  fi
  kill -TERM "$(daemon_pid "$pid")"
  wait "$pid" || true
  pid=""
}

instructions() { # callgrind's total Ir (PROFILE_CACHE=1: also its simulated cache misses)
  local cache=()
  [ -n "${PROFILE_CACHE:-}" ] && cache=(--cache-sim=yes)
  run valgrind --tool=callgrind "${cache[@]}" --callgrind-out-file="$dir/cg.$2.$1" -- "$2" "$1" \
    >/dev/null 2>&1
  grep -m1 '^summary:' "$dir/cg.$2.$1" | awk '{print $2}'
}
allocations() { # heaptrack's calls to allocation functions
  run heaptrack -o "$dir/ht.$1" -- "$2" "$1" >/dev/null 2>&1
  heaptrack_print "$dir"/ht."$1".*zst 2>/dev/null | awk '/^calls to allocation functions/ {print $5}'
}
syscalls() { # strace -c -f: calls per system call name
  run strace -c -f -o "$dir/st.$1.$2" -- "$2" "$1"
}

# kernel_counts NAME CLIENTS COMMAND...: a server started by COMMAND (socket $dir/k.sock) on
# BENCH_SERVER_CPU, warmed with 20,000 requests, then counted over $total more from BENCH_CPU.
kernel_counts() {
  local name=$1 clients=$2 server
  shift 2
  rm -f "$dir/k.sock"
  taskset -c "${BENCH_SERVER_CPU:-0}" "$@" 2>>"$dir/daemon.log" &
  server=$!
  for _ in $(seq 3000); do [ -S "$dir/k.sock" ] && break; sleep 0.01; done
  taskset -c "${BENCH_CPU:-1}" "$bench" --drive "$dir/k.sock" "$clients" 20000 >/dev/null
  perf stat -x, -o "$dir/perf.$name.$clients" -e task-clock,context-switches,sched:sched_wakeup \
    -e syscalls:sys_enter_recvfrom,syscalls:sys_enter_sendto,syscalls:sys_enter_epoll_wait \
    -e raw_syscalls:sys_enter -p "$server" &
  local counter=$!
  sleep 0.2
  taskset -c "${BENCH_CPU:-1}" "$bench" --drive "$dir/k.sock" "$clients" "$total" >/dev/null
  kill -INT "$counter"
  wait "$counter" || true
  kill -TERM "$server"
  wait "$server" || true
  printf '  %-10s' "$name"
  awk -F, -v n="$total" '$1 ~ /^[0-9.]+$/ {
      v = $3 == "task-clock" ? $1 * 1000 / n : $1 / n
      sub(/^.*:sys_enter_/, "", $3); sub(/^raw_syscalls:sys_enter$/, "syscalls", $3); sub(/^sched:/, "", $3)
      printf " %s %.*f", ($3 == "task-clock" ? "cpu_us" : $3), ($3 == "task-clock" ? 2 : 3), v }
    END { print "" }' "$dir/perf.$name.$clients"
}

steps=${PROFILE_STEPS:-instructions allocations syscalls}
if [[ $steps == *kernel* ]]; then
  floor=${PROFILE_FLOOR:-$(dirname "$(dirname "$bench")")/floor}
  for clients in 1 16 256; do
    echo "per request, $clients clients (perf stat; cpu_us is wall-clock CPU time, noisy):"
    kernel_counts floor "$clients" "$floor" "$dir/k.sock"
    kernel_counts localauthd "$clients" "$daemon" --config "$dir/localauthd.conf" \
      --socket "$dir/k.sock" --state-dir "$dir/state" --stderr
  done
fi
# PROFILE_CLIENTS: the client counts of the instruction step (default 1 and 256: the 256-client
# load is where the bench's CPU-per-request row is measured, and per-turn costs divide differently).
if [[ $steps == *instructions* ]]; then
  for clients in ${PROFILE_CLIENTS:-1 256}; do
    # The base run makes the same connections (one request each), so accepting them cancels out.
    i0=$(instructions "$clients" "$clients") i1=$(instructions "$total" "$clients")
    echo "instructions per request (callgrind, $clients clients): $(((i1 - i0) / (total - clients)))"
  done
fi
if [[ $steps == *allocations* ]]; then
  a0=$(allocations 0 1) a1=$(allocations "$total" 1)
  echo "allocations per request (heaptrack, 1 client): $(awk "BEGIN{printf \"%.2f\", ($a1-$a0)/$total}")"
fi
[[ $steps == *syscalls* ]] || exit 0
for clients in 1 16 256; do
  syscalls 0 "$clients"
  syscalls "$total" "$clients"
  echo "system calls per request, $clients clients (strace -c -f):"
  awk -v n="$total" 'FNR==NR && $NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ {base[$NF]=$4; next}
    $NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
      d=($4 - base[$NF]) / n; if (d >= 0.005) printf "  %-14s %.3f\n", $NF, d; sum+=d }
    END {printf "  %-14s %.3f\n", "total", sum}' "$dir/st.0.$clients" "$dir/st.$total.$clients"
done
