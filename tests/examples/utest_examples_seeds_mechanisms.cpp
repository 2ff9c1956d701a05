// Seed 003 §3, fig. 2(b)-(c): the half-implicit method converges to first order on the
// kinematically driven slider-crank and four-link mechanisms (examples/seeds/), against the
// closed-form motion the driving imposes. The table goes to build/seeds_half_implicit_mechanisms.txt
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

std::string deck_with_step(const std::string& name, const std::string& h) {
  std::string deck = test::read_file(fs::path(MBL_SOURCE_DIR) / "examples/seeds" / name);
  const std::string step = "time step: 1.e-3;";
  deck.replace(deck.find(step), step.size(), "time step: " + h + ";");
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

TEST(SeedMechanisms, HalfImplicitSliderCrankConvergesToFirstOrder) {
  converges_to_first_order("slider_crank.mbd", "3", "slider-crank, slider velocity", test::seed003::slider_velocity);
}

TEST(SeedMechanisms, HalfImplicitFourLinkConvergesToFirstOrder) {
  converges_to_first_order("four_link.mbd", "2", "four-link, bar 2 velocity", test::seed003::bar2_velocity);
}
