// Our NetCDF and .log files against the real MBDyn's, deck by deck (../shared/decks).
//
// Every deck of decks/index.json that we can run is run in-process up to the derivatives phase
// (enough for every header and the first record) with NetCDF output forced on. Then:
// - decks for which MBDyn wrote a .nc: the headers must agree structurally (dimensions, variable
//   names, types, dimensions, attributes and order; `ncdump -h` without the record count);
// - every deck: each node and element that MBDyn's text files (.mov/.jnt/.frc) have must appear in
//   our .nc with MBDyn's NetCDF names (orientation kind included), and the derivatives record
//   must agree;
// - a few decks: the .log model description must equal MBDyn's line by line.
// CTest label: decks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "mbdyn-like/output/nc_header.hpp"
#include "mbdyn-like/output/results.hpp"
#include "support/run_in_process.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

struct Deck {
  std::string id, main;
  bool netcdf = false;
};

const fs::path kDecks = fs::path(MBL_SHARED_DIR) / "decks";

using test::read_file;

/// id, main and netcdf of every entry of decks/index.json (flat objects; no JSON library here).
std::vector<Deck> all_decks() {
  const std::string json = read_file(kDecks / "index.json");
  std::vector<Deck> out;
  const std::regex object(R"(\{[^{}]*\})");
  const std::regex id(R"x("id"\s*:\s*"([^"]*)")x"), main(R"x("main"\s*:\s*"([^"]*)")x"),
      nc(R"x("netcdf"\s*:\s*(true|false))x");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), object); it != std::sregex_iterator();
       ++it) {
    const std::string o = it->str();
    std::smatch m;
    Deck d;
    if (!std::regex_search(o, m, id)) continue;
    d.id = m[1];
    if (!std::regex_search(o, m, main)) continue;
    d.main = m[1];
    d.netcdf = std::regex_search(o, m, nc) && m[1] == "true";
    out.push_back(d);
  }
  return out;
}

/// Runs `deck` up to the derivatives phase with NetCDF forced on; output prefix `prefix`.
/// Returns false when the deck uses something we do not implement yet.
bool run_to_derivatives(const Deck& deck, const std::string& prefix, std::string& why) {
  return test::run_in_process((kDecks / deck.id / "deck" / deck.main).string(), prefix, AbortAfter::derivatives, true, why);
}

fs::path work_dir() {
  // One folder per process: CTest runs the cases of this file in parallel processes.
  static const fs::path d = mbl::test::fresh_temp_dir("utest_output_deck_headers");
  return d;
}

fs::path mbdyn_file(const Deck& d, const std::string& ext) {
  return kDecks / d.id / "mbdyn" / (d.main + ext);
}

/// The names of the variables MBDyn's NetCDF would have for the entities of its text files
/// (joint "extra" columns have no NetCDF counterpart of that name).
std::set<std::string> entity_variables(const output::Results& r) {
  std::set<std::string> out;
  for (const auto& [name, s] : r.vars)
    if (name.size() < 6 || name.compare(name.size() - 6, 6, ".extra") != 0) out.insert(name);
  return out;
}

/// Text columns with no NetCDF counterpart: the .frc line of an absolute displacement force has
/// the layout of a structural force's (label, node, F, point), so its node position reads as
/// "Arm" ("Arm1", "Arm2" when internal), which MBDyn's .nc does not have (appendix C: F only).
/// Anything else missing is a failure.
bool known_element_gap(const std::string& name) {
  static const std::regex gap(R"(elem\.force\.\d+\.Arm[12]?)");
  return std::regex_match(name, gap);
}

}  // namespace

