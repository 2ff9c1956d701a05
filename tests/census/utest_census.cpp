// The census of MBDyn 2024's input language (docs/conformance/census.md, census.py):
//  * every form of tests/census/forms*.tsv is read in a minimal deck and must be read with no
//    "not implemented", or refused with exactly one "not implemented" located at its card, or
//    (`input error`) refused as MBDyn refuses it;
//  * every kind row of docs/conformance/census.tsv says what our registries do (a kind we read is
//    registered, a kind we refuse is only in the kinds table);
//  * the forms added from the census produce what MBDyn's readers produce (values and behaviour).
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "elements/drives/drive_registry.hpp"
#include "elements/laws/law_reader.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "support/run_program.hpp"

namespace {

struct Form {
  std::string block, card, expect, keyword;
  std::string file;  ///< forms*.tsv it comes from
  int line = 0;      ///< in that file
  /// Column 6 (optional): cards the form needs elsewhere, `<block>: <cards>` entries separated by
  /// ` ## ` (e.g. `nodes: abstract: 10, differential`); blocks are nodes, drivers, elements.
  std::vector<std::pair<std::string, std::string>> setup;
};

/// `$SHARED` in a card stands for ../shared (files the form reads: c81 tables, FEM files, ...).
std::string with_shared(std::string text) {
  for (std::size_t at; (at = text.find("$SHARED")) != std::string::npos;) text.replace(at, 7, MBL_SHARED_DIR);
  return text;
}

/// Every tests/census/forms*.tsv (one file per family group keeps parallel work apart).
std::vector<Form> read_forms() {
  std::vector<Form> forms;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(MBL_SOURCE_DIR) + "/tests/census")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("forms", 0) == 0 && e.path().extension() == ".tsv") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> cols;
      std::istringstream ls(line);
      for (std::string c; std::getline(ls, c, '\t');) cols.push_back(c);
      if (cols.size() < 4) continue;
      Form f{cols[0], with_shared(cols[1]), cols[2], cols[3], file.filename().string(), n, {}};
      if (cols.size() > 5)
        for (std::size_t from = 0; from < cols[5].size();) {
          std::size_t to = cols[5].find(" ## ", from);
          if (to == std::string::npos) to = cols[5].size();
          const std::string entry = cols[5].substr(from, to - from);
          const std::size_t colon = entry.find(':');
          if (colon != std::string::npos)
            f.setup.emplace_back(entry.substr(0, colon), with_shared(entry.substr(entry.find_first_not_of(' ', colon + 1))));
          from = to + 4;
        }
      forms.push_back(std::move(f));
    }
  }
  return forms;
}

/// The setup cards of `f` for `block`, each alone on its line.
std::vector<std::string> setup_of(const Form& f, const std::string& block) {
  std::vector<std::string> cards;
  for (const auto& [b, text] : f.setup)
    if (b == block) cards.push_back(text + ";");
  return cards;
}

/// A minimal deck with `card` in its `block`; the card is alone on line `card_line`.
std::string minimal_deck(const Form& f, int& card_line) {
  const bool inverse = f.block == "inversedynamics" || f.card == "problem: inverse dynamics" ||
                       setup_of(f, "data") == std::vector<std::string>{"problem: inverse dynamics;"};  // element forms
  const std::string iv = inverse ? "inverse dynamics" : "initial value";
  std::ostringstream d;
  int line = 1;
  auto put = [&](const std::string& s, bool is_card = false) {
    if (is_card) card_line = line;
    d << s << '\n';
    ++line;
  };
  put("begin: data;");
  if (f.block == "data") put(f.card + ";", true);
  else put("problem: " + iv + ";");
  put("end: data;");
  put("begin: " + iv + ";");
  put("initial time: 0.; final time: 1e-3; time step: 1e-3;");
  if (f.block == "initialvalue" || f.block == "inversedynamics") put(f.card + ";", true);
  put("end: " + iv + ";");
  const bool model_forms = f.block == "nodes" || f.block == "elements" || f.block == "drivers";
  put("begin: control data;");
  // Node and element forms are read without counters (we count only what is declared).
  if (!model_forms) put("structural nodes: 1;");
  if (f.block == "controldata") put(f.card + ";", true);
  put("end: control data;");
  put("begin: nodes;");
  put("structural: 1, static, null, eye, null, null;");
  if (model_forms) {
    put("structural: 2, dynamic, 1., 0., 0., eye, null, null;");
    put("structural: 3, static, 1., 1., 0., eye, null, null;");
    put("structural: 4, static, 0., 1., 0., eye, null, null;");
  }
  for (const std::string& c : setup_of(f, "nodes")) put(c);
  if (f.block == "nodes") put(f.card + ";", true);
  put("end: nodes;");
  const std::vector<std::string> setup_drivers = setup_of(f, "drivers");
  if (f.block == "drivers" || !setup_drivers.empty()) {
    put("begin: drivers;");
    for (const std::string& c : setup_drivers) put(c);
    if (f.block == "drivers") put(f.card + ";", true);
    put("end: drivers;");
  }
  put("begin: elements;");
  for (const std::string& c : setup_of(f, "elements")) put(c);
  if (f.block == "elements") put(f.card + ";", true);
  put("end: elements;");
  return d.str();
}

