// The seed methods beyond MBDyn (docs/seeds.md) run the pendulum deck of examples/ through the
// normal front end and output: each `method:` card must stay within 1e-3 of the model size
// (the 1 m arm) of the `ms` run at the deck's dt = 1e-3, record for record.
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include "mbdyn-like/output/results.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

/// The pendulum deck with its `method:` card replaced (and, if given, its time step).
std::string pendulum_with(const std::string& method, const std::string& time_step = "") {
  std::string deck = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/pendulum/pendulum.mbd");
  const std::string card = "method: ms, 0.6;";
  deck.replace(deck.find(card), card.size(), "method: " + method + ";");
  if (!time_step.empty()) {
    const std::string step = "time step: 1.e-3;";
    deck.replace(deck.find(step), step.size(), "time step: " + time_step + ";");
  }
  return deck;
}

/// Largest distance between the node positions of two runs over their common records.
double worst_position_gap(const output::Results& a, const output::Results& b) {
  const output::Series& Xa = a.vars.at("node.struct.1.X");
  const output::Series& Xb = b.vars.at("node.struct.1.X");
  double worst = 0.0;
  for (std::size_t k = 0; k < std::min(a.records(), b.records()); ++k) {
    // Same time (records at equal dt) or the nearest record of b.
    EXPECT_NEAR(a.time[k], b.time[k], 1e-9);
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(Xa.at(k, c) - Xb.at(k, c)));
  }
  return worst;
}

}  // namespace

TEST(SeedMethods, GeneralizedAlphaPendulumFollowsMs) {
  const test::TextDeckRun ms = test::run_deck_text("seeds_ms", pendulum_with("ms, 0.6"));
  ASSERT_EQ(ms.rc, 0) << ms.log();
  for (const char* rho : {"0.", "0.5", "0.8", "1."}) {
    const test::TextDeckRun ga = test::run_deck_text("seeds_ga", pendulum_with(std::string("generalized alpha, ") + rho));
    ASSERT_EQ(ga.rc, 0) << ga.log();
    const output::Results a = output::read_results((ga.dir / "run").string());
    const output::Results b = output::read_results((ms.dir / "run").string());
    ASSERT_EQ(a.records(), b.records());
    EXPECT_LT(worst_position_gap(a, b), 1e-3) << "rho_inf " << rho;
    // The arm stays 1 m long (to the 7 digits of the text output).
    const output::Series& X = a.vars.at("node.struct.1.X");
    for (std::size_t k = 0; k < a.records(); ++k)
      ASSERT_NEAR(std::hypot(X.at(k, 0), X.at(k, 2)), 1.0, 1e-6) << "record " << k;
  }
}

TEST(SeedMethods, CentralDifferencesPendulumFollowsMs) {
  const test::TextDeckRun ms = test::run_deck_text("seeds_ms", pendulum_with("ms, 0.6"));
  ASSERT_EQ(ms.rc, 0) << ms.log();
  const output::Results b = output::read_results((ms.dir / "run").string());
  for (const char* card : {"central differences, degree, 3, 1., 0.5", "central differences, degree, 3, 2., 0.5",
                           "central differences, degree, 4, 0.75, 1./3., 0.5",
                           "central differences, degree, 5, 0.8, 1., 1., 1."}) {
    const test::TextDeckRun cd = test::run_deck_text("seeds_cd", pendulum_with(card));
    ASSERT_EQ(cd.rc, 0) << card << "\n" << cd.log();
    const output::Results a = output::read_results((cd.dir / "run").string());
    ASSERT_EQ(a.records(), b.records());
    EXPECT_LT(worst_position_gap(a, b), 1e-3) << card;
  }
}

// omega = sqrt(g/L) = 3.13 rad/s: dt = 0.7 gives omega dt = 2.19 > 2, the limit of the
// reformulated central differences; the run stops at once with exit 3 and names the limit.
TEST(SeedMethods, CentralDifferencesBeyondTheStabilityLimitStops) {
  const test::TextDeckRun cd = test::run_deck_text("seeds_cd_limit", pendulum_with("central differences, degree, 3, 1., 0.5", "0.7"));
  EXPECT_EQ(cd.rc, 3) << cd.log();
  EXPECT_NE(cd.log().find("exceeds the stability limit omega*dt <= 2"), std::string::npos) << cd.log();
  // Well below the limit (omega dt = 0.94) the same deck runs.
  const test::TextDeckRun ok = test::run_deck_text("seeds_cd_ok", pendulum_with("central differences, degree, 3, 1., 0.5", "0.3"));
  EXPECT_EQ(ok.rc, 0) << ok.log();
}

