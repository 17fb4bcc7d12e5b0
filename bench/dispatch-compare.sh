#!/bin/bash
# The typed-dispatch row (issue 20, docs/performance.md "Typed dispatch"): instructions
# (callgrind) and allocations (heaptrack) per request of the daemon built from BASE_NAME against
# this tree's, for context.canEvaluatePolicy, context.evaluatePolicy (a face that matches at
# once: the evaluation queue and run) and broker.status, 1 client, same run and same load
# generator. Instructions do not depend on the machine's load, so the row compares well on a
# busy machine; each figure is bench/profile.sh's (a run of N requests minus a run of none).
# Usage: dispatch-compare.sh BASE_LOCALAUTHD LOCALAUTHD LOCALAUTHD_BENCH BASE_NAME [N]
#        (`make bench-dispatch BENCH_BASE=main` builds BASE and runs it)
set -euo pipefail
base=$1 head=$2 bench=$3 name=$4 total=${5:-10000}
here=$(dirname "$0")

# figures DAEMON REQUEST: "INSTRUCTIONS ALLOCATIONS" per request.
figures() {
  PROFILE_CLIENTS=1 PROFILE_STEPS="instructions allocations" PROFILE_REQUEST=$2 \
    "$here/profile.sh" "$1" "$bench" "$total" |
    awk '/^instructions/ {i=$NF} /^allocations/ {a=$NF} END {print i, a}'
}

printf 'typed dispatch, per request, 1 client (%s requests)\n' "$total"
printf '  %-34s %14s %14s\n' "" "$name" "this tree"
for request in canEvaluate evaluate status; do
  case $request in
    status) label=broker.status ;;
    evaluate) label=context.evaluatePolicy ;;
    *) label=context.canEvaluatePolicy ;;
  esac
  read -r bi ba < <(figures "$base" "$request")
  read -r hi ha < <(figures "$head" "$request")
  printf '  %-34s %14s %14s\n' "$label instructions" "$bi" "$hi"
  printf '  %-34s %14s %14s\n' "$label allocations" "$ba" "$ha"
done