TEST(Census, EveryFormOfTheFormsTableReadsAsExpected) {
  const std::vector<Form> forms = read_forms();
  ASSERT_GT(forms.size(), 50u);
  for (const Form& f : forms) {
    SCOPED_TRACE(f.file + ":" + std::to_string(f.line) + ": " + f.card);
    int card_line = 0;
    const std::string deck = minimal_deck(f, card_line);
    if (f.expect == "input error") {
      EXPECT_THROW(mbl::read_deck_text("form.mbd", deck), mbl::parser::InputError);
      continue;
    }
    mbl::BuildResult r;
    try {
      r = mbl::read_deck_text("form.mbd", deck);
    } catch (const mbl::parser::InputError& e) {
      ADD_FAILURE() << e.where().str() << ": " << e.message();
      continue;
    }
    if (f.expect == "read") {
      EXPECT_EQ(r.not_implemented, 0u);
      for (const auto& dg : r.read_context->diagnostics())
        if (dg.severity == "not implemented") ADD_FAILURE() << dg.where.str() << ": " << dg.message;
    } else {
      ASSERT_EQ(f.expect, "not implemented");
      ASSERT_EQ(r.not_implemented, 1u);
      for (const auto& dg : r.read_context->diagnostics())
        if (dg.severity == "not implemented") {
          EXPECT_EQ(dg.where.line, card_line) << dg.message;
        }
    }
  }
}

// The registries of our readers, keyword by keyword: CardRegistry families, the constitutive laws
// of every dimension, the drive callers.
const char* const kRegistries[] = {"node",        "element",    "unlabelled element", "joint",   "genel",
                                   "force type",  "couple type", "definition",        "driver",  "hydraulic",
                                   "electric",    "thermal",    "control data",       "constitutive law",
                                   "drive caller"};

bool registered(const std::string& registry, const std::string& keyword) {
  const std::string k = mbl::CardRegistry::normalise(keyword);
  if (registry == "constitutive law")
    return mbl::laws::LawRegistry<1>::instance().find(k) || mbl::laws::LawRegistry<3>::instance().find(k) ||
           mbl::laws::LawRegistry<6>::instance().find(k);
  if (registry == "drive caller") {
    static const std::set<std::string> drives = [] {
      mbl::drives::DriveCallerRegistry r;
      mbl::drives::register_function_drives(r);
      mbl::drives::register_composite_drives(r);
      mbl::drives::register_stateful_drives(r);
      mbl::drives::register_entity_drives(r);
      mbl::drives::register_file_drive(r);
      std::set<std::string> keys;
      for (const auto& [key, reader] : r) keys.insert(mbl::CardRegistry::normalise(key));
      return keys;
    }();
    return drives.count(k) > 0;
  }
  return mbl::CardRegistry::family(registry).find(k) != nullptr;
}

struct CensusRow {
  std::string family, keyword, status, how;
};

std::vector<CensusRow> read_census() {
  std::vector<CensusRow> rows;
  std::ifstream in(std::string(MBL_SOURCE_DIR) + "/docs/conformance/census.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> c;
    std::istringstream ls(line);
    for (std::string x; std::getline(ls, x, '\t');) c.push_back(x);
    if (c.size() >= 7) rows.push_back({c[0], c[1], c[2], c[6]});
  }
  return rows;
}