// Structural agreement of the .nc headers with MBDyn's for the decks that ask for NetCDF.
TEST(OutputDeckHeaders, NetcdfHeadersMatchMbdyn) {
  int compared = 0;
  for (const Deck& d : all_decks()) {
    if (!d.netcdf || !fs::exists(mbdyn_file(d, ".nc"))) continue;
    const std::string prefix = (work_dir() / d.id).string();
    std::string why;
    if (!run_to_derivatives(d, prefix, why)) {
      std::cout << "[ skipped  ] " << d.id << ": " << why << "\n";
      continue;
    }
    const auto ours = output::read_nc_header(prefix + ".nc");
    const auto ref = output::read_nc_header(mbdyn_file(d, ".nc").string());
    const auto diffs = output::diff_nc_headers(ours, ref);
    std::string text;
    for (const auto& l : diffs) text += "  " + l + "\n";
    EXPECT_TRUE(diffs.empty()) << d.id << ": " << diffs.size() << " difference(s)\n" << text;
    ++compared;
  }
  std::cout << "[ compared ] " << compared << " NetCDF header(s)\n";
  EXPECT_GE(compared, 1);
}

// Every deck we run: our NetCDF names cover MBDyn's text output, and the first record agrees.
TEST(OutputDeckHeaders, NetcdfNamesCoverMbdynTextOutput) {
  int ran = 0, skipped = 0, element_gaps = 0;
  for (const Deck& d : all_decks()) {
    if (!fs::exists(mbdyn_file(d, ".mov"))) continue;
    const std::string prefix = (work_dir() / d.id).string();
    std::string why;
    if (!run_to_derivatives(d, prefix, why)) {
      ++skipped;
      continue;
    }
    ++ran;
    const output::Results ours = output::read_netcdf(prefix + ".nc");
    const output::Results ref = output::read_text((kDecks / d.id / "mbdyn" / d.main).string());
    std::string missing;
    for (const auto& name : entity_variables(ref)) {
      if (ours.vars.count(name)) continue;
      if (known_element_gap(name))
        ++element_gaps;
      else
        missing += " " + name;
    }
    EXPECT_TRUE(missing.empty()) << d.id << ": MBDyn writes, our .nc lacks:" << missing;
    // Our text files name the same entities as our NetCDF file.
    const output::Results ours_text = output::read_text(prefix);
    std::string text_only;
    for (const auto& name : entity_variables(ours_text))
      if (!ours.vars.count(name) && !known_element_gap(name)) text_only += " " + name;
    EXPECT_TRUE(text_only.empty()) << d.id << ": in our text output, not in our .nc:" << text_only;
  }
  std::cout << "[ ran      ] " << ran << " deck(s), " << skipped << " skipped (not runnable yet); "
            << element_gaps << " text-only column group(s) of displacement forces\n";
  EXPECT_GE(ran, 20);
}

// The .log model description (appendix E) equals MBDyn's, line by line.
TEST(OutputDeckHeaders, LogMatchesMbdyn) {
  const char* ids[] = {"t.joints.total.total", "t.forces.force.force", "t.joints.gimbal.gimbal",
                       "t.mechanisms.theojansen.main", "sat.rigid_body.input_file.rigidbody",
                       "t.joints.spherical.spherical", "t.scale.scale", "web.cantilever1",
                       "t.drives.drivecallers.periodic", "t.beam.b", "t.joints.drvhinge.drv",
                       "t.joints.deformablehinge.deformablejointeig2", "t.joints.rod.rodwithprestrain"};
  int compared = 0;
  for (const Deck& d : all_decks()) {
    if (std::find_if(std::begin(ids), std::end(ids), [&](const char* s) { return d.id == s; }) ==
        std::end(ids))
      continue;
    const std::string prefix = (work_dir() / ("log." + d.id)).string();
    std::string why;
    if (!run_to_derivatives(d, prefix, why)) {
      std::cout << "[ skipped  ] " << d.id << ": " << why << "\n";
      continue;
    }
    ++compared;
    const std::string ours = read_file(prefix + ".log");
    std::istringstream a(ours), b(read_file(mbdyn_file(d, ".log")));
    std::string la, lb;
    int line = 0, bad = 0;
    while (std::getline(b, lb)) {
      ++line;
      if (!std::getline(a, la)) la = "<end of file>";
      if (la != lb && bad++ < 5)
        ADD_FAILURE() << d.id << ".log line " << line << ":\n  ours:  " << la << "\n  MBDyn: " << lb;
    }
    if (std::getline(a, la)) ADD_FAILURE() << d.id << ".log: extra line " << la;
  }
  std::cout << "[ compared ] " << compared << " .log file(s)\n";
  EXPECT_GE(compared, 10);
}
