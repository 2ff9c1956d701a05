#!/usr/bin/env bash
# The Benchmarks table of docs/adaptive.md against references R times finer than its best fixed
# step h (the issue: "accuracy against a run with a 100x smaller fixed step"). For each benchmark
# deck of examples/adaptive: a fixed-step reference with step h/R, the error-controlled run, and
# fixed runs h 2^k (k = 3 .. -1, and the deck's extra steps); error = largest difference of any
# node's coordinate at the final time T. Prints the reference positions (what
# Decks/ErrorControlBenchmark stores). Long (5 minutes of CPU at R = 100): run it outside the
# build lock, at low priority:
#   (echo 19 > /proc/self/autogroup; nice -n 19 bench/adaptive_reference.sh build/mbdyn-like [R] [T_scale])
# T_scale < 1 shortens every run but the reference (final time T_scale T) to estimate the time.
#
# Every run ends at T: the fixed ones with `final time: T - h/2`, so that the last step is at n h
# = T up to round-off (MBDyn's loop runs while t < T: with the deck's final time a fixed step
# whose steps add up to just under T takes one more, and part of its error is that overshoot;
# the "deck T" rows show it, as the earlier table measured). The error-controlled run ends at T
# exactly. Only the final positions are needed: the runs write no output (`default output:
# none`) and read them with --metric final(model::x/y/zposition(label)).
set -euo pipefail
BIN=$(realpath "$1"); R=${2:-100}; SCALE=${3:-1}
SRC=$(cd "$(dirname "$0")/.." && pwd)/examples/adaptive
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# run <name> <deck> <method> <strategy or ""> <time step or ""> <final time> [<Newton tolerance>]:
# prints "steps cpu t x y z ..." (t the time of the last step, then each structural node's position)
run() {
  local name=$1 deck=$2 method=$3 strategy=$4 step=$5 final=$6 tolerance=${7:-} metrics=()
  sed -e "s/method: [^;]*;/method: $method;/" -e "s/final time: [^;]*;/final time: $final;/" \
      -e "s/begin: control data;/begin: control data;\n\tdefault output: none;/" "$SRC/$deck.mbd" > "$WORK/$name.mbd"
  if [ -z "$strategy" ]; then
    sed -i -e "s/strategy: [^;]*;//" -e "s/max time step: [^;]*;//" "$WORK/$name.mbd"
  else
    sed -i -e "s/strategy: [^;]*;/strategy: $strategy;/" "$WORK/$name.mbd"
  fi
  [ -n "$step" ] && sed -i -e "s/^\([[:space:]]*\)time step: [^;]*;/\1time step: $step;/" "$WORK/$name.mbd"
  [ -n "$tolerance" ] && sed -i -e "s/^\([[:space:]]*\)tolerance: [^;]*;/\1tolerance: $tolerance;/" "$WORK/$name.mbd"
  for l in $(sed -n 's/^[[:space:]]*structural:[[:space:]]*\([0-9]*\),.*/\1/p' "$SRC/$deck.mbd"); do
    metrics+=(--metric "x$l=final(model::xposition($l))" --metric "y$l=final(model::yposition($l))"
              --metric "z$l=final(model::zposition($l))")
  done
  TIMEFORMAT=%3U
  { time "$BIN" -s -f "$WORK/$name.mbd" -o "$WORK/$name" --metric "t=final(Time)" "${metrics[@]}" \
      --metrics-file "$WORK/$name.metrics" > /dev/null 2>&1 || echo "$name failed" >&2; } 2> "$WORK/$name.cpu"
  local steps; steps=$(awk '/^Step /{if ($2>0) n++} END{print n+0}' "$WORK/$name.out")
  rm -f "$WORK/$name.out"
  echo "$steps $(cat "$WORK/$name.cpu") $(awk '{printf "%s ", $2}' "$WORK/$name.metrics")"
}
# error <run line> <reference line>: largest coordinate difference (fields 3.. but the time, the first metric)
error() { awk -v a="$1" -v b="$2" 'BEGIN{n=split(a,x," "); split(b,y," "); e=0; for(i=4;i<=n;i++){d=x[i]-y[i]; if(d<0)d=-d; if(d>e)e=d}; printf "%.2e", e}'; }
half() { awk -v h="$1" -v T="$2" -v s="$SCALE" 'BEGIN{printf "%.17g", T*s - h/2}'; }

