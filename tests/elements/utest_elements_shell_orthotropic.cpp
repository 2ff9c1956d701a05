// The shell law `plane stress orthotropic` (MBDyn 2024's shell.cc ReadShellConstLaw): the
// classical plane-stress stiffness of an orthotropic lamina with its fibres along the first
// in-plane axis, Q11 = E_l / (1 - nu_lt nu_tl), Q22 = E_t / (1 - nu_lt nu_tl),
// Q12 = nu_lt E_t / (1 - nu_lt nu_tl) (nu_tl = nu_lt E_t / E_l), integrated through the thickness
// h (membrane h Q, bending h^3/12 Q), in MBDyn's strain ordering and signs.
#include <gtest/gtest.h>

#include <string>

#include "elements/shells/shell.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"

using namespace mbl;
using namespace mbl::elements;

namespace {

std::string deck(const std::string& law) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.; end: initial value;
begin: control data; structural nodes: 4; plates: 1; end: control data;
begin: nodes;
  structural: 1, static, 0., 0., 0., eye, null, null;
  structural: 2, static, 1., 0., 0., eye, null, null;
  structural: 3, static, 1., 1., 0., eye, null, null;
  structural: 4, static, 0., 1., 0., eye, null, null;
end: nodes;
begin: elements;
  shell4eas: 1, 1, 2, 3, 4, )" + law + R"(;
end: elements;
)";
}

Mat12 law_of(const std::string& law) {
  BuildResult b = read_deck_text("orthotropic", deck(law));
  EXPECT_EQ(b.not_implemented, 0u);
  const auto* shell = dynamic_cast<const Shell4*>(b.model->find_element("plate", 1));
  if (!shell) shell = dynamic_cast<const Shell4*>(b.model->elements().front().get());
  return shell->law().D;
}

}  // namespace

TEST(ShellOrthotropic, MembraneAndBendingBlocksAreTheLaminaStiffnessTimesHAndHCubedOver12) {
  const double E_l = 1.4e11, E_t = 1.0e10, nu_lt = 0.3, G = 5.0e9, h = 0.002;
  const Mat12 D = law_of("plane stress orthotropic, E_l, 1.4e11, E_t, 1.0e10, nu_lt, 0.3, G, 5.0e9, thickness, 0.002, "
                         "as, 0.8, at, 0.02");
  const double nu_tl = nu_lt * E_t / E_l, den = 1.0 - nu_lt * nu_tl;
  const double Q11 = E_l / den, Q22 = E_t / den, Q12 = nu_lt * E_t / den;
  const double b = h * h * h / 12.0;
  const double tol = 1e-12;
  EXPECT_NEAR(D(0, 0) / (h * Q11), 1.0, tol);
  EXPECT_NEAR(D(4, 4) / (h * Q22), 1.0, tol);
  EXPECT_NEAR(D(0, 4) / (h * Q12), 1.0, tol);
  EXPECT_NEAR(D(4, 0) / (h * Q12), 1.0, tol);
  EXPECT_NEAR(D(1, 1) / (2.0 * G * h), 1.0, tol);
  EXPECT_NEAR(D(3, 3) / (2.0 * G * h), 1.0, tol);
  EXPECT_NEAR(D(2, 2) / (0.8 * G * h), 1.0, tol);  // transverse shear, factor as
  EXPECT_NEAR(D(5, 5) / (0.8 * G * h), 1.0, tol);
  EXPECT_NEAR(D(7, 7) / (b * Q11), 1.0, tol);
  EXPECT_NEAR(D(9, 9) / (b * Q22), 1.0, tol);
  EXPECT_NEAR(D(7, 9) / (-b * Q12), 1.0, tol);  // bending couples with MBDyn's sign
  EXPECT_NEAR(D(9, 7) / (-b * Q12), 1.0, tol);
  EXPECT_NEAR(D(6, 6) / (2.0 * G * b), 1.0, tol);
  EXPECT_NEAR(D(10, 10) / (2.0 * G * b), 1.0, tol);
  EXPECT_NEAR(D(8, 8) / (0.02 * G * b), 1.0, tol);  // drilling, factor at
  EXPECT_NEAR(D(11, 11) / (0.02 * G * b), 1.0, tol);
  EXPECT_EQ((D.array() != 0.0).count(), 16);  // 12 diagonal, 4 Poisson couplings
}

TEST(ShellOrthotropic, LongNamesAndNuTlAloneGiveTheSameLawWithDefaultFactors) {
  const Mat12 a = law_of("plane stress orthotropic, E_l, 2e11, E_t, 1e10, nu_lt, 0.25, G, 4e9, thickness, 0.01");
  const Mat12 b = law_of("plane stress orthotropic, longitudinal Young modulus, 2e11, transverse Young modulus, 1e10, "
                         "transverse longitudinal Poisson modulus, 0.0125, shear modulus, 4e9, thickness, 0.01");
  EXPECT_LT((a - b).cwiseAbs().maxCoeff(), 1e-9 * a.cwiseAbs().maxCoeff());
  EXPECT_NEAR(a(2, 2), 1.0 * 4e9 * 0.01, 1e-3);                        // as = 1
  EXPECT_NEAR(a(8, 8), 0.01 * 4e9 * 1e-6 / 12.0, 1e-9);                 // at = 0.01
}

TEST(ShellOrthotropic, RefusedFormsAreInputErrorsAsInMBDyn) {
  for (const char* bad : {
           "plane stress orthotropic, E_l, 2e11, E_t, 1e10, nu_lt, 0.25, G, 4e9, beta, 30., thickness, 0.01",
           "plane stress orthotropic, E_l, 2e11, E_t, 1e10, nu_lt, 0.25, nu_tl, 0.0125, G, 4e9, thickness, 0.01",
           "plane stress orthotropic, E_l, 2e11, E_t, 1e10, G, 4e9, thickness, 0.01",
           "plane stress orthotropic, E_l, 2e11, E_t, 1e10, nu_lt, 0.25, thickness, 0.01",
           "plane stress orthotropic, E_l, 2e11, E_l, 2e11, E_t, 1e10, nu_lt, 0.25, G, 4e9, thickness, 0.01",
           "plane stress orthotropic, E_l, -2e11, E_t, 1e10, nu_lt, 0.25, G, 4e9, thickness, 0.01"}) {
    EXPECT_THROW(read_deck_text("orthotropic_bad", deck(bad)), parser::InputError) << bad;
  }
  // nu_tl before nu_lt: both kept when nu_tl E_l = nu_lt E_t exactly.
  EXPECT_NO_THROW(read_deck_text("orthotropic_both", deck("plane stress orthotropic, E_l, 2., E_t, 1., nu_tl, 0.125, "
                                                          "nu_lt, 0.25, G, 4., thickness, 0.01")));
}