/// docs/conformance/registry.tsv: which keyword of MBDyn's dispatch tables and registrations each
/// of our registries takes (census.py reads it for the kind rows).
std::string registry_table() {
  std::set<std::string> lines;
  for (const CensusRow& r : read_census()) {
    if (r.how.rfind("table", 0) != 0 && r.how.rfind("registered", 0) != 0) continue;
    for (const char* reg : kRegistries)
      if (registered(reg, r.keyword)) lines.insert(std::string(reg) + "\t" + mbl::CardRegistry::normalise(r.keyword));
  }
  std::string text = "registry\tkeyword\n";
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

// The committed registry table is the registries' own (MBL_CENSUS_WRITE=1 rewrites it; then run
// docs/conformance/census.py).
TEST(Census, RegistryTableIsCurrent) {
  const std::string path = std::string(MBL_SOURCE_DIR) + "/docs/conformance/registry.tsv";
  const std::string live = registry_table();
  if (std::getenv("MBL_CENSUS_WRITE")) std::ofstream(path) << live;
  EXPECT_EQ(mbl::test::read_file(path), live) << "run MBL_CENSUS_WRITE=1 build/utest_census, then census.py";
}

// Kind rows of the generated census: a kind marked read is registered by a reader of ours, one
// marked not implemented by none (it is only in the kinds table, which refuses it with its section).
// Every kind has a form of its own (tests/census/forms_kinds.tsv): a kind registered later shows
// here until it gets its form.
TEST(Census, KindRowsAgreeWithTheRegistries) {
  const std::vector<CensusRow> rows = read_census();
  ASSERT_GT(rows.size(), 1500u) << "run python3 docs/conformance/census.py";
  int checked = 0;
  for (const CensusRow& r : rows) {
    EXPECT_NE(r.status, "missing") << r.family << ": " << r.keyword;
    if (r.status.rfind("read (registry: ", 0) == 0) {
      ++checked;
      const std::string reg = r.status.substr(16, r.status.size() - 17);
      EXPECT_TRUE(registered(reg, r.keyword)) << r.family << ": " << r.keyword << " (" << reg << ")";
    } else if (r.status.rfind("not implemented (kinds table: ", 0) == 0) {
      ++checked;
      for (const char* reg : kRegistries) EXPECT_FALSE(registered(reg, r.keyword)) << r.keyword << " in " << reg;
      const std::string fam = r.status.substr(30, r.status.find(',') - 30);
      EXPECT_NE(mbl::kinds::find(fam, r.keyword), nullptr) << r.keyword << " in " << fam;
    }
  }
  EXPECT_EQ(checked, 0) << "kinds proven only by their registration: add a form each to tests/census/forms_kinds.tsv";
}

mbl::BuildResult read_control(const std::string& control, const std::string& initial_value = "") {
  return mbl::read_deck_text("census.mbd",
                             "begin: data; problem: initial value; end: data;\n"
                             "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3;\n" +
                                 initial_value +
                                 "end: initial value;\n"
                                 "begin: control data; structural nodes: 1;\n" +
                                 control +
                                 "end: control data;\n"
                                 "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
                                 "begin: elements; end: elements;\n");
}

TEST(Census, StiffnessIsTheNewerNameOfInitialStiffness) {
  const mbl::BuildResult a = read_control("stiffness: 2., 3.;\n");
  EXPECT_EQ(a.settings.assembly_position_stiffness, 2.0);
  EXPECT_EQ(a.settings.assembly_velocity_stiffness, 3.0);
  const mbl::BuildResult b = read_control("stiffness: 5.;\n");
  EXPECT_EQ(b.settings.assembly_position_stiffness, 5.0);
  EXPECT_EQ(b.settings.assembly_velocity_stiffness, 5.0);
  const mbl::BuildResult c = read_control("initial stiffness: 4., 7.;\n");
  EXPECT_EQ(c.settings.assembly_position_stiffness, 4.0);
  EXPECT_EQ(c.settings.assembly_velocity_stiffness, 7.0);
}

TEST(Census, EpsilonAndMaxResidualValues) {
  EXPECT_EQ(read_control("epsilon: 0.25;\n").settings.assembly_epsilon, 0.25);
  EXPECT_EQ(read_control("").settings.assembly_epsilon, 1.0);
  EXPECT_THROW(read_control("epsilon: 0.;\n"), mbl::parser::InputError);
  EXPECT_EQ(read_control("", "max residual: 1e3;\n").settings.newton.max_residual, 1e3);
  EXPECT_EQ(read_control("", "max residual: all equations, 2e3;\n").settings.newton.max_residual, 2e3);
  EXPECT_TRUE(std::isinf(read_control("").settings.newton.max_residual));
  EXPECT_THROW(read_control("", "max residual: -1.;\n"), mbl::parser::InputError);
}

TEST(Census, JacobianMeterRejectsAnOrderMbdynDoesNotHave) {
  EXPECT_THROW(read_control("finite difference jacobian meter: 1., order, 3;\n"), mbl::parser::InputError);
}

// MBDyn 2024 counts `user defined:` elements under control data `loadable elements:`
// (dataman4.cc); our older `user defined elements:` counts the same cards.
TEST(Census, LoadableElementsCountsUserDefinedElements) {
  auto deck = [](const std::string& counter) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;\n"
           "begin: control data; structural nodes: 1; " +
           counter +
           "end: control data;\n"
           "module load: \"lua\", chunk, \"function f(e) end\";\n"
           "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
           "begin: elements;\n"
           "user defined: 1, lua, 1, 1, function, \"f\";\n"
           "end: elements;\n";
  };
  EXPECT_NO_THROW(mbl::read_deck_text("loadable.mbd", deck("loadable elements: 1;\n")));
  EXPECT_NO_THROW(mbl::read_deck_text("loadable.mbd", deck("user defined elements: 1;\n")));
  EXPECT_THROW(mbl::read_deck_text("loadable.mbd", deck("loadable elements: 2;\n")), mbl::parser::InputError);
}

