// The example decks of examples/, run through the program, each checked against one physical
// number it must reproduce (Exudyn's "one scalar per test model").
#include <gtest/gtest.h>

#include "support/run_program.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/output/results.hpp"

namespace fs = std::filesystem;
using namespace mbl;

namespace {

/// Runs examples/<name>/<name>.mbd into a temporary folder and reads the results.
output::Results run_example(const std::string& name) {
  const fs::path deck = fs::path(MBL_SOURCE_DIR) / "examples" / name / (name + ".mbd");
  const fs::path out = mbl::test::fresh_temp_dir("examples") / name;
  const std::string cmd = std::string("'") + MBL_BINARY + "' -s -f '" + deck.string() + "' -o '" + out.string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return output::read_results(out.string());
}

Vec3 vec(const output::Series& s, std::size_t t) { return {s.at(t, 0), s.at(t, 1), s.at(t, 2)}; }

}  // namespace

// Period of a pendulum released at 0.3 rad: T = 2 pi sqrt(L/g) (1 + th^2/16 + 11 th^4/3072 + ...).
TEST(Examples, PendulumPeriodMatchesTheLargeAmplitudeSeries) {
  const output::Results r = run_example("pendulum");
  const output::Series& X = r.vars.at("node.struct.1.X");
  const double th = 0.3, L = 1.0, g = 9.81;
  const double T_exact = 2 * M_PI * std::sqrt(L / g) * (1 + th * th / 16 + 11 * std::pow(th, 4) / 3072);
  // Times at which x crosses zero going negative (linear interpolation between records).
  std::vector<double> crossings;
  for (std::size_t k = 1; k < r.records(); ++k) {
    const double x0 = X.at(k - 1, 0), x1 = X.at(k, 0);
    if (x0 > 0 && x1 <= 0) crossings.push_back(r.time[k - 1] + (r.time[k] - r.time[k - 1]) * x0 / (x0 - x1));
  }
  ASSERT_GE(crossings.size(), 2u);
  const double T = crossings[1] - crossings[0];
  EXPECT_NEAR(T / T_exact, 1.0, 2e-4) << "T = " << T << ", exact " << T_exact;
}

// Crank-Nicolson keeps the energy of the (chaotic) double pendulum.
TEST(Examples, DoublePendulumConservesEnergy) {
  const output::Results r = run_example("double_pendulum");
  const double m = 1.0, g = 9.81;
  auto energy = [&](std::size_t t) {
    double e = 0;
    for (const char* n : {"node.struct.1", "node.struct.2"}) {
      const Vec3 x = vec(r.vars.at(std::string(n) + ".X"), t), v = vec(r.vars.at(std::string(n) + ".XP"), t);
      e += 0.5 * m * v.squaredNorm() + m * g * x.z();
    }
    return e;
  };
  const double E0 = energy(0);
  double worst = 0;
  for (std::size_t t = 0; t < r.records(); ++t) worst = std::max(worst, std::abs(energy(t) - E0));
  EXPECT_LT(worst / (m * g * 1.0), 1e-3);
  // It really moved: the second mass went well below the hinge.
  EXPECT_LT(vec(r.vars.at("node.struct.2.X"), r.records() / 2).z(), -0.5);
}

// Gravity has no moment about the vertical through the fixed tip: L_z is conserved.
TEST(Examples, SpinningTopConservesVerticalAngularMomentum) {
  const output::Results r = run_example("spinning_top");
  const double M = 0.5, H = 0.1, JA = 2e-4, JT = 1e-4;
  const Mat3 J_N = Vec3(JT + M * H * H, JT + M * H * H, JA).asDiagonal();
  auto L_W = [&](std::size_t t) {
    const Mat3 R = rot::euler123_to_R(vec(r.vars.at("node.struct.1.E"), t) * (M_PI / 180.0));
    return Vec3(R * J_N * R.transpose() * vec(r.vars.at("node.struct.1.Omega"), t));
  };
  const Vec3 L0 = L_W(0);
  double worst = 0;
  for (std::size_t t = 0; t < r.records(); ++t) worst = std::max(worst, std::abs(L_W(t).z() - L0.z()));
  EXPECT_LT(worst / L0.norm(), 1e-4);
  // The top precesses: its axis turns about the vertical.
  const Mat3 R_end = rot::euler123_to_R(vec(r.vars.at("node.struct.1.E"), r.records() - 1) * (M_PI / 180.0));
  EXPECT_GT(std::abs(R_end.col(2).x()), 1e-3);
}

// A FEM reduction brought in through a modal joint (docs/modal.md): the simply supported beam of
// examples/modal, reduced by hand to three modes, comes to rest under its mid-span load at the
// modal static deflection sum_k phi_k(L/2)^2 F / K_k (mode 2 has a node there), 0.23% short of
// Euler-Bernoulli's F L^3 / (48 EI) with three modes.
TEST(Examples, ModalBeamRestsAtTheModalStaticDeflection) {
  const output::Results r = run_example("modal");
  const output::Series& X = r.vars.at("node.struct.2.X");
  const double F = 1.0, EI = 200.0, m = 2.0, L = 1.0;
  double w_modal = 0.0;
  for (int k = 1; k <= 3; ++k) {
    const double K = std::pow(k * M_PI / L, 4) * EI * L / 2.0;  // modal mass m L / 2 = 1
    w_modal += std::pow(std::sin(k * M_PI / 2.0), 2) * F / K;
  }
  ASSERT_DOUBLE_EQ(m * L / 2.0, 1.0);
  const double z = X.at(r.records() - 1, 2);
  EXPECT_NEAR(-z / w_modal, 1.0, 1e-5) << z;
  EXPECT_NEAR(-z / (F * L * L * L / (48.0 * EI)), 1.0, 3e-3);
}

// Solid elements (input manual §8.16): the hexahedron20 cantilever of examples/cantilever_solid
// under its own weight, statically: the tip deflects as Timoshenko's beam, q L^4 / (8 EI) +
// q L^2 / (2 k G A), within the few per cent that the clamped face's restrained Poisson contraction
// and the mesh of ten elements make.
TEST(Examples, SolidCantileverDeflectsAsABeam) {
  const output::Results r = run_example("cantilever_solid");
  const double L = 1.0, b = 0.1, h = 0.1, E = 2.1e11, nu = 0.3, rho = 7850.0, g = 9.81;
  const double q = rho * g * b * h, I = b * h * h * h / 12.0, G = E / (2.0 * (1.0 + nu));
  const double w = q * std::pow(L, 4) / (8.0 * E * I) + q * L * L / (2.0 * (5.0 / 6.0) * G * b * h);
  ASSERT_EQ(r.records(), 2u);
  // The four tip corners (x = L) move down alike.
  int corners = 0;
  for (int n = 1; n <= 128; ++n) {
    const output::Series& X = r.vars.at(fmt::format("node.struct.{}.X", n));
    if (std::abs(X.at(0, 0) - L) > 1e-9 || std::abs(std::abs(X.at(0, 1)) - b / 2) > 1e-9) continue;
    EXPECT_NEAR(-(X.at(1, 2) - X.at(0, 2)) / w, 1.0, 0.04) << "node " << n;
    ++corners;
  }
  EXPECT_EQ(corners, 6);  // the corners and the mid-height side nodes at the tip
}
