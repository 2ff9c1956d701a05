#!/bin/bash
# CPU time (user + system, fastest of REPS runs) and peak RSS of whole runs of our program, over
# the real MBDyn's stored times: the four seed-000 benchmarks (../shared/paper/README.md; `ms, 0.6`,
# or every method with ALL_METHODS=1), the shell decks (../shared/decks/INDEX.md, `MBDyn s`) and the
# scaling families (../shared/scaling/README.md; N = 100, 1000, plus 3000 and 10000 with BIG=1,
# generated with the family's gen_*.py), and the growth exponent of time per step against DOF.
# MBDyn's figures are wall times of single runs on an idle machine of the same kind (±20-30 %);
# ours is CPU time so that a loaded machine does not count. Timings, not a test.
# usage: bench/run_ratios.sh BUILD_DIR/mbdyn-like [REPS=3] [SHARED=/work/shared]
set -u
BIN=$(realpath "$1"); REPS=${2:-3}; SHARED=${3:-/work/shared}
tmp=$(mktemp -d); trap 'rm -rf $tmp' EXIT

# time_run DECK -> "cpu_seconds peak_rss_MB exit_code" (fastest of REPS)
time_run() {
  local deck=$1 best="" rss=0 rc=0 u s m
  for _ in $(seq "$REPS"); do
    (cd "$(dirname "$deck")" && /usr/bin/time -o $tmp/t -f "%U %S %M" "$BIN" -s -f "$deck" -o $tmp/run > /dev/null 2>&1)
    rc=$?
    read -r u s m < <(tail -1 $tmp/t)
    local t; t=$(echo "$u + $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    rss=$m
  done
  echo "$best $(echo "$rss / 1024" | bc -l) $rc"
}

row() {  # name cpu rss rc mbdyn_s
  local r=nan
  [ -n "$5" ] && r=$(echo "$2 / $5" | bc -l)
  printf "| %-34s | %8.3f | %8s | %6.2f | %6.1f |%s\n" "$1" "$2" "${5:--}" "$r" "$3" "$([ "$4" != 0 ] && echo " exit $4")"
}

echo "| run | ours CPU s | MBDyn s | ratio | RSS MB |"
echo "|---|---|---|---|---|"
README=$SHARED/paper/README.md
for bench in andrewssqueezer fourbar lateralbuckling rotatingshaft; do
  col=$(awk -F'|' -v b="$bench" '/^\| method/ {for (i=1;i<=NF;i++) if ($i ~ b) print i; exit}' "$README")
  decks=$SHARED/paper/$bench/deck/${bench}_ms_0.6.mbd
  [ "${ALL_METHODS:-0}" = 1 ] && decks=$(ls $SHARED/paper/$bench/deck/${bench}_*_*.mbd)
  for deck in $decks; do
    m=$(basename "$deck" .mbd); m=${m#"${bench}"_}
    mb=$(awk -F'|' -v k="${m%_*}, ${m##*_}" -v c="$col" 'tolower($2) ~ "^ *"tolower(k)" *$" {print $c}' "$README" |
         grep -o '[0-9.]* s' | grep -o '[0-9.]*')
    read -r t rss rc < <(time_run "$deck")
    row "$bench $m" "$t" "$rss" "$rc" "$mb"
  done
done
for id in t.plates.beam_1_5_cantilever t.plates.beam_2x8_prestress t.plates.shell4_x t.plates.sze2004.sze31.sze31_16x1; do
  main=$(awk -F'|' -v id="$id" '$2 ~ "^ *"id" *$" {gsub(/ /, "", $3); print $3}' $SHARED/decks/INDEX.md)
  mb=$(awk -F'|' -v id="$id" '$2 ~ "^ *"id" *$" {gsub(/ /, "", $5); print $5}' $SHARED/decks/INDEX.md)
  read -r t rss rc < <(time_run "$SHARED/decks/$id/deck/$main")
  row "${id#t.plates.}" "$t" "$rss" "$rc" "$mb"
done
sizes="100 1000"; [ "${BIG:-0}" = 1 ] && sizes="100 1000 3000 10000"
declare -A per_step dofs
for kind in chain beam; do
  steps=$([ $kind = chain ] && echo 200 || echo 100)
  for n in $sizes; do
    deck=$SHARED/scaling/${kind}_$n.mbd
    if [ ! -f "$deck" ]; then deck=$tmp/${kind}_$n.mbd; python3 $SHARED/scaling/gen_$kind.py $n -o "$deck"; fi
    mb=$(awk -F'|' -v k=$kind -v n=$n '$2 ~ "^ *"k" *$" && $3 ~ "^ *"n" *$" {gsub(/ /, "", $5); print $5}' $SHARED/scaling/README.md)
    read -r t rss rc < <(time_run "$deck")
    row "scaling $kind N=$n" "$t" "$rss" "$rc" "$mb"
    per_step[$kind$n]=$(echo "$t / $steps" | bc -l)
    dofs[$kind$n]=$([ $kind = chain ] && echo $((15 * n + 12)) || echo $((24 * n + 18)))
  done
done
echo
first=${sizes%% *}; last=${sizes##* }
for kind in chain beam; do
  e=$(echo "l(${per_step[$kind$last]} / ${per_step[$kind$first]}) / l(${dofs[$kind$last]} / ${dofs[$kind$first]})" | bc -l)
  printf "growth of CPU time per step with DOF, %s N=%s..%s: DOF^%.2f\n" $kind $first $last "$e"
done