// Under `strategy: error control` the stability limit bounds the step instead of stopping the run
// (docs/adaptive.md): a first step of 0.7 s (omega dt = 2.19) is retried at the limit, and no
// accepted step exceeds 2 / omega = 0.64 s however loose the tolerance.
TEST(SeedMethods, CentralDifferencesUnderErrorControlStayWithinTheStabilityLimit) {
  std::string deck = pendulum_with("central differences, degree, 3, 1., 0.5", "0.7");
  const std::string card = "method: central differences, degree, 3, 1., 0.5;";
  deck.replace(deck.find(card), card.size(), card + "\n\tstrategy: error control, 1.;");
  const test::TextDeckRun cd = test::run_deck_text("seeds_cd_error_control", deck);
  ASSERT_EQ(cd.rc, 0) << cd.log();
  std::istringstream out(test::read_file(cd.output("out")));
  int steps = 0;
  for (std::string line; std::getline(out, line);)
    if (line.rfind("Step ", 0) == 0) {
      std::istringstream ls(line.substr(5));
      long step = 0;
      double t = 0, dt = 0;
      ls >> step >> t >> dt;
      if (step == 0) continue;
      ++steps;
      EXPECT_LE(dt * std::sqrt(9.81), 2.0) << line;
    }
  EXPECT_GT(steps, 0);
}

TEST(SeedMethods, HalfImplicitPendulumFollowsMs) {
  const test::TextDeckRun ms = test::run_deck_text("seeds_ms", pendulum_with("ms, 0.6"));
  ASSERT_EQ(ms.rc, 0) << ms.log();
  const test::TextDeckRun hi = test::run_deck_text("seeds_hi", pendulum_with("half implicit"));
  ASSERT_EQ(hi.rc, 0) << hi.log();
  const output::Results a = output::read_results((hi.dir / "run").string());
  const output::Results b = output::read_results((ms.dir / "run").string());
  ASSERT_EQ(a.records(), b.records());
  EXPECT_LT(worst_position_gap(a, b), 2e-2);  // a first-order method
}

// The gyroscopic top (rotations on SO(3), gyroscopic moment from the second-order view): the
// second-order methods end where Crank-Nicolson does (the deck's own method).
TEST(SeedMethods, SpinningTopFollowsCrankNicolson) {
  const std::string deck = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/spinning_top/spinning_top.mbd");
  auto with = [&](const std::string& method) {
    std::string d = deck;
    const std::string card = "method: crank nicolson;";
    d.replace(d.find(card), card.size(), "method: " + method + ";");
    return d;
  };
  const test::TextDeckRun cn = test::run_deck_text("seeds_top_cn", deck);
  ASSERT_EQ(cn.rc, 0) << cn.log();
  const output::Results b = output::read_results((cn.dir / "run").string());
  for (const char* m : {"generalized alpha, 0.8", "central differences, degree, 3, 1., 0.5"}) {
    const test::TextDeckRun r = test::run_deck_text("seeds_top", with(m));
    ASSERT_EQ(r.rc, 0) << m << "\n" << r.log();
    const output::Results a = output::read_results((r.dir / "run").string());
    ASSERT_EQ(a.records(), b.records());
    const output::Series& Wa = a.vars.at("node.struct.1.Omega");
    const output::Series& Wb = b.vars.at("node.struct.1.Omega");
    double worst = 0.0;
    for (std::size_t k = 0; k < a.records(); ++k)
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(Wa.at(k, c) - Wb.at(k, c)));
    EXPECT_LT(worst, 0.05) << m;  // rad/s, of a 100 rad/s spin
  }
}

namespace {

/// The double pendulum deck of examples/ with another method, step and final time.
std::string double_pendulum_with(const std::string& method, const std::string& time_step, const std::string& final_time) {
  std::string d = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/double_pendulum/double_pendulum.mbd");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"method: ms, 0.9;", "method: " + method + ";"},
                                 {"time step: 1.e-4;", "time step: " + time_step + ";"},
                                 {"final time: 2.;", "final time: " + final_time + ";"}})
    d.replace(d.find(from), from.size(), to);
  return d;
}