// `element` drives, `bind` and `driven: existing` name element types as MBDyn's psReadElemsElems
// does: blanks and case ignored, `loadable` for user defined elements, `force` for couples too.
TEST(Census, ElementTypesAsMbdynNamesThem) {
  const mbl::BuildResult r = mbl::read_deck_text(
      "types.mbd",
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;\n"
      "begin: control data; end: control data;\n"
      "module load: \"lua\", chunk, \"function f(e) end\";\n"
      "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
      "begin: elements;\n"
      "couple: 3, absolute, 1, 0., 0., 1., const, 1.;\n"
      "user defined: 4, lua, 1, 1, function, \"f\";\n"
      "joint: 5, clamp, 1, node, node;\n"
      "end: elements;\n");
  const mbl::Model& m = *r.model;
  ASSERT_NE(m.find_element("couple", 3), nullptr);
  EXPECT_EQ(m.find_element("force", 3), m.find_element("couple", 3));
  ASSERT_NE(m.find_element("user defined", 4), nullptr);
  EXPECT_EQ(m.find_element("loadable", 4), m.find_element("user defined", 4));
  EXPECT_EQ(m.find_element("userdefined", 4), m.find_element("user defined", 4));
  EXPECT_NE(m.find_element("Joint", 5), nullptr);
  EXPECT_EQ(m.find_element("joint", 3), nullptr);
}

// ---- behaviour through the whole program ------------------------------------------------------

/// A pendulum whose node starts 0.1 off its hinge radius, so that the initial assembly iterates.
std::string pendulum(const std::string& initial_value_extra, const std::string& control_extra) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value;\n"
         "  initial time: 0.; final time: 0.02; time step: 1e-2;\n"
         "  max iterations: 10; tolerance: 1e-6; method: ms, .6;\n" +
         initial_value_extra +
         "end: initial value;\n"
         "begin: control data;\n"
         "  structural nodes: 2; rigid bodies: 1; joints: 2; gravity;\n"
         "  max iterations: 100; tolerance: 1e-12;\n" +
         control_extra +
         "end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, null, eye, null, null, output, no;\n"
         "  structural: 2, dynamic, 1., 1.1, 0., eye, null, null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  body: 2, 2, 10., null, diag, 1e-3, 1e-3, 1e-3;\n"
         "  joint: 1, clamp, 1, node, node;\n"
         "  joint: 2, spherical hinge, 1, 1., 0., 0., 2, 0., -1., 0.;\n"
         "  gravity: 0., 0., -1., const, 9.81;\n"
         "end: elements;\n";
}

std::vector<double> first_mov_line(const mbl::test::TextDeckRun& r) {
  std::istringstream mov(mbl::test::read_file(r.output("mov")));
  std::vector<double> v;
  std::string line;
  std::getline(mov, line);
  std::istringstream ls(line);
  for (double x; ls >> x;) v.push_back(x);
  return v;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// `epsilon:` scales each correction of the initial assembly: the same assembled configuration
// (its fixed point) in more iterations.
TEST(Census, EpsilonSlowsTheInitialAssemblyToTheSameConfiguration) {
  const auto full = mbl::test::run_deck_text("census_eps1", pendulum("  output: iterations;\n", ""));
  const auto half = mbl::test::run_deck_text("census_eps05", pendulum("  output: iterations;\n", "  epsilon: 0.5;\n"));
  ASSERT_EQ(full.rc, 0) << full.log();
  ASSERT_EQ(half.rc, 0) << half.log();
  const std::vector<double> a = first_mov_line(full), b = first_mov_line(half);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 4u);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_NEAR(a[i], b[i], 1e-8);
  EXPECT_GT(count(half.log(), "Iteration("), count(full.log(), "Iteration("));
}

// `max residual:` fails a step whose residual exceeds it while the step can still be halved
// (dt > 2 min time step), as MBDyn's CheckTimeStepLimit; `strategy: factor` then retries.
TEST(Census, MaxResidualFailsTheStepUntilItCannotBeHalved) {
  const auto stop = mbl::test::run_deck_text("census_maxres_stop", pendulum("  max residual: 1e-12;\n", ""));
  EXPECT_EQ(stop.rc, 3) << stop.log();
  EXPECT_NE(stop.log().find("maximum residual"), std::string::npos) << stop.log();
  const auto retry = mbl::test::run_deck_text(
      "census_maxres_retry",
      pendulum("  max residual: 1e-12;\n  strategy: factor, .5, 1, 1.25, 3, 0;\n  min time step: 2.5e-3;\n", ""));
  EXPECT_EQ(retry.rc, 0) << retry.log();
  EXPECT_NE(retry.log().find("retrying with time step 0.005"), std::string::npos) << retry.log();
  const auto loose = mbl::test::run_deck_text("census_maxres_loose", pendulum("  max residual: 1e10;\n", ""));
  EXPECT_EQ(loose.rc, 0) << loose.log();
}

