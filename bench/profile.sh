#!/bin/bash
# The request-path profile of docs/performance.md ("Where each microsecond goes"): per
# context.canEvaluatePolicy round trip, the daemon's instructions (callgrind), allocations
# (heaptrack) and system calls (strace -c -f) at 1, 16 and 256 clients. Each figure is a run of
# N requests minus a run of none, divided by N, so start-up and shutdown cancel out.
# Usage: profile.sh LOCALAUTHD LOCALAUTHD_BENCH [N]     (`make bench-profile` runs it)
# PROFILE_STEPS picks some of "instructions allocations syscalls" (default: all three).
# PROFILE_KEEP=DIR keeps the raw callgrind, heaptrack and strace outputs there.
# PROFILE_REQUEST=status profiles broker.status instead of canEvaluatePolicy.
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
printf '[Sensor.face]\nKind=faceID\nEnrolled=alice\nDefault=MATCH\n[Sensor.passcode]\nKind=passcode\nPasscode=1234\n' \
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

steps=${PROFILE_STEPS:-instructions allocations syscalls}
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
