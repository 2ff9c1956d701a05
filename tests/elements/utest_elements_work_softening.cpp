// MBDyn's `tdclw` constitutive law (struct/tdclw.cc, WorkSofteningLaw), the `bulk` spring support
// (base/bulk.cc) and the genel spring support's `position` (elec/genel.cc): values derived from
// MBDyn's code and closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "elements/laws/elastic_laws.hpp"
#include "elements/laws/wrapper_laws.hpp"
#include "support/retried_step.hpp"
#include "support/run_program.hpp"

using namespace mbl;

namespace {

using V1 = ConstitutiveLaw1D::VecN;
using Linear1 = laws::LinearViscoElasticLaw<1>;
using Softening1 = laws::WorkSofteningLaw<1>;

std::unique_ptr<Softening1> softening(const Softening1::Params& p, double k, double c = 0.0) {
  return std::make_unique<Softening1>(p, std::make_unique<Linear1>(Linear1::MatN::Constant(k), Linear1::MatN::Constant(c)));
}

/// The values of abstract nodes 1 and 2 at the last time of a run (.abs).
std::pair<double, double> last_abstract_values(const test::TextDeckRun& run) {
  const auto x1 = test::last_record(run.output("abs"), 1);
  const auto x2 = test::last_record(run.output("abs"), 2);
  EXPECT_GE(x1.size(), 1u);
  EXPECT_GE(x2.size(), 1u);
  return {x1.empty() ? NAN : x1[0], x2.empty() ? NAN : x2[0]};
}

}  // namespace

// TDConstitutiveLawWrapper::Update: the wrapped law at s_eps eps, its force times
// d = s_F (1 + a exp(-min(0, W) / W_ref)); AfterConvergence adds (F + F_prev)(eps_prev - eps) / 2
// (scaled strains) to W.
TEST(WorkSofteningLaw, ForceScaledByTheWorkDone) {
  Softening1::Params p;
  p.amplitude = 0.5;
  p.scale_strain = 2.0;
  p.scale_force = 3.0;
  p.reference_work = -1.0;
  p.initial_work = -0.5;
  auto law = softening(p, 10.0, 0.4);
  law->update(V1(0.1), V1(0.3), 0.0);
  const double d0 = 3.0 * (1.0 + 0.5 * std::exp(-0.5));
  EXPECT_DOUBLE_EQ(law->factor(), d0);
  EXPECT_NEAR(law->force()[0], d0 * (10.0 * 0.2 + 0.4 * 0.6), 1e-12);
  // The derivatives with respect to the unscaled strain and rate (MBDyn leaves s_eps out).
  EXPECT_NEAR(law->stiffness()(0, 0), d0 * 10.0 * 2.0, 1e-12);
  EXPECT_NEAR(law->damping()(0, 0), d0 * 0.4 * 2.0, 1e-12);
  EXPECT_TRUE(law->is_viscous());

  const double F1 = law->force()[0];
  law->save_step_state();
  law->after_convergence();
  const double W1 = -0.5 + 0.5 * F1 * (0.0 - 0.2);
  EXPECT_NEAR(law->work(), W1, 1e-12);
  law->update(V1(0.15), V1(0.0), 1.0);
  const double d1 = 3.0 * (1.0 + 0.5 * std::exp(W1));  // -min(0, W) / W_ref = W here
  EXPECT_NEAR(law->force()[0], d1 * 10.0 * 0.3, 1e-12);
  const double F2 = law->force()[0];
  law->after_convergence();
  EXPECT_NEAR(law->work(), W1 + 0.5 * (F2 + F1) * (0.2 - 0.3), 1e-12);

  // An abandoned step gives the work (and the previous force and strain) back.
  law->restore_step_state();
  EXPECT_NEAR(law->work(), -0.5, 1e-15);
  law->update(V1(0.1), V1(0.3), 0.0);
  law->after_convergence();
  EXPECT_NEAR(law->work(), W1, 1e-12);

  // A positive work counts as none: d = s_F (1 + a).
  p.initial_work = 0.0;
  auto relaxed = softening(p, 1.0);
  relaxed->update(V1(-0.1), V1(0.0), 0.0);
  relaxed->after_convergence();  // F = -0.3, eps -0.2: W = -0.03 < 0
  relaxed->update(V1(0.0), V1(0.0), 0.0);
  relaxed->after_convergence();  // back: W = -0.03 + 0.5 (-0.3 + 0) (-0.2 - 0) = 0
  EXPECT_NEAR(relaxed->work(), 0.0, 1e-15);
  EXPECT_DOUBLE_EQ(relaxed->factor(), 4.5);
}

// The output the law appends (a rod's .jnt): the wrapped law's items, then W; no NetCDF item and
// no private data (tdclw.cc).
TEST(WorkSofteningLaw, AppendsTheWorkToTheTextOutputOnly) {
  Softening1::Params p;
  p.initial_work = -0.25;
  auto law = softening(p, 1.0);
  ASSERT_EQ(law->output_count(), 1);
  EXPECT_EQ(law->output_value(0), -0.25);
  EXPECT_EQ(law->netcdf_output_count(), 0);
  EXPECT_EQ(law->private_data_count(), 0);
}

// A spring support of law `tdclw` on an algebraic abstract node loaded by a ramp force F = t:
// at every converged step F = d(W) K s_eps x, and W follows AfterConvergence's recursion; the
// node's value at each of the 10 steps against that recursion.
TEST(WorkSofteningLaw, SpringSupportFollowsMBDynsWorkRecursion) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: .1; tolerance: 1e-12; end: initial value;
begin: control data; abstract nodes: 1; genels: 1; forces: 1; default output: abstract nodes; end: control data;
begin: nodes; abstract: 1, algebraic; end: nodes;
begin: elements;
  genel: 1, spring support, 1, abstract, algebraic,
    tdclw, 1., scale deformation, 2., scale force, .5, -.05, initial work, -.01, linear elastic, 3.;
  force: 1, abstract, 1, abstract, ramp, 1., 0., 1., 0.;
