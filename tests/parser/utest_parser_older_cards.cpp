// Older spellings and solver cards that MBDyn 2024 still reads (its solver.cc, mbdyn.cc,
// invsolver.cc, joint.cc), as the real-deck corpus uses them: each is read with MBDyn's meaning
// (or, where it changes nothing we model, read and checked), and a wrong argument is an input
// error at its location.
#include <gtest/gtest.h>

#include <array>

#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"

using namespace mbl;

namespace {

const char* kNodes =
    "begin: control data; structural nodes: 1; end: control data;\n"
    "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";

std::string deck_with_initial_value_card(const std::string& card) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2;\n  " +
         card + ";\nend: initial value;\n" + kNodes;
}

BuildResult read_initial_value_card(const std::string& card) {
  return read_deck_text("older.mbd", deck_with_initial_value_card(card));
}

}  // namespace

TEST(OlderCards, NewtonRaphsonCardSetsTheNewtonVariant) {
  // `newton raphson: modified, <n>` = `nonlinear solver: newton raphson, modified, <n>`.
  auto b = read_initial_value_card("newton raphson: modified, 4");
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_EQ(b.settings.newton.jacobian_every, 4);
  EXPECT_FALSE(b.settings.newton.keep_jacobian);
  // Without a count MBDyn assembles every 2 iterations.
  EXPECT_EQ(read_initial_value_card("newton raphson: modified").settings.newton.jacobian_every, 2);
  EXPECT_EQ(read_initial_value_card("newton raphson: true").settings.newton.jacobian_every, 1);
  // Any other word falls back to true Newton-Raphson (MBDyn warns).
  EXPECT_EQ(read_initial_value_card("newton raphson: no").settings.newton.jacobian_every, 1);
}

TEST(OlderCards, IntegratorIsTheOlderProblemCardAndMultistepTheOlderInitialValue) {
  const std::string deck =
      "begin: data; integrator: multistep; end: data;\n"
      "begin: multistep; initial time: 0.; final time: 1.; time step: 1.e-2; end: multistep;\n" +
      std::string(kNodes);
  const BuildResult b = read_deck_text("integrator.mbd", deck);
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_DOUBLE_EQ(b.settings.time_step, 1e-2);
  EXPECT_EQ(read_deck_text("i.mbd", "begin: data; integrator: initial value; end: data;\n"
                                    "begin: initial value; final time: 1.; time step: 1.e-2; end: initial value;\n" +
                                        std::string(kNodes))
                .not_implemented,
            0u);
  EXPECT_THROW(read_deck_text("bad.mbd", "begin: data; integrator: runge kutta; end: data;\n"), parser::InputError);
}

TEST(OlderCards, ProblemTypeOfInverseDynamicsIsReadAndChecked) {
  auto deck = [](const std::string& card) {
    return "begin: data; problem: inverse dynamics; end: data;\n"
           "begin: inverse dynamics; initial time: 0.; final time: 1.; time step: 1.e-2;\n  " +
           card + ";\nend: inverse dynamics;\n" + kNodes;
  };
  const BuildResult udfa =
      read_deck_text("p.mbd", deck("problem type: underdetermined fully actuated, weights, 0., 0., 1., 0., 1., 0."));
  EXPECT_EQ(udfa.not_implemented, 0u);
  const InverseDynamicsSettings& id = udfa.settings.inverse_dynamics;
  EXPECT_TRUE(id.enabled);
  EXPECT_EQ(id.problem, InverseDynamicsSettings::Problem::UnderdeterminedFullyActuated);
  EXPECT_EQ(id.w1, (std::array<double, 3>{0.0, 1.0, 1.0}));
  EXPECT_EQ(id.w2, (std::array<double, 3>{0.0, 0.0, 0.0}));
  // Without weights: w1 = 1, w2 = 0 (MBDyn's invsolver.cc).
  EXPECT_EQ(read_deck_text("p.mbd", deck("problem type: underdetermined fully actuated")).settings.inverse_dynamics.w1,
            (std::array<double, 3>{1.0, 1.0, 1.0}));
  EXPECT_EQ(read_deck_text("p.mbd", deck("problem type: fully actuated collocated")).not_implemented, 0u);
  // What MBDyn itself has not implemented, and the weights on the ergonomy bodies' mass.
  EXPECT_EQ(read_deck_text("p.mbd", deck("problem type: fully actuated non collocated")).not_implemented, 1u);
  EXPECT_EQ(read_deck_text("p.mbd", deck("problem type: underdetermined fully actuated, weights, 0., 1., 1., 0., 1., 0."))
                .not_implemented,
            1u);
  // Six weights: a seventh argument is an error.
  EXPECT_THROW(read_deck_text("p.mbd", deck("problem type: underdetermined fully actuated, weights, 0., 0., 1., 0., 1., 0., 1.")),
               parser::InputError);
  EXPECT_THROW(read_deck_text("p.mbd", deck("problem type: overdetermined")), parser::InputError);
}

