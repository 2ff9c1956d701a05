#!/bin/bash
# Wall time of our program over MBDyn's for each method of a seed-000 benchmark (MBDyn's times
# from ../shared/paper/README.md, indicative ±30 %). Timings, not a test.
# usage: bench/paper_time_ratios.sh BUILD_DIR/mbdyn-like [bench=andrewssqueezer] [SHARED=/work/shared]
BIN=$(realpath "$1"); bench=${2:-andrewssqueezer}; SHARED=${3:-/work/shared}
P=$SHARED/paper/$bench
col=$(awk -F'|' -v b="$bench" 'NR>0 && /^\| method/ {for (i=1;i<=NF;i++) if ($i ~ b) print i; exit}' $P/../README.md)
tmp=$(mktemp -d)
printf "%-12s %10s %10s %8s\n" method ours_s mbdyn_s ratio
for deck in $P/deck/${bench}_*_*.mbd; do
  m=$(basename $deck .mbd); m=${m#${bench}_}
  name=${m%_*}; rho=${m##*_}
  key="$name, $rho"
  mb=$(awk -F'|' -v k="$key" -v c=$col 'tolower($2) ~ "^ *"tolower(k)" *$" {print $c}' $P/../README.md | grep -o '[0-9.]* s' | grep -o '[0-9.]*')
  s=$(date +%s.%N); "$BIN" -s -f $deck -o $tmp/run_$m > /dev/null 2>&1; rc=$?; e=$(date +%s.%N)
  t=$(echo "$e - $s" | bc -l)
  if [ -n "$mb" ]; then r=$(echo "$t / $mb" | bc -l); else r=nan; mb=-; fi
  printf "%-12s %10.3f %10s %8.2f %s\n" $m $t "$mb" $r "$([ $rc -ne 0 ] && echo "(exit $rc)")"
done
rm -rf $tmp
