// `custom output` of beams and `default beam output:` (input manual §8.3.2, §5.3.13), as MBDyn's
// ReadBeamCustomOutput and Beam::OutputPrepare/Output (beam.cc): the flags choose the NetCDF
// variables of each evaluation point; on beam3 the strain flags also append strain columns to the
// .act line. A cantilever under a tip couple M about y has the constant curvature k_y = M / EI,
// so the section at evaluation point I (arc length s_I = L (1 - 1/sqrt(3)) / 2 from the clamp)
// is rotated by k_y s_I about y.
#include <gtest/gtest.h>
#include <netcdf.h>

#include <cmath>
#include <fstream>
#include <string>

#include "support/run_program.hpp"

using namespace mbl;

namespace {

constexpr double kEI = 1.0e3, kM = 1.0, kL = 1.0;

std::string cantilever(const std::string& beam_tail, const std::string& control = "",
                       const std::string& law = "linear elastic generic, diag, 1.e6, 1.e6, 1.e6, 1.e4, 1.e3, 1.e3") {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.; tolerance: 1e-8; max iterations: 20; end: initial value;
begin: control data; structural nodes: 3; joints: 1; beams: 1; forces: 1; output precision: 16; )" +
         control + R"( end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, .5, 0., 0., eye, null, null;
  structural: 3, static, 1., 0., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  beam3: 1, 1, null, 2, null, 3, null, eye, )" +
         law + R"(, same, same)" + beam_tail + R"(;
  couple: 3, absolute, 3, 0., 1., 0., const, 1.;
end: elements;
)";
}

double nc_value(int nc, const std::string& name, std::size_t record, std::size_t i) {
  int var = -1;
  EXPECT_EQ(nc_inq_varid(nc, name.c_str(), &var), NC_NOERR) << name;
  const std::size_t start[] = {record, i}, count[] = {1, 1};
  double v = NAN;
  EXPECT_EQ(nc_get_vara_double(nc, var, start, count, &v), NC_NOERR) << name;
  return v;
}

std::string nc_text_attribute(int nc, const std::string& name, const char* attribute) {
  int var = -1;
  if (nc_inq_varid(nc, name.c_str(), &var) != NC_NOERR) return "<no variable>";
  std::size_t n = 0;
  if (nc_inq_attlen(nc, var, attribute, &n) != NC_NOERR) return "<no attribute>";
  std::string s(n, '\0');
  nc_get_att_text(nc, var, attribute, s.data());
  return s;
}

bool nc_has(int nc, const std::string& name) {
  int var = -1;
  return nc_inq_varid(nc, name.c_str(), &var) == NC_NOERR;
}

/// The last .act line of beam 1.
std::string last_act_line(const test::TextDeckRun& run) {
  std::ifstream f(run.output("act"));
  std::string line, last;
  while (std::getline(f, line))
    if (line.rfind("       1 ", 0) == 0) last = line;
  return last;
}

}  // namespace

