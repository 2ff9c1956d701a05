#!/usr/bin/env bash
# Work-precision of `strategy: error control` against fixed steps on a deck of examples/adaptive
# (docs/adaptive.md): error of the node positions at the final time against a fixed-step
# reference, versus steps and CPU time, for fixed steps h0, h0/2, ... and tolerances 1e-2 ..
# 1e-7; prints a table and draws the figures with our `plot` (log10 of both axes).
#   bench/adaptive_work_precision.sh build/mbdyn-like pendulum_pulse "ms, 0.6" 0.02 1e-5 docs/adaptive
# (binary, deck, method, largest fixed step h0, reference step, figure prefix[, the reference's
# Newton tolerance: a small reference step needs a looser one than the deck's, see
# bench/adaptive_reference.sh])
set -euo pipefail
BIN=$(realpath "$1"); DECK=$2; METHOD=$3; H0=$4; HREF=$5; FIG=$6; REF_TOL=${7:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)/examples/adaptive/$DECK.mbd
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# variant <name> <strategy or ""> <time step or ""> [<Newton tolerance>] -> runs it in $WORK/<name>
variant() {
  local name=$1 strategy=$2 step=$3 tolerance=${4:-}
  sed -e "s/method: [^;]*;/method: $METHOD;/" "$SRC" > "$WORK/$name.mbd"
  if [ -z "$strategy" ]; then
    # fixed steps with the deck's Newton tolerance (the decks' are above round-off at small steps)
    sed -i -e "s/strategy: [^;]*;//" -e "s/max time step: [^;]*;//" "$WORK/$name.mbd"
  else
    sed -i -e "s/strategy: [^;]*;/strategy: $strategy;/" "$WORK/$name.mbd"
  fi
  [ -n "$step" ] && sed -i -e "s/^\([[:space:]]*\)time step: [^;]*;/\1time step: $step;/" "$WORK/$name.mbd"
  [ -n "$tolerance" ] && sed -i -e "s/^\([[:space:]]*\)tolerance: [^;]*;/\1tolerance: $tolerance;/" "$WORK/$name.mbd"
  TIMEFORMAT=%3U; { time "$BIN" -s -f "$WORK/$name.mbd" -o "$WORK/$name" > /dev/null 2>&1 && rm -f "$WORK/$name.failed" || touch "$WORK/$name.failed" ; } 2> "$WORK/$name.cpu"
}
# final positions of every node: label x y z of the last record
final() { awk 'NR==1{first=$1} $1==first{n=0} {x[n]=$2; y[n]=$3; z[n]=$4; n++} END{for(i=0;i<n;i++) print x[i], y[i], z[i]}' "$WORK/$1.mov"; }
steps() { awk '/^Step /{if ($2>0) n++} END{print n}' "$WORK/$1.out"; }
error() { paste <(final "$1") <(final ref) | awk '{for(i=1;i<=3;i++){d=$i-$(i+3); if(d<0)d=-d; if(d>e)e=d}} END{printf "%.3e", e}'; }

variant ref "" "$HREF" "$REF_TOL"
if [ -e "$WORK/ref.failed" ]; then echo "the reference run failed" >&2; exit 3; fi
printf "| run | steps | CPU (s) | error |\n|---|---|---|---|\n"
: > "$WORK/fixed.txt"; : > "$WORK/adaptive.txt"
h=$H0
for k in 0 1 2 3 4 5 6; do
  variant "fixed$k" "" "$h"
  if [ -e "$WORK/fixed$k.failed" ]; then printf "| fixed %s s | failed |\n" "$h"; h=$(awk -v h="$h" 'BEGIN{printf "%.17g", h/2}'); continue; fi
  s=$(steps "fixed$k"); e=$(error "fixed$k"); c=$(cat "$WORK/fixed$k.cpu")
  printf "| fixed %s s | %s | %s | %s |\n" "$h" "$s" "$c" "$e"
  echo "$s $c $e" >> "$WORK/fixed.txt"
  h=$(awk -v h="$h" 'BEGIN{printf "%.17g", h/2}')
done
for tol in 1e-2 1e-3 1e-4 1e-5 1e-6 1e-7; do
  variant "adaptive$tol" "error control, $tol, $tol" ""
  if [ -e "$WORK/adaptive$tol.failed" ]; then printf "| error control %s | failed |\n" "$tol"; continue; fi
  s=$(steps "adaptive$tol"); e=$(error "adaptive$tol"); c=$(cat "$WORK/adaptive$tol.cpu")
  printf "| error control %s | %s | %s | %s |\n" "$tol" "$s" "$c" "$e"
  echo "$s $c $e" >> "$WORK/adaptive.txt"
done

# Two one-dimensional NetCDF files per figure (time = the abscissa), drawn with our plot.
cdl() {  # <file> <name> <column of the abscissa: 1 steps, 2 CPU> <abscissa's name>
  awk -v name="$2" -v col="$3" -v xn="$4" 'function l(v){return (v>0)?log(v)/log(10):-9}
    {x[NR]=l($col); e[NR]=l($3)}
    END{printf "netcdf %s {\ndimensions:\n time = UNLIMITED ;\nvariables:\n double time(time) ;\n double %s(time) ;\n double log10_error(time) ;\ndata:\n", name, xn;
        for(v=0; v<3; v++){ printf (v==0?" time = ":v==1?" " xn " = ":" log10_error = ");
          for(i=1;i<=NR;i++) printf "%s%.6f", (i>1?", ":""), (v<2?x[i]:e[i]); printf " ;\n"}
        print "}"}' "$1"
}
for axis in steps cpu; do
  col=1; [ $axis = cpu ] && col=2
  cdl "$WORK/fixed.txt" fixed $col "log10_$axis" > "$WORK/fixed_$axis.cdl"
  cdl "$WORK/adaptive.txt" error_control $col "log10_$axis" > "$WORK/adaptive_$axis.cdl"
  ncgen -o "$WORK/fixed_step.nc" "$WORK/fixed_$axis.cdl"
  ncgen -o "$WORK/error_control.nc" "$WORK/adaptive_$axis.cdl"
  out=$(realpath -m "${FIG}_${DECK}_${axis}.svg")
  (cd "$WORK" && "$BIN" plot fixed_step.nc log10_error --with error_control.nc --x "log10_$axis" \
    --title "$DECK, $METHOD: log10 error vs log10 $axis" -o "$out")
done
