#!/bin/sh
# Builds the libFuzzer target of the deck front end with clang in build-fuzz/ and runs it for
# N seconds (default 60) on a seed corpus made from a few shared decks (nothing is committed).
# Usage: parser/fuzz/run_fuzz.sh [seconds]
set -eu
seconds=${1:-60}
src=$(cd "$(dirname "$0")/../.." && pwd)
shared=${MBL_SHARED_DIR:-$src/../shared}
build=$src/build-fuzz
CC=clang CXX=clang++ cmake -S "$src" -B "$build" -G Ninja -DMBL_FUZZ=ON -DMBL_BENCH=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBL_SHARED_DIR="$shared" >/dev/null
cmake --build "$build" -j2 --target fuzz_deck
corpus=$build/fuzz-corpus
mkdir -p "$corpus"
for f in "$shared"/decks/web.pendulum/deck/pendulum \
         "$shared"/decks/t.driven.initialassembly/deck/initialassembly \
         "$shared"/decks/t.parser.eval/deck/eval \
         "$shared"/paper/andrewssqueezer/deck/andrewssqueezer.ref \
         "$shared"/paper/andrewssqueezer/deck/andrewssqueezer.set; do
  [ -f "$f" ] && cp "$f" "$corpus/$(basename "$f")"
done
cd "$build"
# -timeout: a single input taking more than 10 s is a hang; -rss_limit_mb keeps the 2-core box usable.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
  "$build"/parser/fuzz/fuzz_deck -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -print_final_stats=1 "$corpus"
