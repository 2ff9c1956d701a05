// The derivatives phase's `derivatives coefficient: [c,] auto [, max iterations, n] [, factor, f]`
// (input manual §4.1.2) as MBDyn runs it: a failed attempt restarts from the assembled state with
// c f, ..., c f^n, then c / f, ..., c / f^n, then the coefficient of the smallest error with the
// tolerance relaxed to it; the card's values are checked.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"
#include "support/run_program.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

/// A falling body; the derivatives tolerance (1e-30) cannot be met, so every attempt fails.
std::string falling_body(const std::string& coefficient_card) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 0.01; time step: 1.e-3;\n"
         "  derivatives tolerance: 1e-30; derivatives max iterations: 1;\n"
         "  " + coefficient_card + "\n"
         "end: initial value;\n"
         "begin: control data; structural nodes: 1; rigid bodies: 1; gravity; end: control data;\n"
         "begin: nodes; structural: 1, dynamic, 0.1, 0.2, 0.3, eye, 1., 0., 0., 0., 0., 1.; end: nodes;\n"
         "begin: elements; body: 1, 1, 2., 0.1, 0., 0., diag, 1., 2., 3.;\n"
         "  gravity: uniform, 0., 0., -1., const, 9.81; end: elements;\n";
}

/// Runs the falling body with `coefficient_card` through the program; its log (stdout, stderr),
/// and its .out in `out` if given.
std::string run_log(const std::string& coefficient_card, std::string* out = nullptr) {
  const fs::path dir = test::fresh_temp_dir("utest_phases_derivatives");
  const fs::path deck = dir / "fall.mbd";
  std::ofstream(deck) << falling_body(coefficient_card);
  const int rc = test::run(test::quoted(MBL_BINARY) + " -f " + test::quoted(deck) + " -o " + test::quoted(dir / "run"),
                           dir / "console.txt");
  const std::string log = test::read_file(dir / "console.txt");
  EXPECT_EQ(rc, 0) << log;
  if (out) *out = test::read_file(dir / "run.out");
  fs::remove_all(dir);
  return log;
}

/// The iterations of the derivatives phase of the falling body run with `cards`, from its .out.
int derivatives_iterations(const std::string& cards) {
  std::string out;
  run_log(cards, &out);
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(Derivatives solution step at time 0 performed in (\d+) iterations)")))
    return -1;
  return std::stoi(m[1]);
}

}  // namespace

TEST(DerivativesPhase, AutoCoefficientTriesTheSchedule) {
  const std::string log = run_log("derivatives coefficient: 1e-4, auto, max iterations, 2, factor, 100.;");
  // 2 n + 2 = 6 attempts: 1e-4 (first), 1e-2, 1, 1e-6, 1e-8, then the best one.
  std::vector<std::string> coefs;
  const std::regex line(R"(Derivatives\((\d)/6\) t=0 coef=([0-9e.+-]+))");
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) coefs.push_back((*it)[2]);
  ASSERT_EQ(coefs.size(), 5u) << log;
  EXPECT_EQ(coefs[0], "0.01");
  EXPECT_EQ(coefs[1], "1");
  EXPECT_EQ(coefs[2], "1e-06");
  EXPECT_EQ(coefs[3], "1e-08");
  // The last attempt, with its relaxed tolerance, is accepted: no warning, the run goes on.
  EXPECT_EQ(log.find("did not converge"), std::string::npos) << log;
}

TEST(DerivativesPhase, PlainCoefficientIsOneAttemptWithAWarning) {
  const std::string log = run_log("derivatives coefficient: 1e-4;");
  EXPECT_EQ(log.find("Derivatives("), std::string::npos) << log;
  EXPECT_NE(log.find("derivatives phase did not converge"), std::string::npos) << log;
}

TEST(DerivativesPhase, CoefficientCardValues) {
  auto settings = [](const std::string& card) { return read_deck_text("d.mbd", falling_body(card)).settings; };
  const RunSettings a = settings("derivatives coefficient: auto;");
  EXPECT_DOUBLE_EQ(a.derivatives_coefficient, 1e-6);
  EXPECT_EQ(a.derivatives_auto_iterations, 6);
  EXPECT_DOUBLE_EQ(a.derivatives_auto_factor, 10.0);
  const RunSettings b = settings("derivatives coefficient: 1e-3;");
  EXPECT_DOUBLE_EQ(b.derivatives_coefficient, 1e-3);
  EXPECT_EQ(b.derivatives_auto_iterations, 0);
  for (const std::string bad : {"derivatives coefficient: auto, factor, 0.5;",
                                "derivatives coefficient: auto, max iterations, -1;"}) {
    try {
      settings(bad);
      ADD_FAILURE() << bad;
    } catch (const parser::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("d.mbd:4:"), std::string::npos) << e.what();
    }
  }
}

TEST(DerivativesPhase, RunsTheConfiguredLineSearch) {
  // The phase starts from the residual m g = 19.62, below the tolerance 100 (the later card
  // overrides the falling body's): Newton-Raphson accepts it, the line search's first test wants
  // 1e-2 of the tolerance and takes one iteration (MBDyn's DerivativeSolver runs the configured
  // solver, LineSearchFull::Solve).
  const std::string cards = "derivatives tolerance: 100.; derivatives max iterations: 5; nonlinear solver: ";
  EXPECT_EQ(derivatives_iterations(cards + "newton raphson;"), 0);
  EXPECT_EQ(derivatives_iterations(cards + "line search;"), 1);
}
