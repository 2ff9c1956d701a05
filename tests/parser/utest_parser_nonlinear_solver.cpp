// `nonlinear solver: line search, ...` (input manual §4.1.1): every option is read in order,
// `default solver options, moderate | heavy nonlinear` sets MBDyn's presets, and a wrong option
// is an input error at its location.
#include <gtest/gtest.h>

#include <string>

#include "mbdyn-like/model/model_builder.hpp"
#include "parser/errors.hpp"

using namespace mbl;

namespace {

std::string deck_with(const std::string& nonlinear_solver) {
  return "begin: data; problem: initial value; end: data;\n"
         "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-2;\n"
         "  nonlinear solver: " + nonlinear_solver + ";\n"
         "end: initial value;\n"
         "begin: control data; structural nodes: 1; end: control data;\n"
         "begin: nodes; structural: 1, static, null, eye, null, null; end: nodes;\n";
}

integrators::NewtonOptions::LineSearch line_search_of(const std::string& card) {
  const BuildResult built = read_deck_text("ls.mbd", deck_with(card));
  EXPECT_TRUE(built.settings.newton.line_search.enabled);
  return built.settings.newton.line_search;
}

}  // namespace

TEST(NonlinearSolverCard, LineSearchDefaultsAreTheManuals) {
  const auto ls = line_search_of("line search");
  EXPECT_DOUBLE_EQ(ls.tolerance_x, 1e-7);
  EXPECT_DOUBLE_EQ(ls.lambda_min, 1e-2);
  EXPECT_TRUE(ls.abort_at_lambda_min);
  EXPECT_TRUE(ls.scale_newton_step);
  EXPECT_FALSE(ls.zero_gradient_continue);
}

TEST(NonlinearSolverCard, HeavyNonlinearPresetThenLaterOptionsWin) {
  // t.stiff.pendulumd's card (the one-word `linesearch` is the same keyword).
  const auto ls = line_search_of("linesearch, default solver options, heavy nonlinear, lambda min, 0., tolerance x, 1e-5");
  EXPECT_DOUBLE_EQ(ls.lambda_min, 0.0);  // preset 1e-4, then the explicit option
  EXPECT_DOUBLE_EQ(ls.tolerance_x, 1e-5);
  EXPECT_DOUBLE_EQ(ls.divergence_factor, 1.5);
  EXPECT_TRUE(ls.divergence_check);
  EXPECT_FALSE(ls.abort_at_lambda_min);
  EXPECT_FALSE(ls.scale_newton_step);
  EXPECT_TRUE(ls.zero_gradient_continue);
  EXPECT_TRUE(ls.non_negative_slope_continue);
  EXPECT_TRUE(ls.lambda_min_relative);

  const auto moderate = line_search_of("line search, default solver options, moderate nonlinear");
  EXPECT_DOUBLE_EQ(moderate.lambda_min, 0.1);
  EXPECT_DOUBLE_EQ(moderate.divergence_factor, 10.0);
}

TEST(NonlinearSolverCard, EveryLineSearchOption) {
  const auto ls = line_search_of(
      "line search, true, tolerance x, 1e-6, tolerance min, 1e-9, max iterations, 50, alpha, 1e-3, "
      "lambda min, 0.05, relative, no, lambda factor min, 0.2, max step, 10., zero gradient, continue, yes, "
      "divergence check, yes, factor, 2., algorithm, factor, scale newton step, no, min scale, 0.01, "
      "print convergence info, no, verbose, no, abort at lambda min, no, non negative slope continue, yes");
  EXPECT_DOUBLE_EQ(ls.tolerance_x, 1e-6);
  EXPECT_DOUBLE_EQ(ls.tolerance_min, 1e-9);
  EXPECT_EQ(ls.max_iterations, 50);
  EXPECT_DOUBLE_EQ(ls.alpha, 1e-3);
  EXPECT_DOUBLE_EQ(ls.lambda_min, 0.05);
  EXPECT_FALSE(ls.lambda_min_relative);
  EXPECT_DOUBLE_EQ(ls.lambda_factor_min, 0.2);
  EXPECT_DOUBLE_EQ(ls.max_step, 10.0);
  EXPECT_TRUE(ls.zero_gradient_continue);
  EXPECT_DOUBLE_EQ(ls.divergence_factor, 2.0);
  EXPECT_FALSE(ls.cubic);
  EXPECT_FALSE(ls.scale_newton_step);
  EXPECT_DOUBLE_EQ(ls.min_scale, 0.01);
  EXPECT_FALSE(ls.abort_at_lambda_min);
  EXPECT_TRUE(ls.non_negative_slope_continue);
}

TEST(NonlinearSolverCard, BadOptionsAreInputErrorsAtTheirLocation) {
  struct Bad {
    std::string card, expected;
  };
  for (const Bad& b : {Bad{"line search, lambda factor min, 1.5", "0 < lambda factor min < 1"},
                       Bad{"line search, default solver options, wild nonlinear", "moderate nonlinear or heavy nonlinear"},
                       Bad{"line search, zero gradient, yes", "expected continue"},
                       Bad{"line search, tolerance y, 1e-3", "a line search option"}}) {
    try {
      read_deck_text("ls.mbd", deck_with(b.card));
      ADD_FAILURE() << b.card << ": no error";
    } catch (const parser::InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("ls.mbd:3:"), std::string::npos) << what;
      EXPECT_NE(what.find(b.expected), std::string::npos) << what;
    }
  }
}
