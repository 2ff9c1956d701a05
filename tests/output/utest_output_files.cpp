// The .rfm file of `default output: reference frames` (input manual §5.3.5), as MBDyn 2024 writes
// it (DataManager reads the elements, then MBDynParser::OutputFrames -> ReferenceFrame::Output,
// base/reffrm.cc): one line per `reference:` frame in label order, "label x orientation v w "
// (global frame), numbers as the .mov's, the orientation in the `default orientation` in force
// when the card was read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run_program.hpp"

namespace {
const char* kDeck = R"(
reference: 7, reference, global, 1., 2., 3., reference, global, eye,
  reference, global, .1, .2, .3, reference, global, 0., 0., 1.;
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; joints: 1;
  default orientation: euler313;
  default output: reference frames;
end: control data;
reference: 3, reference, 7, null, reference, 7, eye, reference, 7, null, reference, 7, null;
begin: nodes;
  structural: 1, static, reference, 3, null, reference, 3, eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
end: elements;
)";

std::vector<double> numbers(const std::string& line) {
  std::istringstream is(line);
  std::vector<double> v;
  double x;
  while (is >> x) v.push_back(x);
  return v;
}
}  // namespace

TEST(OutputReferenceFrames, RfmLinesAsMBDynWritesThem) {
  const auto run = mbl::test::run_deck_text("rfm", kDeck);
  ASSERT_EQ(run.rc, 0) << run.log();
  std::ifstream f(run.output("rfm"));
  ASSERT_TRUE(f) << "no .rfm written";
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 2u);
  // Frame 3 first (by label): at frame 7's place, moving with it (v = v7 + w7 x 0), in 313 since
  // it was read after `default orientation: euler313`: the identity is (180, 0, -180).
  EXPECT_EQ(lines[0].substr(0, 9), "       3 ");
  EXPECT_EQ(lines[0].back(), ' ');
  const auto a = numbers(lines[0]);
  ASSERT_EQ(a.size(), 13u);
  const std::vector<double> a_expected = {3, 1, 2, 3, 180, 0, -180, .1, .2, .3, 0, 0, 1};
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_DOUBLE_EQ(a[i], a_expected[i]) << i;
  // Frame 7 was read before the control data: MBDyn's default, euler123.
  EXPECT_EQ(lines[1], "       7 1.000000e+00 2.000000e+00 3.000000e+00 -0.000000e+00 0.000000e+00 0.000000e+00 "
                      "1.000000e-01 2.000000e-01 3.000000e-01 0.000000e+00 0.000000e+00 1.000000e+00 ");
  std::filesystem::remove_all(run.dir);
}

TEST(OutputReferenceFrames, NoRfmUnlessAsked) {
  std::string deck = kDeck;
  const std::string flag = "default output: reference frames;";
  deck.erase(deck.find(flag), flag.size());
  const auto run = mbl::test::run_deck_text("rfm_off", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  EXPECT_FALSE(std::filesystem::exists(run.output("rfm")));
  std::filesystem::remove_all(run.dir);
}

// The .ine file: MBDyn's dynamic node with output carries an automatic structural element whose
// output is on unless `output inertia, no` (strnode.cc), written by AutomaticStructElem::Output
// (autostr.cc) as "label B G BP GP": momentum, momenta moment, and their derivatives.
TEST(OutputInertiaFile, DynamicNodesWriteTheirMomentum) {
  const auto run = mbl::test::run_deck_text("ine", R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 2; end: control data;
begin: nodes;
  structural: 1, dynamic, null, eye, 1., 0., 0., null;
  structural: 2, dynamic, null, eye, null, null, output inertia, no;
end: nodes;
begin: elements;
  body: 1, 1, 2., null, eye;
  body: 2, 2, 1., null, eye;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto one = mbl::test::records(run.output("ine"), 1);
  ASSERT_FALSE(one.empty());
  const std::vector<double> expected = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_EQ(one.back().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(one.back()[i], expected[i], 1e-12) << i;
  EXPECT_TRUE(mbl::test::records(run.output("ine"), 2).empty());
  std::filesystem::remove_all(run.dir);
}

// The .pla file (MBDyn's Membrane4EAS::Output, membraneeas.cc): label, then the 3 fluxes of each
// of the 4 Gauss points, as the law gives them: n = D eps + prestress. With the 4 nodes clamped in
// the input configuration eps = 0, so every Gauss point writes the prestress.
TEST(OutputPlatesFile, MembraneWritesItsGaussPointFluxes) {
  const auto run = mbl::test::run_deck_text("pla", R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 4; joints: 4; plates: 1; end: control data;
begin: nodes;
  structural: 1, static, 1., 1., 0., eye, null, null;
  structural: 2, static, -1., 1., 0., eye, null, null;
  structural: 3, static, -1., -1., 0., eye, null, null;
  structural: 4, static, 1., -1., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  joint: 4, clamp, 4, node, node;
  membrane4eas: 7, 1, 2, 3, 4, isotropic, E, 1.e9, nu, .3, thickness, 1.e-3,
    prestress, 250., -40., 15.;
end: elements;
)");
  ASSERT_EQ(run.rc, 0) << run.log();
  const auto pla = mbl::test::records(run.output("pla"), 7);
  ASSERT_FALSE(pla.empty()) << run.log();
  ASSERT_EQ(pla.back().size(), 12u);
  for (int g = 0; g < 4; ++g) {
    EXPECT_NEAR(pla.back()[3 * g], 250., 1e-9) << g;
    EXPECT_NEAR(pla.back()[3 * g + 1], -40., 1e-9) << g;
    EXPECT_NEAR(pla.back()[3 * g + 2], 15., 1e-9) << g;
  }
  std::filesystem::remove_all(run.dir);
}