// `reference, other position | other orientation` (input manual §2.4.8, MBDyn's GetPosRel and
// GetRotRel with the other frame): node 2's data given from node 1's offset point and in node 1's
// hinge axes. Three spellings of the same revolute hinge must run to the same output.
std::string hinge_deck(const std::string& side2) {
  // Node 1 is displaced and turned by 30 degrees about z, so that its frame is not the global one.
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 0.05; time step: 1e-2;\n"
         "  max iterations: 10; tolerance: 1e-6; method: ms, .6; end: initial value;\n"
         "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; gravity; output precision: 16; end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, 0.1, 0., 0.05, euler, 0., 0., pi/6, null, null, output, no;\n"
         "  structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  body: 2, 2, 10., null, diag, 1e-3, 1e-3, 1e-3;\n"
         "  joint: 1, clamp, 1, node, node;\n"
         "  joint: 2, revolute hinge, 1, 0.2, 0., 0., hinge, 1, 1., 0., 0., 2, 0., 0., 1.,\n"
         "    2, " + side2 + ";\n"
         "  gravity: 0., 0., -1., const, 9.81;\n"
         "end: elements;\n";
}

std::vector<double> numbers(const std::string& text) {
  std::istringstream in(text);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

TEST(Census, OtherPositionAndOtherOrientationReferToTheFirstSide) {
  // Node 1's hinge point and axes in the global frame: x1 + R1 (0.2, 0, 0); R1 R1h.
  const auto global = mbl::test::run_deck_text(
      "census_other_global",
      hinge_deck("reference, global, 0.1 + 0.2*cos(pi/6), 0.2*sin(pi/6), 0.05,"
                 " hinge, reference, global, 1, cos(pi/6), sin(pi/6), 0., 2, 0., 0., 1."));
  const auto other = mbl::test::run_deck_text(
      "census_other_side", hinge_deck("reference, other position, null, hinge, reference, other orientation, eye"));
  const auto node = mbl::test::run_deck_text(
      "census_other_node",
      hinge_deck("reference, other node, 0.2, 0., 0., hinge, reference, other node, 1, 1., 0., 0., 2, 0., 0., 1."));
  ASSERT_EQ(global.rc, 0) << global.log();
  ASSERT_EQ(other.rc, 0) << other.log();
  ASSERT_EQ(node.rc, 0) << node.log();
  const std::vector<double> ref = numbers(mbl::test::read_file(global.output("mov")));
  ASSERT_GT(ref.size(), 60u);
  for (const auto* run : {&other, &node}) {
    const std::vector<double> v = numbers(mbl::test::read_file(run->output("mov")));
    ASSERT_EQ(v.size(), ref.size());
    for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], ref[i], 1e-9) << "value " << i;
  }
  // `other orientation` where a position is read (and the converse) is an input error, as in MBDyn.
  EXPECT_THROW(mbl::read_deck_text("bad.mbd", hinge_deck("reference, other orientation, null, hinge, eye")),
               mbl::parser::InputError);
  EXPECT_THROW(mbl::read_deck_text("bad.mbd", hinge_deck("null, hinge, reference, other position, eye")),
               mbl::parser::InputError);
}

// ---- solver-side forms (tests/census/forms_solver.tsv): values and behaviour -----------------

// `nonlinear solver: default` is Newton-Raphson (MBDyn's nonlin.h: DEFAULT = NEWTONRAPHSON);
// `abort after: fictitious steps` is the older name of `dummy steps`.
TEST(CensusSolver, DefaultNonlinearSolverAndAbortAfterNames) {
  const mbl::BuildResult d = read_control("", "nonlinear solver: newton raphson, modified, 4;\nnonlinear solver: default;\n");
  EXPECT_EQ(d.settings.newton.jacobian_every, 1);
  EXPECT_FALSE(d.settings.newton.line_search.enabled);
  const mbl::BuildResult m = read_control("", "nonlinear solver: default, modified, 3, keep jacobian matrix;\n");
  EXPECT_EQ(m.settings.newton.jacobian_every, 3);
  EXPECT_TRUE(m.settings.newton.keep_jacobian);
  EXPECT_EQ(read_control("", "abort after: fictitious steps;\n").settings.abort_after, mbl::AbortAfter::dummy_steps);
  EXPECT_EQ(read_control("", "abort after: regular step, 4;\n").settings.abort_after_step, 4);
  EXPECT_THROW(read_control("", "abort after: regular step, -1;\n"), mbl::parser::InputError);
  EXPECT_EQ(read_control("", "abort after: dummy steps;\n").settings.abort_after, mbl::AbortAfter::dummy_steps);
  EXPECT_EQ(read_control("", "abort after: assembly;\n").settings.abort_after, mbl::AbortAfter::assembly);
  // Any other word stops the input, as MBDyn's "Don't know when to abort".
  EXPECT_THROW(read_control("", "abort after: lunch;\n"), mbl::parser::InputError);
  EXPECT_NE(read_control("", "output meter: const, 0.;\n").settings.diagnostics_meter, nullptr);
}