/// Kinetic plus potential energy of the two 1 kg masses at record k.
double double_pendulum_energy(const output::Results& r, std::size_t k) {
  double e = 0.0;
  for (const char* n : {"node.struct.1", "node.struct.2"}) {
    const output::Series& X = r.vars.at(std::string(n) + ".X");
    const output::Series& V = r.vars.at(std::string(n) + ".XP");
    e += 0.5 * (V.at(k, 0) * V.at(k, 0) + V.at(k, 1) * V.at(k, 1) + V.at(k, 2) * V.at(k, 2)) + 9.81 * X.at(k, 2);
  }
  return e;
}

}  // namespace

// Seed 003 fig. 2(a): first-order convergence of the second mass on the double pendulum, against
// generalized-alpha at a tiny step.
TEST(SeedMethods, HalfImplicitDoublePendulumConvergesToFirstOrder) {
  const test::TextDeckRun ref = test::run_deck_text("seeds_dp_ref", double_pendulum_with("generalized alpha, 0.8", "2.5e-4", "1."));
  ASSERT_EQ(ref.rc, 0) << ref.log();
  const output::Results rr = output::read_results((ref.dir / "run").string());
  const output::Series& Xr = rr.vars.at("node.struct.2.X");
  double prev = 0.0;
  for (const char* h : {"4.e-3", "2.e-3", "1.e-3"}) {
    const test::TextDeckRun hi = test::run_deck_text("seeds_dp_hi", double_pendulum_with("half implicit", h, "1."));
    ASSERT_EQ(hi.rc, 0) << hi.log();
    const output::Results r = output::read_results((hi.dir / "run").string());
    const output::Series& X = r.vars.at("node.struct.2.X");
    // Records at t = 1 s (MBDyn's loop may end one step past the final time).
    auto at_one = [](const output::Results& x) {
      std::size_t i = x.records() - 1;
      while (i > 0 && x.time[i] > 1.0 + 1e-9) --i;
      return i;
    };
    const std::size_t k = at_one(r), kr = at_one(rr);
    ASSERT_NEAR(r.time[k], rr.time[kr], 1e-9);
    const double err = std::hypot(X.at(k, 0) - Xr.at(kr, 0), X.at(k, 2) - Xr.at(kr, 2));
    if (prev > 0.0) {
      EXPECT_NEAR(std::log2(prev / err), 1.0, 0.25) << "h " << h << ": " << prev << " -> " << err;
    }
    prev = err;
  }
}

// Seed 003 fig. 3: the half-implicit (symplectic) method keeps the energy of the double pendulum
// bounded over 100 s: the error over 100 s is that of the first 10 s.
TEST(SeedMethods, HalfImplicitDoublePendulumEnergyBoundedOver100Seconds) {
  const test::TextDeckRun hi = test::run_deck_text("seeds_dp_energy", double_pendulum_with("half implicit", "2.e-3", "100."));
  ASSERT_EQ(hi.rc, 0) << hi.log();
  const output::Results r = output::read_results((hi.dir / "run").string());
  const double E0 = double_pendulum_energy(r, 0);
  double worst10 = 0.0, worst100 = 0.0;
  for (std::size_t k = 0; k < r.records(); ++k) {
    const double d = std::abs(double_pendulum_energy(r, k) - E0);
    worst100 = std::max(worst100, d);
    if (r.time[k] <= 10.0) worst10 = std::max(worst10, d);
  }
  EXPECT_LT(worst100, 1.5 * worst10) << "10 s: " << worst10 << ", 100 s: " << worst100;
  EXPECT_LT(worst100, 0.05 * 2.0 * 9.81 * 2.0);  // 5 % of the potential energy range
}

TEST(SeedMethods, CentralDifferencesCardErrors) {
  const test::TextDeckRun bad = test::run_deck_text("seeds_card", pendulum_with("central differences, degree, 6, 1., 0.5"));
  EXPECT_EQ(bad.rc, 2) << bad.log();
  EXPECT_NE(bad.log().find("expected a degree of 3, 4 or 5, found 6"), std::string::npos) << bad.log();
  const test::TextDeckRun no_degree = test::run_deck_text("seeds_card", pendulum_with("central differences, 3, 1., 0.5"));
  EXPECT_EQ(no_degree.rc, 2) << no_degree.log();
  EXPECT_NE(no_degree.log().find("expected \"degree\""), std::string::npos) << no_degree.log();
}
