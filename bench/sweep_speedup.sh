#!/usr/bin/env bash
# The sweep of 64 short cases (examples/sweep/spring_mass.mbd, 8 x 8 grid) on the local workers:
# wall time with -j 2 over -j 1, median of 3 runs each (issue: <= 0.6 on 2 cores).
#   bench/sweep_speedup.sh [build/mbdyn-like]
set -euo pipefail
cd "$(dirname "$0")/.."
prog=${1:-build/mbdyn-like}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
time_sweep() {  # jobs
  local t0 t1
  rm -rf "$tmp/out"
  t0=$(date +%s.%N)
  "$prog" sweep examples/sweep/spring_mass.mbd --grid 'K=1e2:1e4:8' --grid 'C=0.1:2:8' \
    --metric 'peak=max(abs(model::xposition(2) - 1.))' -o "$tmp/out" -j "$1" > /dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
serial=$(median "$(time_sweep 1)" "$(time_sweep 1)" "$(time_sweep 1)")
parallel=$(median "$(time_sweep 2)" "$(time_sweep 2)" "$(time_sweep 2)")
printf 'sweep of 64 cases: -j 1 %.2f s, -j 2 %.2f s, ratio %.2f\n' "$serial" "$parallel" \
  "$(echo "$parallel / $serial" | bc -l)"