// `abort after: regular step, <n>` ends the run normally after n regular steps (MBDyn's
// Solver::Advance); the pendulum runs 2 steps to 0.02 s, so 1 line of .mov per step plus the
// initial one.
TEST(CensusSolver, AbortAfterRegularStepEndsTheRunThere) {
  auto mov_lines = [](const mbl::test::TextDeckRun& r) {
    std::istringstream mov(mbl::test::read_file(r.output("mov")));
    int n = 0;
    for (std::string line; std::getline(mov, line);) n += !line.empty();
    return n;
  };
  const auto full = mbl::test::run_deck_text("census_abort_full", pendulum("", ""));
  const auto one = mbl::test::run_deck_text("census_abort_one", pendulum("  abort after: regular step, 1;\n", ""));
  ASSERT_EQ(full.rc, 0) << full.log();
  ASSERT_EQ(one.rc, 0) << one.log();
  EXPECT_EQ(mov_lines(full), 3);
  EXPECT_EQ(mov_lines(one), 2);
}

// The initial value block's `output meter:` gates the solver's diagnostics (MBDyn's
// SolverDiagnostics::outputMeter): a null meter prints no regular-step iterations.
TEST(CensusSolver, OutputMeterGatesTheIterationDiagnostics) {
  const auto all = mbl::test::run_deck_text("census_meter_all", pendulum("  output: iterations;\n", ""));
  const auto none =
      mbl::test::run_deck_text("census_meter_none", pendulum("  output: iterations;\n  output meter: const, 0.;\n", ""));
  ASSERT_EQ(all.rc, 0) << all.log();
  ASSERT_EQ(none.rc, 0) << none.log();
  EXPECT_LT(count(none.log(), "Iteration("), count(all.log(), "Iteration("));
}

// Node cards: `output, default` keeps the default, `output: structural, accelerations, ...`
// turns the nodes' accelerations on, `scale, 1.` / `scale, default` read (dataman3.cc ReadNodes).
TEST(CensusSolver, NodeOutputAccelerationsAndScale) {
  auto deck = [](const std::string& control, const std::string& nodes) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;\n"
           "begin: control data; " + control + " end: control data;\n"
           "begin: nodes;\n" + nodes + "end: nodes;\nbegin: elements; end: elements;\n";
  };
  const mbl::BuildResult r = mbl::read_deck_text(
      "nodes.mbd", deck("default output: none;",
                        "structural: 1, dynamic, null, eye, null, null, output, default;\n"
                        "structural: 2, dynamic, null, eye, null, null, scale, 1.;\n"
                        "abstract: 3, algebraic, scale, default, output, yes;\n"
                        "output: structural, accelerations, 2;\n"));
  const mbl::Model& m = *r.model;
  EXPECT_FALSE(m.find_node("structural", 1)->output_enabled());
  EXPECT_TRUE(m.find_node("structural", 2)->output_enabled());
  EXPECT_TRUE(m.find_node("abstract", 3)->output_enabled());
  EXPECT_FALSE(dynamic_cast<const mbl::StructNode*>(m.find_node("structural", 1))->compute_accelerations);
  EXPECT_TRUE(dynamic_cast<const mbl::StructNode*>(m.find_node("structural", 2))->compute_accelerations);
  EXPECT_EQ(mbl::read_deck_text("s.mbd", deck("", "abstract: 3, scale, 3.;\n")).not_implemented, 0u);
  EXPECT_THROW(mbl::read_deck_text("s.mbd", deck("", "abstract: 3, scale, -1.;\n")), mbl::parser::InputError);
}

// ---- element forms (tests/census/forms_elements.tsv) ---------------------------------------------