TEST(OlderCards, OutputUnitsDocumentsTheUnits) {
  auto deck = [](const std::string& card) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; final time: 1.; time step: 1.e-2; end: initial value;\n"
           "begin: control data; structural nodes: 1; " +
           card + "; end: control data;\n" + "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";
  };
  EXPECT_EQ(read_deck_text("u.mbd", deck("output units: MKS")).not_implemented, 0u);
  EXPECT_EQ(read_deck_text("u.mbd", deck("output units: Custom, Length, \"m\", Mass, \"kg\", Time, \"s\", "
                                         "Current, \"A\", Temperature, \"K\""))
                .not_implemented,
            0u);
  EXPECT_THROW(read_deck_text("u.mbd", deck("output units: furlongs")), parser::InputError);
}

TEST(OlderCards, EnforceConstraintEquationsScalesTheAlgebraicResidualTest) {
  EXPECT_DOUBLE_EQ(read_initial_value_card("enforce constraint equations: constraint violations")
                       .settings.newton.algebraic_test_scale,
                   -1.0);  // 1 / the initial time step, resolved when the run starts
  EXPECT_DOUBLE_EQ(read_initial_value_card("enforce constraint equations: constraint violations, scale factor, 5.")
                       .settings.newton.algebraic_test_scale,
                   5.0);
  EXPECT_DOUBLE_EQ(read_initial_value_card("enforce constraint equations: constraint violation rates")
                       .settings.newton.algebraic_test_scale,
                   0.0);
  EXPECT_THROW(read_initial_value_card("enforce constraint equations: yes"), parser::InputError);
}

TEST(OlderCards, MatrixFreeSetsTheKrylovSolverAndItsOptions) {
  using Krylov = integrators::NewtonOptions::MatrixFree::Krylov;
  auto b = read_initial_value_card(
      "nonlinear solver: matrix free, gmres, tolerance, 1.e-5, steps, 30, tau, 1.e-3, eta, 1.e-2, "
      "preconditioner, full jacobian, steps, 40, honor element requests");
  EXPECT_EQ(b.not_implemented, 0u);
  const auto& mf = b.settings.newton.matrix_free;
  EXPECT_EQ(mf.krylov, Krylov::Gmres);
  EXPECT_EQ(mf.max_linear_iterations, 30);
  EXPECT_DOUBLE_EQ(mf.tau, 1e-3);
  EXPECT_DOUBLE_EQ(mf.eta_max, 1e-2);
  EXPECT_EQ(mf.preconditioner_steps, 40);
  // MBDyn's defaults (solver.cc); `default` is BiCGStab.
  const auto d = read_initial_value_card("nonlinear solver: matrix free, default").settings.newton.matrix_free;
  EXPECT_EQ(d.krylov, Krylov::BiCGStab);
  EXPECT_EQ(d.max_linear_iterations, 20);
  EXPECT_DOUBLE_EQ(d.tau, 1e-7);
  EXPECT_DOUBLE_EQ(d.eta_max, 0.9);
  EXPECT_EQ(d.preconditioner_steps, 20);
  EXPECT_THROW(read_initial_value_card("nonlinear solver: matrix free, cg"), parser::InputError);
  EXPECT_THROW(read_initial_value_card("nonlinear solver: matrix free, gmres, steps"), parser::InputError);
  EXPECT_THROW(read_initial_value_card("nonlinear solver: matrix free, gmres, tau, -1."), parser::InputError);
}

TEST(OlderCards, PinIsTheOlderNameOfTheSphericalPin) {
  const std::string deck =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; final time: 1.; time step: 1.e-2; end: initial value;\n"
      "begin: control data; structural nodes: 1; joints: 1; end: control data;\n"
      "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n"
      "begin: elements; joint: 1, pin, 1, reference, node, null, 0., 0., 1.; end: elements;\n";
  const BuildResult b = read_deck_text("pin.mbd", deck);
  EXPECT_EQ(b.not_implemented, 0u);
  EXPECT_EQ(b.summary.count("joint (Spherical pin)"), 1u) << [&] {
    std::string s;
    for (const auto& [k, n] : b.summary) s += k + "; ";
    return s;
  }();
}

// `output results: netcdf [, <format>] [, [no] sync] [, [no] text]` (input manual §5.3.10).
TEST(OlderCards, OutputResultsTakesEveryFormOfTheManual) {
  auto deck = [](const std::string& card) {
    return "begin: data; problem: initial value; end: data;\n"
           "begin: initial value; final time: 1.; time step: 1.e-2; end: initial value;\n"
           "begin: control data; structural nodes: 1; " +
           card + "; end: control data;\n" + "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";
  };
  const BuildResult both = read_deck_text("o.mbd", deck("output results: netcdf, nc4classic, no sync, text"));
  EXPECT_TRUE(both.settings.netcdf);
  EXPECT_TRUE(both.settings.text);
  EXPECT_FALSE(both.settings.netcdf_sync);
  const BuildResult nc_only = read_deck_text("o.mbd", deck("output results: netcdf, classic64, sync, no text"));
  EXPECT_FALSE(nc_only.settings.text);
  EXPECT_TRUE(nc_only.settings.netcdf_sync);
  EXPECT_THROW(read_deck_text("o.mbd", deck("output results: netcdf, hdf5")), parser::InputError);
}
