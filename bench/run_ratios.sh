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

# time_run DECK -> "cpu_seconds peak_rss_MB exit_code newton_iterations steps" (fastest of REPS;
# iterations and steps from the .out of the last run)
time_run() {
  local deck=$1 best="" rss=0 rc=0 u s m t
  for _ in $(seq "$REPS"); do
    rm -f $tmp/run.out
    (cd "$(dirname "$deck")" && /usr/bin/time -o $tmp/t -f "%U %S %M" "$BIN" -s -f "$deck" -o $tmp/run > /dev/null 2>&1)
    rc=$?
    read -r u s m < <(tail -1 $tmp/t)
    t=$(echo "$u + $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    [ "$m" -gt "$rss" ] && rss=$m
  done
  local its
  its=$(awk '/^Step / && $2 > 0 {it += $5; n++} END {print it + 0, n + 0}' $tmp/run.out 2> /dev/null || echo "0 0")
  echo "$best $(echo "$rss / 1024" | bc -l) $rc $its"
}

row() {  # name cpu rss rc iterations steps mbdyn_s [mbdyn_rss]
  local r=- ips=-
  [ -n "$7" ] && r=$(printf "%.2f" "$(echo "$2 / $7" | bc -l)")
  [ "$6" -gt 0 ] && ips=$(printf "%.2f" "$(echo "$5 / $6" | bc -l)")
  printf "| %-34s | %8.2f | %7s | %5s | %6.1f | %6s | %6s |%s\n" "$1" "$2" "${7:--}" "$r" "$3" "${8:--}" "$ips" \
    "$([ "$4" != 0 ] && echo " exit $4")"
}

echo "| run | ours CPU s | MBDyn s | ratio | RSS MB | MBDyn RSS MB | it/step |"
echo "|---|---|---|---|---|---|---|"
README=$SHARED/paper/README.md
for bench in andrewssqueezer fourbar lateralbuckling rotatingshaft; do
  col=$(awk -F'|' -v b="$bench" '/^\| method/ {for (i=1;i<=NF;i++) if ($i ~ b) print i; exit}' "$README")
  decks=$SHARED/paper/$bench/deck/${bench}_ms_0.6.mbd
  [ "${ALL_METHODS:-0}" = 1 ] && decks=$(ls $SHARED/paper/$bench/deck/${bench}_*_*.mbd)
  for deck in $decks; do
    m=$(basename "$deck" .mbd); m=${m#"${bench}"_}
    mb=$(awk -F'|' -v k="${m%_*}, ${m##*_}" -v c="$col" 'tolower($2) ~ "^ *"tolower(k)" *$" {print $c}' "$README" |
         grep -o '[0-9.]* s' | grep -o '[0-9.]*')
    read -r t rss rc its steps < <(time_run "$deck")
    row "$bench $m" "$t" "$rss" "$rc" "$its" "$steps" "$mb"
  done
done
for id in t.plates.beam_1_5_cantilever t.plates.beam_2x8_prestress t.plates.shell4_x t.plates.sze2004.sze31.sze31_16x1; do
  main=$(awk -F'|' -v id="$id" '$2 ~ "^ *"id" *$" {gsub(/ /, "", $3); print $3}' $SHARED/decks/INDEX.md)
  mb=$(awk -F'|' -v id="$id" '$2 ~ "^ *"id" *$" {gsub(/ /, "", $5); print $5}' $SHARED/decks/INDEX.md)
  read -r t rss rc its steps < <(time_run "$SHARED/decks/$id/deck/$main")
  row "shell ${id##*.}" "$t" "$rss" "$rc" "$its" "$steps" "$mb"
done
sizes="100 1000"; [ "${BIG:-0}" = 1 ] && sizes="100 1000 3000 10000"
fit_in=$tmp/fit
for kind in chain beam; do
  for n in $sizes; do
    deck=$SHARED/scaling/${kind}_$n.mbd
    if [ ! -f "$deck" ]; then deck=$tmp/${kind}_$n.mbd; python3 $SHARED/scaling/gen_$kind.py $n -o "$deck"; fi
    read -r mb mrss < <(awk -F'|' -v k=$kind -v n=$n '$2 ~ "^ *"k" *$" && $3 ~ "^ *"n" *$" {gsub(/ /, "", $5); gsub(/ /, "", $8); print $5, $8}' $SHARED/scaling/README.md)
    read -r t rss rc its steps < <(time_run "$deck")
    row "scaling $kind N=$n" "$t" "$rss" "$rc" "$its" "$steps" "$mb" "$mrss"
    dof=$([ $kind = chain ] && echo $((15 * n + 12)) || echo $((24 * n + 18)))
    echo "$kind $dof $t $steps" >> $fit_in
  done
done
echo
# Growth of CPU time per step with DOF: least-squares slope of log(time/step) on log(DOF) over
# every N, and the two-point slope between the largest two N (the N = 100 runs are dominated by
# start-up).
awk '{ x = log($2); y = log($3 / $4); k = $1; n[k]++; sx[k] += x; sy[k] += y; sxx[k] += x * x; sxy[k] += x * y;
       px[k] = lx[k]; py[k] = ly[k]; lx[k] = x; ly[k] = y; lo[k] = (n[k] == 1 ? $2 : lo[k]); hi[k] = $2; pd[k] = ld[k]; ld[k] = $2 }
     END { for (k in n) {
       fit = (n[k] * sxy[k] - sx[k] * sy[k]) / (n[k] * sxx[k] - sx[k] * sx[k]);
       printf "growth of CPU time per step with DOF, %s: DOF^%.2f (least squares, DOF %d..%d), DOF^%.2f (DOF %d..%d)\n",
              k, fit, lo[k], hi[k], (ly[k] - py[k]) / (lx[k] - px[k]), pd[k], ld[k] } }' $fit_in | sort
