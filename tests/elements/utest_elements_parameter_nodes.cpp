// The parameter nodes `sample and hold` and `beam strain gage` (input manual §6.4; MBDyn's
// SampleAndHold, sah.cc, and StrainGageParam, j2p.h/.cc).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/run_program.hpp"

using namespace mbl;

namespace {

// x(t) = sin(10 t) on an algebraic abstract node (spring support k = 1, abstract force sin(10 t)),
// sampled by parameter node 5 every `period` (time step 1/8: exact times).
std::string sample_and_hold_deck(const std::string& parameter) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 0.125; tolerance: 1e-12; max iterations: 20; end: initial value;
begin: control data; abstract nodes: 1; parameter nodes: 1; genels: 1; forces: 1; output precision: 16; end: control data;
begin: nodes;
  abstract: 10, algebraic;
  )" + parameter + R"deck(;
end: nodes;
begin: elements;
  genel: 1, spring support, 10, abstract, algebraic, linear elastic, 1.;
  force: 1, abstract, 10, abstract, string, "sin(10*Time)";
end: elements;
)deck";
}

}  // namespace

TEST(SampleAndHold, HoldsTheDofSampledWhenTimeReachesEachPeriodFromTheInitialTime) {
  const auto run = test::run_deck_text("sample_and_hold", sample_and_hold_deck("parameter: 5, sample and hold, 10, abstract, 0.3"));
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto prm = test::records(run.output("prm"), 5);
  ASSERT_EQ(prm.size(), 9u);  // t = 0, 0.125, ..., 1
  // sah.cc: the sample time starts at t0 + T = 0.3 and advances by T from the last sample time:
  // samples at the first steps with t >= 0.3, 0.6, 0.9, i.e. t = 0.375, 0.625, 1.
  const double held[9] = {0.0, 0.0, 0.0, std::sin(3.75), std::sin(3.75), std::sin(6.25), std::sin(6.25),
                          std::sin(6.25), std::sin(10.0)};
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(prm[k][0], held[k], 1e-10) << "record " << k;
}

TEST(SampleAndHold, SampleNHoldIsTheSameNodeAndBadArgumentsAreInputErrors) {
  const auto run = test::run_deck_text("sample_n_hold", sample_and_hold_deck("parameter: 5, sample'n'hold, 10, abstract, 0.3"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NEAR(test::records(run.output("prm"), 5).at(3)[0], std::sin(3.75), 1e-10);
  for (const char* bad : {"parameter: 5, sample and hold, 10, abstract, 0.", "parameter: 5, sample and hold, 11, abstract, 0.3",
                          "parameter: 5, sample and hold, 10, abstract"}) {
    const auto r = test::run_deck_text("sample_and_hold_bad", sample_and_hold_deck(bad));
    EXPECT_EQ(r.rc, 2) << bad << "\n" << r.log();
  }
}

namespace {

// A cantilever beam3 (EIy = EIz = 1e3) under a tip couple (0, 1, 2): curvatures k_y, k_z; the
// gage's value is ex + z k_y - y k_z of the section it is bound to.
std::string strain_gage_deck(const std::string& gage, const std::string& bind) {
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.; time step: 1.; tolerance: 1e-8; max iterations: 20; end: initial value;
begin: control data; structural nodes: 3; parameter nodes: 1; joints: 1; beams: 1; forces: 1; output precision: 16; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, .5, 0., 0., eye, null, null;
  structural: 3, static, 1., 0., 0., eye, null, null;
  )" + gage + R"(;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  beam3: 1, 1, null, 2, null, 3, null, eye,
    linear elastic generic, diag, 1.e6, 1.e6, 1.e6, 1.e4, 1.e3, 1.e3, same, same, custom output, strains;
  couple: 3, absolute, 3, 0., 1., 2., const, 1.;
  )" + bind + R"(;
end: elements;
)";
}

}  // namespace

TEST(BeamStrainGage, IsTheAxialStrainOfTheSectionFibreAtYZ) {
  const double y = 0.3, z = 0.2;
  for (int point : {1, 2}) {
    const auto run = test::run_deck_text(
        "strain_gage", strain_gage_deck("parameter: 5, beam strain gage, 0.3, 0.2",
                                        "bind: 1, beam, 5, " + std::to_string(point)));
    ASSERT_EQ(run.rc, 0) << run.log();
    // .act with `strains`: F_I M_I F_II M_II (12), then nu_I nu_II (6), then k_I k_II (6).
    const auto act = test::last_record(run.output("act"), 1);
    ASSERT_EQ(act.size(), 24u);
    const int s = point - 1;
    const double ex = act[12 + 3 * s], ky = act[18 + 3 * s + 1], kz = act[18 + 3 * s + 2];
    const auto prm = test::last_record(run.output("prm"), 5);
    ASSERT_EQ(prm.size(), 1u);
    EXPECT_NEAR(prm[0], ex + z * ky - y * kz, 1e-15) << point;
    EXPECT_NEAR(prm[0], z * 1e-3 - y * 2e-3, 1e-5) << point;  // k = M / EI, no axial strain
  }
}

TEST(BeamStrainGage, StrainGageIsTheDeprecatedSpellingAndABindOtherThanToPointIOrIIIsAnInputError) {
  const auto run = test::run_deck_text("strain_gage_old",
                                       strain_gage_deck("parameter: 5, strain gage, 0., 1.", "bind: 1, beam, 5, 1"));
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_NEAR(test::last_record(run.output("prm"), 5).at(0), 1e-3, 1e-5);  // z k_y
  for (const char* bind : {"bind: 1, beam, 5, 3", "bind: 1, joint, 5, 1"}) {
    const auto r = test::run_deck_text("strain_gage_bad", strain_gage_deck("parameter: 5, beam strain gage, 0., 1.", bind));
    EXPECT_EQ(r.rc, 2) << bind << "\n" << r.log();
  }
}