# The fixed steps h 2^k, k = 3 .. -1 (h the table's best fixed step), and the deck's extra ones
# (a step between two of them that T divides), all ending at T: the
# largest of them whose error is at most the error-controlled run's is the best fixed step; the
# ratio is the steps of the next larger one (which does not reach the accuracy) over the
# error-controlled run's. Also h and 2h as the old table measured them (deck T: the last step is
# up to a step past T).
while read -r deck method strategy T h extra; do
  method=${method//_/ }; strategy=${strategy//_/ }
  Ts=$(awk -v T="$T" -v s="$SCALE" 'BEGIN{printf "%.17g", T*s}')
  href=$(awk -v h="$h" -v r="$R" 'BEGIN{printf "%.6g", h/r}')
  # The reference's Newton tolerance is at least 1e-8: the constraint rows hold Phi / dCoef, whose
  # round-off (~1e-16 m / h) reaches the pendulum's 1e-10 at h = 2.5e-6 s and Newton stalls there.
  tol=$(sed -n 's/^[[:space:]]*tolerance: *\([^;]*\);.*/\1/p' "$SRC/$deck.mbd" | awk '{t=$1+0; printf "%g", (t < 1e-8) ? 1e-8 : t}')
  ref=$(run ref "$deck" "$method" "" "$href" "$(half "$href" "$T")" "$tol")
  ec=$(run ec "$deck" "$method" "error control, $strategy" "" "$Ts")
  read -r rs rc rt ref_positions <<< "$ref"; read -r es ec_cpu et _ <<< "$ec"
  e_ec=$(error "$ec" "$ref")
  printf "\n%s (%s s), %s, error control %s: reference fixed %s s (Newton tolerance %s): %s steps, %s s CPU, last step at %s\n" \
    "$deck" "$Ts" "$method" "$strategy" "$href" "$tol" "$rs" "$rc" "$rt"
  printf "reference positions (x y z per node): %s\n\n" "$ref_positions"
  printf "| run | steps | CPU (s) | error | reaches error control's |\n|---|---|---|---|---|\n"
  printf "| error control | %s | %s | %s | |\n" "$es" "$ec_cpu" "$e_ec"
  steps_list=$(for k in 3 2 1 0 -1; do awk -v h="$h" -v k="$k" 'BEGIN{printf "%.6g\n", h*2^k}'; done)
  for hx in ${extra//,/ }; do steps_list+=$'\n'"$hx"; done
  for hk in $(echo "$steps_list" | sort -g -r); do
    k=$hk
    f=$(run "f$k" "$deck" "$method" "" "$hk" "$(half "$hk" "$T")")
    read -r fs fc _ <<< "$f"; e=$(error "$f" "$ref")
    printf "| fixed %s s, at T | %s | %s | %s | %s |\n" "$hk" "$fs" "$fc" "$e" \
      "$(awk -v a="$e" -v b="$e_ec" 'BEGIN{print (a <= b) ? "yes" : "no"}')"
  done
  for k in 1 0; do
    hk=$(awk -v h="$h" -v k="$k" 'BEGIN{printf "%.6g", h*2^k}')
    f=$(run "d$k" "$deck" "$method" "" "$hk" "$Ts")
    read -r fs fc ft _ <<< "$f"
    printf "| fixed %s s, deck T (last step at %s) | %s | %s | %s | |\n" "$hk" "$ft" "$fs" "$fc" "$(error "$f" "$ref")"
  done
done <<'EOF'
pendulum_pulse ms,_0.6 1.e-3,_1.e-5 20 2.5e-4 8e-4
bouncing_ball ms,_0.6 1.e-3,_1.e-5 3 2.5e-5
beam_step ms,_0.6 1.e-4,_1.e-6 0.6 6.25e-6
EOF