end: elements;
)";
  const auto run = test::run_deck_text("tdclw_spring", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto rec = test::records(run.output("abs"), 1);  // t = 0, 0.1, ...
  ASSERT_GE(rec.size(), 11u);
  double W = -0.01, F_prev = 0.0, e_prev = 0.0;
  for (int n = 1; n <= 10; ++n) {
    const double F = 0.1 * n;
    const double d = 0.5 * (1.0 + std::exp(-std::min(0.0, W) / -0.05));
    const double e = F / (3.0 * d);  // the scaled strain s_eps x
    ASSERT_GE(rec[n].size(), 1u);
    EXPECT_NEAR(rec[n][0], e / 2.0, 1e-5 * e) << "step " << n;
    W += 0.5 * (F + F_prev) * (e_prev - e);
    F_prev = F;
    e_prev = e;
  }
  // Without the work (W held at its initial value) x(1) would be 1 / (3 * 0.909...) / 2 = 0.183.
  EXPECT_GT(rec[10][0], 0.3);
}

// A rod of law tdclw held stretched (both nodes clamped, strain .2): its .jnt record ends with W,
// which the first converged point moves from W0 = -.2 by (F + 0)(0 - .2) / 2, F = d K .2 with
// d = 1 + .5 exp(W0 / 1); the strain does not change after that, nor does W; the force is then
// softened by W.
TEST(WorkSofteningLaw, RodOutputEndsWithTheWork) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .03; time step: .01; tolerance: 1e-10; end: initial value;
begin: control data; structural nodes: 2; joints: 3; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 1.2, 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, rod, 1, 2, 1., tdclw, .5, -1., initial work, -.2, linear elastic, 10.;
end: elements;
)";
  const auto run = test::run_deck_text("tdclw_rod", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto rec = test::last_record(run.output("jnt"), 3);
  ASSERT_EQ(rec.size(), 18u);  // F, M local and global, l, axis, l', W
  const double F0 = (1.0 + 0.5 * std::exp(-0.2)) * 10.0 * 0.2;
  const double W = -0.2 - 0.1 * F0;
  EXPECT_NEAR(rec[17], W, 1e-5);
  const double F = (1.0 + 0.5 * std::exp(W)) * 10.0 * 0.2;  // the rod's force, softened by W
  EXPECT_NEAR(rec[0], F, 1e-5 * F);
}

// A retried step gives the work back (save_step_state/restore_step_state), bit for bit.
TEST(WorkSofteningLaw, RetriedStepRestoresTheWork) {
  std::string deck = mbl::test::kStatefulDeck;
  const std::string maxwell = "linear viscoelastic maxwell 1, E0, 40., E1, 25., eta1, 3., C, eye";
  const auto at = deck.find(maxwell);
  ASSERT_NE(at, std::string::npos);
  deck.replace(at, maxwell.size(), "tdclw, 2., -1., linear viscoelastic, 40., 3.");
  mbl::test::expect_retry_equals_direct("Bathe", deck, 0.02, 2, 4);
}

// bulk.h BulkSpringSupport: -k x on the equation of the node's degree of freedom. A mass 2 on a
// differential abstract node released from 1 with k = 8 oscillates as cos(2 t); on an algebraic
// node loaded by 2, k(t) = 1 + t gives x = 2 / (1 + t).
TEST(BulkSpringSupport, OscillatorAndTimeVaryingStiffness) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10;
  method: ms, .6; end: initial value;
begin: control data; abstract nodes: 2; genels: 1; bulk elements: 2; forces: 1; default output: abstract nodes; end: control data;
begin: nodes; abstract: 1, value, 1.; abstract: 2, algebraic; end: nodes;
begin: elements;
  genel: 1, mass, 1, abstract, algebraic, const, 2.;
  bulk: 2, spring support, 1, abstract, const, 8.;
  bulk: 3, spring support, 2, abstract, linear, 1., 1.;
  force: 1, abstract, 2, abstract, const, 2.;
end: elements;
)";
  const auto run = test::run_deck_text("bulk_spring", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto [x1, x2] = last_abstract_values(run);
  EXPECT_NEAR(x1, std::cos(2.0), 1e-4);
  EXPECT_NEAR(x2, 1.0, 1e-5);
}

// genel.cc GenelSpringSupport: the law sees the value minus `position` (x0, or the node's initial
// value with `from node`). Mass 2, k = 8, released from 1: about x0 = .5, x = .5 + .5 cos(2 t);
// from the node, no force: x stays 1.
TEST(GenelSpringSupport, PositionShiftsTheStrain) {
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; tolerance: 1e-10;
  method: ms, .6; end: initial value;
begin: control data; abstract nodes: 2; genels: 4; default output: abstract nodes; end: control data;
begin: nodes; abstract: 1, value, 1.; abstract: 2, value, 1.; end: nodes;
begin: elements;
  genel: 1, mass, 1, abstract, algebraic, const, 2.;
  genel: 2, spring support, 1, abstract, algebraic, linear elastic, 8., position, .5;
  genel: 3, mass, 2, abstract, algebraic, const, 2.;
  genel: 4, spring support, 2, abstract, algebraic, linear elastic, 8., position, from node;
end: elements;
)";
  const auto run = test::run_deck_text("genel_position", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto [x1, x2] = last_abstract_values(run);
  EXPECT_NEAR(x1, 0.5 + 0.5 * std::cos(2.0), 1e-4);
  EXPECT_NEAR(x2, 1.0, 1e-9);
}
