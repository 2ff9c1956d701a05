// Seed 003 §3, fig. 2: the half-implicit method converges to first order on the paper's bar
// double pendulum (against generalized-alpha at a small step) and on the kinematically driven
// slider-crank and four-link mechanisms (examples/seeds/, against the closed-form motion the
// driving imposes). The table goes to build/seeds_half_implicit_mechanisms.txt
// (docs/seeds.md).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>

#include "mbdyn-like/output/results.hpp"
#include "support/run_program.hpp"
#include "support/seed_mechanisms.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

void say(const std::string& s) {
  static std::ofstream file(std::string(MBL_SOURCE_DIR) + "/build/seeds_half_implicit_mechanisms.txt");
  std::cout << s;
  file << s << std::flush;
}

std::string deck_with_step(const std::string& name, const std::string& h, const std::string& method = "") {
  std::string deck = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/seeds" / name);
  const std::string step = "time step: 1.e-3;";
  deck.replace(deck.find(step), step.size(), "time step: " + h + ";");
  if (!method.empty()) {
    const std::string card = "method: half implicit;";
    deck.replace(deck.find(card), card.size(), "method: " + method + ";");
  }
  return deck;
}

using test::seed003::Vec;

/// Root mean square over the records of |V - V_ref| of `node` (seed 003's error measure).
double rms_velocity_error(const output::Results& r, const std::string& node, const std::function<Vec(double)>& ref) {
  const output::Series& V = r.vars.at("node.struct." + node + ".XP");
  double sum = 0.0;
  for (std::size_t k = 0; k < r.records(); ++k) {
    const Vec v = ref(r.time[k]);
    double e2 = 0.0;
    for (int c = 0; c < 3; ++c) e2 += std::pow(V.at(k, c) - v[c], 2);
    sum += e2;
  }
  return std::sqrt(sum / r.records());
}

void converges_to_first_order(const std::string& deck, const std::string& node, const std::string& what,
                              const std::function<Vec(double)>& ref) {
  say(fmt::format("\nHalf-implicit, {} (examples/seeds/{}), RMS velocity error over 1 s\n", what, deck));
  say("h        error        order\n");
  double prev = 0.0;
  for (const char* h : {"4.e-3", "2.e-3", "1.e-3", "5.e-4"}) {
    const test::TextDeckRun run = test::run_deck_text("seeds_mech", deck_with_step(deck, h));
    ASSERT_EQ(run.rc, 0) << run.log();
    const double err = rms_velocity_error(output::read_results((run.dir / "run").string()), node, ref);
    say(fmt::format("{:<8} {:<12.4e} {}\n", std::stod(h), err, prev > 0 ? fmt::format("{:.2f}", std::log2(prev / err)) : ""));
    if (prev > 0.0) EXPECT_NEAR(std::log2(prev / err), 1.0, 0.2) << deck << " h " << h;
    prev = err;
  }
}

}  // namespace

// Fig. 2(a): the z position of bar 2, RMS over the records, against generalized-alpha at
// h = 2.5e-4 (whose records include every record of the coarser runs).
TEST(SeedMechanisms, HalfImplicitBarDoublePendulumConvergesToFirstOrder) {
  const test::TextDeckRun ref_run =
      test::run_deck_text("seeds_bdp_ref", deck_with_step("bar_double_pendulum.mbd", "2.5e-4", "generalized alpha, 0.8"));
  ASSERT_EQ(ref_run.rc, 0) << ref_run.log();
  const output::Results ref = output::read_results((ref_run.dir / "run").string());
  const output::Series& Zr = ref.vars.at("node.struct.2.X");
  say("\nHalf-implicit, bar double pendulum (examples/seeds/bar_double_pendulum.mbd), RMS z error of bar 2 over 1 s\n");
  say("h        error        order\n");
  double prev = 0.0;
  for (const char* h : {"4.e-3", "2.e-3", "1.e-3", "5.e-4"}) {
    const test::TextDeckRun run = test::run_deck_text("seeds_bdp", deck_with_step("bar_double_pendulum.mbd", h));
    ASSERT_EQ(run.rc, 0) << run.log();
    const output::Results r = output::read_results((run.dir / "run").string());
    const output::Series& Z = r.vars.at("node.struct.2.X");
    const auto ratio = static_cast<std::size_t>(std::lround(std::stod(h) / 2.5e-4));
    double sum = 0.0;
    std::size_t n = 0;
    for (std::size_t k = 0; k < r.records() && k * ratio < ref.records(); ++k, ++n) {
      EXPECT_NEAR(r.time[k], ref.time[k * ratio], 1e-9);
      sum += std::pow(Z.at(k, 2) - Zr.at(k * ratio, 2), 2);
    }
    const double err = std::sqrt(sum / n);
    say(fmt::format("{:<8} {:<12.4e} {}\n", std::stod(h), err, prev > 0 ? fmt::format("{:.2f}", std::log2(prev / err)) : ""));
    if (prev > 0.0) EXPECT_NEAR(std::log2(prev / err), 1.0, 0.2) << "h " << h;
    prev = err;
  }
}

