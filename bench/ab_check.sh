#!/bin/bash
# A/B check of two builds on one deck: the largest difference of the rms and final value of every
# coordinate of every node (17 digits, through --metric) over the model size, and the total
# Newton iterations of each. Speed changes must leave these at round-off (docs/performance.md).
# usage: bench/ab_check.sh BIN_A BIN_B DECK
set -u
A=$(realpath "$1"); B=$(realpath "$2"); deck=$(realpath "$3")
tmp=$(mktemp -d); trap 'rm -rf $tmp' EXIT
cd "$(dirname "$deck")" || exit 1
"$A" -s -f "$deck" -o $tmp/a > /dev/null 2>&1
args=()
for n in $(awk '{print $1}' $tmp/a.mov | sort -un); do
  for c in x y z; do
    args+=(--metric "r${c}$n=rms(model::${c}position($n))" --metric "f${c}$n=final(model::${c}position($n))")
  done
done
"$A" -s -f "$deck" -o $tmp/a "${args[@]}" --metrics-file $tmp/ma > /dev/null 2>&1
"$B" -s -f "$deck" -o $tmp/b "${args[@]}" --metrics-file $tmp/mb > /dev/null 2>&1
python3 - $tmp <<'PY'
import sys
d = sys.argv[1]
def metrics(f):
    return {l.split()[0]: float(l.split()[1]) for l in open(f) if len(l.split()) == 2}
def iters(f):
    return sum(int(l.split()[4]) for l in open(f) if l.startswith("Step "))
a, b = metrics(d + "/ma"), metrics(d + "/mb")
size = max(abs(v) for k, v in a.items() if k[0] == "f") or 1.0
diff = max(abs(a[k] - b[k]) for k in a)
print(f"positions/size {diff / size:.2g}  iterations {iters(d + '/a.out')} / {iters(d + '/b.out')}")
PY
