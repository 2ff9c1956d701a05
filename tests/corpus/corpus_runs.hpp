#pragma once
// Running a chosen set of corpus decks from a test (../shared/corpus through tools/corpus.hpp),
// shared by the corpus tests of each family.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_program.hpp"
#include "tools/corpus.hpp"

namespace mbl::corpus::test_runs {

inline const fs::path& corpus_dir() {
  static const fs::path dir = fs::path(MBL_SHARED_DIR) / "corpus";
  return dir;
}

/// The decks of `ids` (in the index's order) run and compared with MBDyn's outputs in a fresh
/// work folder `work_name`; `decks` gets the index entries, `work` the folder.
template <class Ids, class IdOf>
std::vector<Result> run_decks(const Ids& ids, IdOf id_of, const std::string& work_name, std::vector<Deck>& decks,
                              fs::path& work) {
  decks.clear();
  for (const Deck& d : read_index(corpus_dir()))
    if (std::any_of(std::begin(ids), std::end(ids), [&](const auto& x) { return d.id == id_of(x); })) decks.push_back(d);
  Options o;
  o.program = MBL_BINARY;
  o.corpus = corpus_dir();
  o.work = work = mbl::test::fresh_temp_dir(work_name);
  o.run = true;
  return process(decks, o);
}

/// "Step" lines of a run's .out.
inline long step_lines(const fs::path& out) {
  std::ifstream f(out);
  long n = 0;
  for (std::string line; std::getline(f, line);) n += line.rfind("Step ", 0) == 0;
  return n;
}

/// The iteration counts of a .out's "Step" lines (its fifth field), in order; MBDyn may indent
/// a line.
inline std::vector<long> step_iterations(const fs::path& out) {
  std::ifstream f(out);
  std::vector<long> iterations;
  for (std::string line; std::getline(f, line);) {
    std::istringstream fields(line);
    std::string word, step, time, dt;
    long n = -1;
    if (fields >> word && word == "Step" && fields >> step >> time >> dt >> n) iterations.push_back(n);
  }
  return iterations;
}

}  // namespace mbl::corpus::test_runs