TEST(SeedMechanisms, HalfImplicitSliderCrankConvergesToFirstOrder) {
  converges_to_first_order("slider_crank.mbd", "3", "slider-crank, slider velocity", test::seed003::slider_velocity);
}

TEST(SeedMechanisms, HalfImplicitFourLinkConvergesToFirstOrder) {
  converges_to_first_order("four_link.mbd", "2", "four-link, bar 2 velocity", test::seed003::bar2_velocity);
}

// Seed 003 §3.4 (fig. 9): the slider-crank with Coulomb friction in the slider, explicit in the
// previous step's normal reaction, mu = 0, 0.2, 0.4 at h = 1e-3. The crank's motion is prescribed,
// so the kinematics do not depend on mu and over one revolution (1 s) the driving torque's work
// is what the friction dissipates: W_drive = -sum |F_friction| |v_slider| h, to the first order of
// the method; without friction it is zero. The driving torque swings wider as mu grows (fig. 9).
TEST(SeedMechanisms, HalfImplicitSliderCrankWithCoulombFrictionOfFig9) {
  say("\nHalf-implicit, slider-crank with Coulomb friction in the slider (seed 003 §3.4, fig. 9), h = 1e-3, 1 s\n");
  say("mu    driving torque min   max        torque work J   friction dissipation J\n");
  double swing_prev = 0.0, dissipation_prev = 0.0;
  for (const char* mu : {"0.", "0.2", "0.4"}) {
    std::string deck = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/seeds/slider_crank.mbd");
    const std::string card = "set: ifndef real MU = 0.;";
    ASSERT_NE(deck.find(card), std::string::npos);
    deck.replace(deck.find(card), card.size(), fmt::format("set: real MU = {};", mu));
    const test::TextDeckRun run = test::run_deck_text("seeds_mech_friction", deck);
    ASSERT_EQ(run.rc, 0) << run.log();
    const output::Results r = output::read_results((run.dir / "run").string());
    const output::Series& M = r.vars.at("elem.joint.2.M");
    const output::Series& W = r.vars.at("node.struct.1.Omega");
    const output::Series& F = r.vars.at("elem.force.7.F");
    const output::Series& V = r.vars.at("node.struct.3.XP");
    ASSERT_EQ(r.records(), 1001u);
    const double h = 1e-3;
    double work = 0.0, dissipation = 0.0, t_min = 1e300, t_max = -1e300;
    // Records 1..1000: the point t_{n+1} carries the reactions of t_n and the step's force.
    for (std::size_t k = 1; k < r.records(); ++k) {
      double power = 0.0;
      for (int c = 0; c < 3; ++c) power += M.at(k, c) * W.at(k, c);
      work += power * h;
      dissipation += std::abs(F.at(k, 0)) * std::abs(V.at(k, 0)) * h;
      t_min = std::min(t_min, M.at(k, 0));
      t_max = std::max(t_max, M.at(k, 0));
    }
    say(fmt::format("{:<5} {:<20.4f} {:<10.4f} {:<15.4f} {:.4f}\n", mu, t_min, t_max, work, dissipation));
    if (dissipation == 0.0) {
      EXPECT_LT(std::abs(work), 1e-3);
    } else {
      EXPECT_NEAR(-work / dissipation, 1.0, 1e-2) << "mu " << mu;
      if (dissipation_prev > 0.0) EXPECT_NEAR(dissipation / dissipation_prev, 2.0, 0.05) << "mu " << mu;
      EXPECT_GT(t_max - t_min, swing_prev) << "mu " << mu;
    }
    dissipation_prev = dissipation;
    swing_prev = t_max - t_min;
  }
}
