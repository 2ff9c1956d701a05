#!/bin/sh
# The sanitized pass of the test command (./dev test). Builds, with clang in build-fuzz/, the whole
# project and its unit suite with ASan + UBSan (every object also instrumented for libFuzzer), runs
# the unit suite there (without the slow deck-agreement and corpus runs, which the normal build
# runs), then each libFuzzer target for N seconds (default 20): the deck front end, the math
# evaluator, the c81 airfoil reader, the FEM file reader and the external forces' socket protocol.
# Seeds: a few shared decks and data files (copied to build-fuzz/fuzz-corpus/, which keeps what
# the fuzzers add), plus the regression inputs kept in tests/bad/fuzz/<target>/.
# Usage: tests/fuzz/targets/run_fuzz.sh [seconds]
#   MBL_SANITIZE=0   skip the sanitized unit suite (local iteration only; ./dev test runs it)
#   seconds = 0      skip the fuzzing
#   MBL_FUZZ_TARGETS="c81 fem"  fuzz only these targets
#   MBL_FUZZ_BUILD=0 use the fuzzers already built (a long campaign beside other builds)
#   MBL_FUZZ_BIN=dir run the fuzz_<target> executables of dir (copies, while build-fuzz/ is rebuilt)
#   MBL_FUZZ_ARGS="-fork=1 -ignore_crashes=1"  more libFuzzer options (a campaign that goes on)
set -eu
seconds=${1:-20}
src=$(cd "$(dirname "$0")/../../.." && pwd)
shared=${MBL_SHARED_DIR:-$src/../shared}
build=$src/build-fuzz
targets=${MBL_FUZZ_TARGETS:-deck math c81 fem extforce}
launcher=""
command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
# -O1 with line tables: ASan's usual trade of speed against readable reports. NDEBUG as the
# program is built (Eigen's checks would slow the suite several times), but Boost's assertions
# stay on in the parser (BOOST_ENABLE_ASSERT_HANDLER, parser/boost_assert_handler.cpp).
# To fit the test command's budget on two cores: precompiled headers (MBL_PCH), lld, the test
# sources at -O0 (GoogleTest's macros take 13 s a file under ASan at -O1; what the tests exercise
# is in the libraries, at -O1), and neither the deck-agreement, corpus and viewer tests (labels
# decks, corpus, view: the same code over ../shared, ten times slower under ASan; the Release
# build runs them) nor the benchmarks.
configure() {
# shellcheck disable=SC2086
CC=clang CXX=clang++ cmake -S "$src" -B "$build" -G Ninja -DMBL_FUZZ=ON -DMBL_BENCH=OFF -DMBL_PCH=ON \
  -DMBL_TEST_AREAS_SKIPPED="decks;corpus;view;examples" -DMBL_TEST_COMPILE_OPTIONS=-O0 -DCMAKE_EXE_LINKER_FLAGS="-fuse-ld=lld" \
  -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
  -DMBL_SHARED_DIR="$shared" $launcher >/dev/null
}
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
if [ "${MBL_FUZZ_BUILD:-1}" = 0 ]; then
  :
elif [ "${MBL_SANITIZE:-1}" != 0 ]; then
  configure
  cmake --build "$build" -j "$(nproc)"
  # Release suite only: the eigenvalue agreement over ../shared's decks. The one test under mpirun
  # runs with address and undefined-behaviour checks but without the leak check: OpenMPI
  # (third-party) leaves what MPI_Init allocates in its components, which MPI_Finalize unloads
  # before LeakSanitizer can name them, so no suppression file can match them.
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -E '^(ExamplesSweep\.MpiRanks|SharedDecks/)'
  ASAN_OPTIONS=detect_leaks=0 ctest --test-dir "$build" --output-on-failure -R '^ExamplesSweep\.MpiRanks'
else
  configure
  # shellcheck disable=SC2086
  cmake --build "$build" -j "$(nproc)" $(for t in $targets; do printf ' --target fuzz_%s' "$t"; done)
fi
[ "$seconds" -gt 0 ] || exit 0

corpus=$build/fuzz-corpus
mkdir -p "$corpus/deck" "$corpus/math" "$corpus/c81" "$corpus/fem" "$corpus/extforce"
seed_decks="$shared/decks/web.pendulum/deck/pendulum $shared/decks/t.driven.initialassembly/deck/initialassembly
  $shared/decks/t.parser.eval/deck/eval $shared/paper/andrewssqueezer/deck/andrewssqueezer.ref
  $shared/paper/andrewssqueezer/deck/andrewssqueezer.set"
for f in $seed_decks; do
  [ -f "$f" ] && cp "$f" "$corpus/deck/$(basename "$f")"
done
# Math seeds: the right-hand sides of the `set:` cards of the seed decks, one per file.
i=0
for f in $seed_decks; do
  [ -f "$f" ] || continue
  grep -o 'set *: *[^;]*' "$f" | sed 's/^set *: *//' | while IFS= read -r line; do
    i=$((i + 1)); printf '%s' "$line" > "$corpus/math/$(basename "$f").$i"
  done
done
for f in "$shared"/corpus/t.aero.rigidss0/deck/ThinAirfoil2.c81 \
         "$shared"/corpus/t.aero.rigidrotor/deck/naca0012.c81; do
  [ -f "$f" ] && cp "$f" "$corpus/c81/$(basename "$f")"
done
for f in "$shared"/decks/t.joints.modal.hand-made.ssbeam_clamped/deck/ssbeam.fem \
         "$shared"/decks/t.joints.modal.puma.airframe/deck/puma_airframe.fem; do
  [ -f "$f" ] && cp "$f" "$corpus/fem/$(basename "$f")"
done
# Socket seeds (fuzz_extforce.cpp): card byte, the peer's OK to the negotiation, then four steps of
# ES_REGULAR_DATA (2) and zero loads: three structural points with moments (144 bytes), the rigid
# part of a modal force (48 bytes).
{ printf '\000\010'; for k in 1 2 3 4; do printf '\002'; head -c 144 /dev/zero; done; } > "$corpus/extforce/structural"
{ printf '\200\010'; for k in 1 2 3 4; do printf '\002'; head -c 48 /dev/zero; done; } > "$corpus/extforce/modal"

cd "$build"
for target in $targets; do
  case $target in
    c81) max_len=24576 ;;
    fem) max_len=16384 ;;
    *) max_len=4096 ;;
  esac
  seeds="$corpus/$target"
  [ -d "$src/tests/bad/fuzz/$target" ] && seeds="$seeds $src/tests/bad/fuzz/$target"
  # -timeout: a single input taking more than 10 s is a hang; -rss_limit_mb keeps the 2-core box usable.
  # shellcheck disable=SC2086
  "${MBL_FUZZ_BIN:-$build/tests/fuzz/targets}"/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$max_len \
    -print_final_stats=1 ${MBL_FUZZ_ARGS:-} $seeds
done
