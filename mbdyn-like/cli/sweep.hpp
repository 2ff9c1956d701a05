#pragma once
// `mbdyn-like sweep`: many variants of one deck (parameter studies), each case a run of the
// program in a child process with its own `-D` set, so that a crash in one case cannot take the
// sweep down. Locally `-j` worker processes; under MPI (`mpirun -np P mbdyn-like sweep ...`, when
// built with MPI) rank 0 hands the cases to the other ranks as they become free.
//
//   mbdyn-like sweep deck --grid 'K=1e3,1e4,1e5' --grid 'c=0.1:0.5:5'
//                         [--random 'm=normal(1,0.05)' -n 200 --seed 1]
//                         [--metric 'name=max|min|final|rms(<expression>)' ...] [-o DIR] [-j N]
//
// Outputs: DIR/case-<k>/run.* (the case's results), DIR/case-<k>/result (what the case gave,
// written when it ended: a sweep run again skips those cases), DIR/summary.csv and
// DIR/summary.nc (one record per case: parameters, metrics, exit status, wall time).
#include <string>
#include <vector>

namespace mbl::cli {

/// One parameter of the sweep and the values it takes (as -D texts).
struct SweepParameter {
  std::string name;
  std::string type;  ///< as in -D name:type=value; empty: the value's own type
  std::vector<std::string> values;  ///< grid values (empty for a random parameter)
  // Random draws: normal(mean, sd) or uniform(lo, hi).
  std::string distribution;
  double a = 0.0, b = 0.0;
};

/// Parses a --grid argument: "name[:type]=v1,v2,..." or "name=a:b:n" (n values evenly from a
/// to b). Throws std::invalid_argument.
SweepParameter parse_grid(const std::string& text);
/// Parses a --random argument: "name=normal(mean,sd)" or "name=uniform(lo,hi)".
SweepParameter parse_random(const std::string& text);

/// The cases: the product of the grids (the first grid varies slowest), then for random
/// parameters `draws` draws from a generator seeded with `seed` (the same on every machine).
/// Each case is a list of "name[:type]=value" -D arguments.
std::vector<std::vector<std::string>> sweep_cases(const std::vector<SweepParameter>& grids,
                                                  const std::vector<SweepParameter>& randoms,
                                                  long draws, unsigned long long seed);

int sweep_command(int argc, char** argv);

}  // namespace mbl::cli
