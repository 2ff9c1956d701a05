// `output meter` (input manual §5.3.8) decides every output, the initial one included: MBDyn's
// .out shows "Step 0 ... 0" and no record at the start when the meter is 0 there (corpus deck
// alx.KINCUP.v1.rotor_i2b_Nb4_swlve, meter "Time >= T_E-5": 5000 records, not 5001).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/run_program.hpp"

namespace {

std::string deck_with_meter(const std::string& meter) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.1; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; )" +
         meter + R"( end: control data;
begin: nodes; structural: 1, dynamic, null, eye, 1., 0., 0., null; end: nodes;
begin: elements; body: 1, 1, 1., null, eye; end: elements;
)";
}

/// The Out column (last field) of the "Step 0" line of a .out file.
int step0_output_flag(const std::filesystem::path& out) {
  std::ifstream f(out);
  for (std::string line; std::getline(f, line);)
    if (line.rfind("Step 0 ", 0) == 0) return line.back() - '0';
  return -1;
}

}  // namespace

TEST(OutputMeter, NoInitialRecordWhereTheMeterIsZeroAtTheStart) {
  // Steps at 0.1 ... 1.1 (time accumulated step by step falls short of 1 after ten steps, so
  // MBDyn takes an eleventh); the meter is 1 from 0.45 on: 7 records, none at t = 0.
  const auto run = mbl::test::run_deck_text("meter_start", deck_with_meter(R"(output meter: string, "Time > 0.45";)"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto recs = mbl::test::records(run.output("mov"), 1);
  ASSERT_EQ(recs.size(), 7u);
  EXPECT_NEAR(recs.front()[0], 0.5, 1e-12);  // x = v t
  EXPECT_EQ(step0_output_flag(run.output("out")), 0);
}

TEST(OutputMeter, InitialRecordWhereTheMeterIsOneAtTheStart) {
  const auto run = mbl::test::run_deck_text("meter_one", deck_with_meter(R"(output meter: string, "Time < 0.25";)"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto recs = mbl::test::records(run.output("mov"), 1);
  ASSERT_EQ(recs.size(), 3u);  // t = 0, 0.1, 0.2
  EXPECT_NEAR(recs.front()[0], 0.0, 1e-12);
  EXPECT_EQ(step0_output_flag(run.output("out")), 1);
}