/// A cantilever of one beam3 (nodes 1 clamped, 2, 3 dynamic) with a tip force: `point_R` is each
/// point's orientation, `section1` and `section2` the sections' orientations.
std::string cantilever_deck(const std::string& point_R, const std::string& section1, const std::string& section2) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 5e-3; time step: 1e-3; tolerance: 1e-8;\n"
         "  max iterations: 20; method: ms, 0.6; end: initial value;\n"
         "begin: control data; structural nodes: 3; rigid bodies: 2; joints: 1; beams: 1; forces: 1;\n"
         "end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, null, eye, null, null;\n"
         "  structural: 2, dynamic, 0.5, 0., 0., eye, null, null;\n"
         "  structural: 3, dynamic, 1., 0., 0., eye, null, null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  joint: 1, clamp, 1, node, node;\n"
         "  body: 2, 2, 1., null, diag, 1e-3, 1e-3, 1e-3;\n"
         "  body: 3, 3, 1., null, diag, 1e-3, 1e-3, 1e-3;\n"
         "  beam3: 1, 1, position, null, " + point_R + ", 2, null, " + point_R + ", 3, null, " + point_R + ",\n"
         "    " + section1 + ", linear elastic generic, diag, 1e6, 1e6, 1e6, 1e3, 1e3, 1e3,\n"
         "    " + section2 + ", same;\n"
         "  force: 1, absolute, 3, position, null, 0., 0., 1., const, 10.;\n"
         "end: elements;\n";
}

/// Both cantilever runs succeed and write the same .mov, record for record, and the tip moved
/// (the comparison is not between two runs at rest).
void expect_same_motion(const mbl::test::TextDeckRun& reference, const mbl::test::TextDeckRun& run) {
  ASSERT_EQ(reference.rc, 0) << reference.log();
  ASSERT_EQ(run.rc, 0) << run.log();
  const std::vector<double> ref = numbers(mbl::test::read_file(reference.output("mov")));
  const std::vector<double> v = numbers(mbl::test::read_file(run.output("mov")));
  ASSERT_GT(ref.size(), 50u);
  ASSERT_EQ(v.size(), ref.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], ref[i]) << "value " << i;
  EXPECT_NE(v[v.size() - 13 + 3], 0.0);  // z of node 3 in the last record
}

TEST(Census, BeamRotAndNodeAreMbdynsAliasesOfOrientationAndFromNodes) {
  // beam.cc ReadBeam: `rot` reads the point orientation as `orientation` does, `node` the section
  // orientation as `from nodes` does; the runs must be the same record for record.
  const auto spelled = mbl::test::run_deck_text("census_beam_orientation",
                                                cantilever_deck("orientation, eye", "from nodes", "from nodes"));
  const auto alias = mbl::test::run_deck_text("census_beam_rot", cantilever_deck("rot, eye", "node", "node"));
  expect_same_motion(spelled, alias);
}

TEST(Census, FixedStepFileDriverTakesInitialTimeAndTimeStepFromTheFile) {
  // fixedstep.cc FixedStepDR::Read: `initial time, from file` and `time step, from file` read the
  // `# initial time: t0` and `# time step: dt` comment lines of the data file.
  const std::filesystem::path dir = mbl::test::fresh_temp_dir("census_fixed_step_file");
  std::ofstream(dir / "values.dat") << "# initial time: 0.\n# time step: 1e-3\n0.\n5.\n10.\n15.\n20.\n25.\n";
  std::ofstream(dir / "plain.dat") << "0.\n5.\n10.\n15.\n20.\n25.\n";
  auto deck = [](const std::string& driver) {
    std::string d = cantilever_deck("orientation, eye", "from nodes", "from nodes");
    d.replace(d.find("begin: elements;"), 0, "begin: drivers;\n  " + driver + ";\nend: drivers;\n");
    d.replace(d.find("const, 10."), 10, "file, 1, 1");
    d.replace(d.find("forces: 1;"), 10, "forces: 1; file drivers: 1;");
    return d;
  };
  const auto from_file = mbl::test::run_deck_text(
      "census_fixed_step_from_file",
      deck("file: 1, fixed step, 6, 1, initial time, from file, time step, from file, \"" + (dir / "values.dat").string() + "\""));
  const auto given = mbl::test::run_deck_text(
      "census_fixed_step_given", deck("file: 1, fixed step, 6, 1, 0., 1e-3, \"" + (dir / "plain.dat").string() + "\""));
  expect_same_motion(given, from_file);
  // A file without the comment lines is refused, as MBDyn refuses it.
  EXPECT_THROW(mbl::read_deck_text("bad.mbd", deck("file: 1, fixed step, 6, 1, initial time, from file, 1e-3, \"" +
                                                   (dir / "plain.dat").string() + "\"")),
               mbl::parser::InputError);
}


// ---- kind forms (tests/census/forms_kinds.tsv): values and behaviour ------------------------------

