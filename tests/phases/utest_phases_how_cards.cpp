// Cards that change how the solution is computed, not what it is: a spinning body thrown in gravity run with and
// without them writes the same .mov.
#include <gtest/gtest.h>

#include <string>

#include "support/run_program.hpp"

using namespace mbl;

namespace {

std::string thrown_body(const std::string& initial_value_extra, const std::string& control_data_extra = "") {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: .1; time step: 1.e-3; tolerance: 1e-10;
  )" + initial_value_extra + R"( end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; gravity; )" + control_data_extra + R"( end: control data;
begin: nodes; structural: 1, dynamic, 1., 0., 0., eye, 0., 1., 2., 0., 0., 3.; end: nodes;
begin: elements;
  body: 1, 1, 2., null, diag, .1, .1, .1;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";
}

}  // namespace

TEST(HowCards, UseAutomaticDifferentiationAndThreadsLeaveResultsUnchanged) {
  const auto plain = test::run_deck_text("how_plain", thrown_body(""));
  ASSERT_EQ(plain.rc, 0) << plain.log();
  const auto with = test::run_deck_text("how_ad", thrown_body("use automatic differentiation; threads: 2;"));
  ASSERT_EQ(with.rc, 0) << with.log();
  const std::string mov = test::read_file(plain.output("mov"));
  EXPECT_FALSE(mov.empty());
  EXPECT_EQ(test::read_file(with.output("mov")), mov);
}

TEST(HowCards, UseAutomaticDifferentiationInControlDataLeavesResultsUnchanged) {
  const auto plain = test::run_deck_text("how_plain_cd", thrown_body(""));
  ASSERT_EQ(plain.rc, 0) << plain.log();
  const auto with = test::run_deck_text("how_ad_cd", thrown_body("", "use automatic differentiation;"));
  ASSERT_EQ(with.rc, 0) << with.log();
  EXPECT_EQ(test::read_file(with.output("mov")), test::read_file(plain.output("mov")));
}
