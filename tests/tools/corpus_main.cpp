// mbl-corpus: reads (and with --run, runs and compares) the decks of ../shared/corpus.
//   mbl-corpus [--run] [-j N] [--ids REGEX] [--tsv FILE]
// Prints the corpus table of the README; exit 1 when a deck that MBDyn reads gives an input error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <regex>
#include <thread>

#include "tools/corpus.hpp"

int main(int argc, char** argv) {
  using namespace mbl::corpus;
  CLI::App app{"Read, run and compare the real-deck corpus (../shared/corpus) with MBDyn's results"};
  Options o;
  o.program = MBL_BINARY;
  o.corpus = fs::path(MBL_SHARED_DIR) / "corpus";
  o.work = fs::path(MBL_BUILD_DIR) / "corpus";
  o.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
  std::string ids, tsv;
  app.add_flag("--run", o.run, "run the decks that read with every card implemented and compare "
                               "node positions with MBDyn's .mov");
  app.add_option("-j,--jobs", o.jobs, "decks at a time (default: the core count)");
  app.add_option("--ids", ids, "only the decks whose id matches this regular expression");
  app.add_option("--program", o.program, "the mbdyn-like program to test");
  app.add_option("--corpus", o.corpus, "the corpus folder");
  app.add_option("--work", o.work, "where the runs write (default build/corpus)");
  app.add_option("--tol", o.tol, "position error / model size (default 1e-4)");
  app.add_option("--run-timeout", o.run_timeout_s, "seconds a run may take at most (default 600)");
  app.add_option("--tsv", tsv, "write one line per deck (id, status, outcome, error, message)");
  CLI11_PARSE(app, argc, argv);
  std::vector<Deck> decks;
  try {
    decks = read_index(o.corpus);
  } catch (const std::exception& e) {
    std::cerr << "mbl-corpus: error: cannot read " << (o.corpus / "index.json") << ": " << e.what() << '\n';
    return 2;
  }
  if (!ids.empty()) {
    const std::regex re(ids);
    std::erase_if(decks, [&](const Deck& d) { return !std::regex_search(d.id, re); });
  }
  const std::vector<Result> results = process(decks, o);
  std::cout << summary(decks, results, o.run);
  if (!tsv.empty()) {
    std::ofstream out(tsv);
    out << "id\tmbdyn_status\tcheck\toutcome\terror\twall_s\tmessage\tnot_implemented\tvelocity_error\tvelocity_worst\n";
    for (std::size_t i = 0; i < decks.size(); ++i) {
      const Result& r = results[i];
      std::string ni;
      for (const auto& k : r.not_implemented) ni += (ni.empty() ? "" : "; ") + k;
      out << fmt::format("{}\t{}\t{}\t{}\t{:.3g}\t{:.2f}\t{}\t{}\t{:.3g}\t{}\n", r.id, decks[i].mbdyn_status,
                         outcome_name(r.check), outcome_name(r.outcome), r.error, r.wall_s, r.message, ni,
                         r.velocity_error, r.velocity_worst);
    }
  }
  for (std::size_t i = 0; i < decks.size(); ++i)
    if (decks[i].mbdyn_reads() && results[i].check == Outcome::InputError) return 1;
  return 0;
}