// `zero` is the deprecated name of the `null` template drive (tpldrive_impl.cc InitTplDC): a
// second force through `zero` must leave the cantilever's motion that of `null`, record for record.
TEST(CensusKinds, TemplateDriveZeroIsNull) {
  auto deck = [](const std::string& tpl) {
    std::string d = cantilever_deck("orientation, eye", "from nodes", "from nodes");
    d.replace(d.find("forces: 1;"), 10, "forces: 2;");
    d.replace(d.find("end: elements;"), 0, "  force: 2, absolute, 2, position, null, " + tpl + ";\n");
    return d;
  };
  expect_same_motion(mbl::test::run_deck_text("census_tpl_null", deck("null")),
                     mbl::test::run_deck_text("census_tpl_zero", deck("zero")));
  // A drive that is not null does move node 2 differently (the comparison can fail).
  const auto pushed = mbl::test::run_deck_text("census_tpl_single", deck("single, 0., 0., 1., const, 5."));
  ASSERT_EQ(pushed.rc, 0) << pushed.log();
  EXPECT_NE(mbl::test::read_file(pushed.output("mov")),
            mbl::test::read_file(mbl::test::run_deck_text("census_tpl_zero2", deck("zero")).output("mov")));
}

// Control data `RTAI output:` (deprecated, dataman3.cc ReadControl) counts the socket stream output
// elements as `output elements:` does: the declared count is checked against the cards.
TEST(CensusKinds, RtaiOutputCountsTheOutputElements) {
  auto deck = [](const std::string& count, const std::string& elements) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;\n"
           "begin: control data; structural nodes: 1; " + count + " end: control data;\n"
           "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
           "begin: elements;\n" + elements + "end: elements;\n";
  };
  const std::string stream = "stream output: 1, create, yes, local, \"/tmp/census_kinds_rtai.sock\", values, 1, drive, const, 1.;\n";
  for (const char* counter : {"RTAI output: 1;", "output elements: 1;"}) {
    SCOPED_TRACE(counter);
    EXPECT_EQ(mbl::read_deck_text("rtai.mbd", deck(counter, stream)).not_implemented, 0u);
    EXPECT_THROW(mbl::read_deck_text("rtai.mbd", deck(counter, "")), mbl::parser::InputError);
  }
}

// The parameter node's `sample'n'hold` (apostrophes and all, dataman3.cc ReadNodes) is read as
// `sample and hold` is (tests/elements/utest_elements_parameter_nodes.cpp: what it holds).
TEST(CensusKinds, SampleNHoldIsReadByName) {
  for (const char* spelling : {"sample'n'hold", "sample and hold"}) {
    const mbl::BuildResult r = mbl::read_deck_text(
        "snh.mbd",
        "begin: data; problem: initial value; end: data;\n"
        "begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;\n"
        "begin: control data; end: control data;\n"
        "begin: nodes;\n"
        "abstract: 10, differential;\n"
        "parameter: 5, " + std::string(spelling) + ", 10, abstract, 1e-3;\n"
        "end: nodes;\nbegin: elements; end: elements;\n");
    EXPECT_EQ(r.not_implemented, 0u) << spelling;
    EXPECT_NE(r.model->find_node("parameter", 5), nullptr) << spelling;
  }
}

/// The pendulum with a deformable hinge of 3D law `law` between its nodes, resisting the fall.
std::string deformable_hinge_deck(const std::string& law) {
  std::string d = pendulum("", "  output precision: 16;\n");
  d.replace(d.find("joints: 2;"), 10, "joints: 3;");
  d.replace(d.find("end: elements;"), 0, "  joint: 3, deformable hinge, 1, 2, " + law + ";\n");
  return d;
}

// MBDyn's `linear (visco)elastic bistop` takes a scalar stiffness (and viscosity) in every
// dimension, the isotropic law it wraps (constltp_impl.cc LinearBiStopCLR): active throughout, the
// 3D bistop moves the body as the isotropic linear law does, record for record.
TEST(CensusKinds, LinearBiStopIsIsotropicInThreeDimensions) {
  auto run = [](const std::string& name, const std::string& law) {
    const auto r = mbl::test::run_deck_text(name, deformable_hinge_deck(law));
    EXPECT_EQ(r.rc, 0) << r.log();
    return mbl::test::read_file(r.output("mov"));
  };
  const std::string elastic = run("census_bistop_le", "linear elastic, 5e3");
  EXPECT_EQ(run("census_bistop_leb", "linear elastic bistop, 5e3, initial status, active, const, 0., const, 0."), elastic);
  EXPECT_NE(run("census_bistop_le10", "linear elastic, 1e3"), elastic);  // the stiffness shows in the motion
  EXPECT_EQ(run("census_bistop_lvb", "linear viscoelastic bistop, 5e3, 20., initial status, active, const, 0., const, 0."),
            run("census_bistop_lv", "linear viscoelastic, 5e3, 20."));
}

}  // namespace