TEST(BeamCustomOutput, StrainsAppendNuThenKOfBothSectionsToTheActAfterEightSpaces) {
  const auto run = test::run_deck_text("beam_custom_strains", cantilever(", custom output, strains"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto act = test::last_record(run.output("act"), 1);
  ASSERT_EQ(act.size(), 24u);  // F_I M_I F_II M_II, nu_I nu_II, k_I k_II
  const double k = kM / kEI;
  EXPECT_NEAR(act[4], kM, 1e-9);        // M_I y
  EXPECT_NEAR(act[12], 0.0, 1e-12);     // nu_I x
  EXPECT_NEAR(act[19], k, 1e-9 * k);    // k_I y
  EXPECT_NEAR(act[22], k, 1e-9 * k);    // k_II y
  // Beam::Output writes `setw(8) << " "` before each strain block: 8 spaces, then the numbers.
  const std::string line = last_act_line(run);
  std::size_t pos = 8;
  for (int n = 0; n < 12; ++n) pos = line.find(' ', line.find_first_not_of(' ', pos));
  EXPECT_EQ(line.substr(pos, 9), std::string(8, ' ') + (line[pos + 8] == '-' ? "-" : line.substr(pos + 8, 1)))
      << line;
}

TEST(BeamCustomOutput, StrainRatesOfAnElasticBeamAreIgnoredWithAWarning) {
  const auto run = test::run_deck_text("beam_custom_rates_elastic", cantilever(", custom output, strain rates"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NE(run.log().find("strain rates only allowed for viscoelastic beams"), std::string::npos) << run.log();
  EXPECT_EQ(test::last_record(run.output("act"), 1).size(), 12u);
}

TEST(BeamCustomOutput, StrainRateFlagsOfAViscoelasticBeamRepeatTheStrainsInTheActAsMBDyns) {
  // Beam::Output writes DefLoc (the strains) under OUTPUT_EP_NUP/KP too.
  const auto run = test::run_deck_text(
      "beam_custom_rates_viscous",
      cantilever(", custom output, angular strain, angular strain rate", "",
                 "linear viscoelastic generic, diag, 1.e6, 1.e6, 1.e6, 1.e4, 1.e3, 1.e3, "
                 "diag, 1., 1., 1., 1., 1., 1."));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto act = test::last_record(run.output("act"), 1);
  ASSERT_EQ(act.size(), 24u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(act[12 + i], act[18 + i]) << i;
  EXPECT_NEAR(act[13], kM / kEI, 1e-2 * kM / kEI);  // still creeping (damping 1)
}

TEST(BeamCustomOutput, DefaultBeamOutputAppliesToBeamsWithoutCustomOutput) {
  const auto run = test::run_deck_text("beam_default_output", cantilever("", "default beam output: linear strain;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_EQ(test::last_record(run.output("act"), 1).size(), 18u);
}

TEST(BeamCustomOutput, NoneAndNoFlagKeepTheDefaultActLine) {
  for (const char* tail : {", custom output, none", ""}) {
    const auto run = test::run_deck_text("beam_custom_none", cantilever(tail));
    ASSERT_EQ(run.rc, 0) << run.log();
    EXPECT_EQ(test::last_record(run.output("act"), 1).size(), 12u) << tail;
  }
}

TEST(BeamCustomOutput, AFlagOverlappingAnEarlierOneIsAnInputError) {
  const auto run = test::run_deck_text("beam_custom_dup", cantilever(", custom output, forces, moment"));
  EXPECT_EQ(run.rc, 2) << run.log();
  EXPECT_NE(run.log().find("error: expected a beam output flag not given before"), std::string::npos) << run.log();
}

TEST(BeamCustomOutput, NetcdfHoldsExactlyTheSelectedEvaluationPointVariables) {
  const auto run = test::run_deck_text(
      "beam_custom_nc",
      cantilever(", custom output, position, orientation, orientation description, orientation vector, "
                 "angular strain, output, yes",
                 "output results: netcdf, no text;"));
  ASSERT_EQ(run.rc, 0) << run.log();
  int nc = -1;
  ASSERT_EQ(nc_open(run.output("nc").c_str(), NC_NOWRITE, &nc), NC_NOERR);
  EXPECT_FALSE(nc_has(nc, "elem.beam.1.F_I"));
  EXPECT_FALSE(nc_has(nc, "elem.beam.1.M_II"));
  EXPECT_FALSE(nc_has(nc, "elem.beam.1.nu_I"));
  const double k = kM / kEI, s_I = 0.5 * kL * (1.0 - 1.0 / std::sqrt(3.0));
  const std::size_t last = 1;
  EXPECT_NEAR(nc_value(nc, "elem.beam.1.k_I", last, 1), k, 1e-9 * k);
  EXPECT_NEAR(nc_value(nc, "elem.beam.1.Phi_I", last, 1), k * s_I, 1e-9);
  EXPECT_NEAR(nc_value(nc, "elem.beam.1.Phi_II", last, 1), k * (kL - s_I), 1e-9);
  EXPECT_NEAR(nc_value(nc, "elem.beam.1.X_I", last, 0), s_I, 1e-7);
  EXPECT_NEAR(nc_value(nc, "elem.beam.1.X_I", last, 2), -0.5 * k * s_I * s_I, 1e-7);
  EXPECT_EQ(nc_text_attribute(nc, "elem.beam.1.Phi_I", "description"),
            "evaluation point I global orientation vector (Phi_X, Phi_Y, Phi_Z)");
  EXPECT_EQ(nc_text_attribute(nc, "elem.beam.1.k_II", "units"), "Angular strain");
  EXPECT_EQ(nc_text_attribute(nc, "elem.beam.1.X_II", "description"),
            "evaluation point II global position vector (X, Y, Z)");
  nc_close(nc);
}
