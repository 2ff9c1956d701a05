#!/bin/sh
# Builds, with clang in build-fuzz/, the libFuzzer targets of the deck front end and of the math
# evaluator and the math unit tests under ASan + UBSan; runs the unit tests, then each fuzzer for
# N seconds (default 60) on seed corpora made from a few shared decks (nothing is committed) plus
# the regression inputs kept in tests/bad/fuzz/<target>/ when present.
# Usage: parser/fuzz/run_fuzz.sh [seconds]
set -eu
seconds=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${MBL_SHARED_DIR:-$src/../shared}
build=$src/build-fuzz
CC=clang CXX=clang++ cmake -S "$src" -B "$build" -G Ninja -DMBL_FUZZ=ON -DMBL_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBL_SHARED_DIR="$shared" >/dev/null
cmake --build "$build" -j2 --target fuzz_deck fuzz_math sanitized_utest_math
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build"/parser/fuzz/sanitized_utest_math --gtest_brief=1
corpus=$build/fuzz-corpus
mkdir -p "$corpus/deck" "$corpus/math"
for f in "$shared"/decks/web.pendulum/deck/pendulum \
         "$shared"/decks/t.driven.initialassembly/deck/initialassembly \
         "$shared"/decks/t.parser.eval/deck/eval \
         "$shared"/paper/andrewssqueezer/deck/andrewssqueezer.ref \
         "$shared"/paper/andrewssqueezer/deck/andrewssqueezer.set; do
  [ -f "$f" ] && cp "$f" "$corpus/deck/$(basename "$f")"
done
# Math seeds: the right-hand sides of the `set:` cards of the seed decks, one per file.
i=0
for f in "$corpus"/deck/*; do
  grep -o 'set *: *[^;]*' "$f" | sed 's/^set *: *//' | while IFS= read -r line; do
    i=$((i + 1)); printf '%s' "$line" > "$corpus/math/$(basename "$f").$i"
  done
done
cd "$build"
for target in deck math; do
  seeds="$corpus/$target"
  [ -d "$src/tests/bad/fuzz/$target" ] && seeds="$seeds $src/tests/bad/fuzz/$target"
  # -timeout: a single input taking more than 10 s is a hang; -rss_limit_mb keeps the 2-core box usable.
  # shellcheck disable=SC2086
  "$build"/parser/fuzz/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 $seeds
done
