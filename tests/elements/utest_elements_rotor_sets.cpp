// Resultant force sets of a rotor (`set, ...` after the induced velocity model; MBDyn's
// base/resforces.cc and the set lines of rotor.cc Rotor::Output): the loads of the listed
// elements summed about the origin (`external`), about a node (`node`), and in that node's frame
// (`node, ..., local`).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "elements/aero/air_properties.hpp"
#include "elements/aero/rotor.hpp"
#include "mbdyn-like/core/model.hpp"
#include "support/aero_tables.hpp"
#include "support/element_fixture.hpp"
#include "support/frc_text_sink.hpp"
#include "support/run_program.hpp"

using namespace mbl;
using namespace mbl::elements::aero;

namespace {

/// The six numbers after the first word of `line`.
std::vector<double> six_numbers(const std::string& line) {
  std::istringstream s(line);
  std::string id;
  s >> id;
  std::vector<double> v(6);
  for (double& x : v) s >> x;
  return v;
}

ResultantSet make_set(ResultantSet::Pole pole, const StructNode* node, std::set<unsigned> elements) {
  ResultantSet s;
  s.pole = pole;
  s.node = node;
  s.elements = std::move(elements);
  return s;
}

}  // namespace

// Two known loads: element 10 (F1, M1 at x1), element 11 (F2 at x2), element 13 in no set.
//   external {10, 11}:      F = F1 + F2, M = M1 + x1 x F1 + x2 x F2
//   node 2 {10}:            F = F1,      M = M1 + (x1 - x_2) x F1
//   node 2, local {11, 12}: F = R_2^T F2, M = R_2^T ((x2 - x_2) x F2)
TEST(RotorResultantSets, SumTheListedElementsLoadsAboutTheirPole) {
  test_support::ElementFixture f;
  f.model.add_element(
      std::make_unique<AirProperties>(std::make_shared<ConstDrive>(1.225), 340., [](double) { return Vec3::Zero(); }));
  RotorParams p = test_support::rotor_params(f, RotorParams::Model::None);
  p.sets.push_back(make_set(ResultantSet::Pole::Origin, nullptr, {10, 11}));
  p.sets.push_back(make_set(ResultantSet::Pole::Node, f.n2, {10}));
  p.sets.push_back(make_set(ResultantSet::Pole::NodeLocal, f.n2, {11, 12}));
  auto& rotor = static_cast<Rotor&>(f.model.add_element(std::make_unique<Rotor>(7, p)));
  f.residual_at_start(rotor);  // resets the sums, as each assembly does

  const Vec3 F1(1., -2., 30.), M1(0.5, 0.25, -4.), x1(2., 1., -0.5);
  const Vec3 F2(-3., 4., 20.), M2 = Vec3::Zero(), x2(-1., 3., 0.25);
  const Vec3 F3(100., 100., 100.), M3(7., 7., 7.), x3(5., 5., 5.);
  rotor.add_load(10, F1, M1, x1);
  rotor.add_load(11, F2, M2, x2);
  rotor.add_load(13, F3, M3, x3);

  const auto& sets = rotor.resultant_sets();
  ASSERT_EQ(sets.size(), 3u);
  const Vec3 x_2 = f.n2->x_W();
  const Mat3 R_2 = f.n2->R_WN();
  const Vec3 F_ext = F1 + F2, M_ext = M1 + x1.cross(F1) + x2.cross(F2);
  const Vec3 F_node = F1, M_node = M1 + (x1 - x_2).cross(F1);
  const Vec3 F_local = R_2.transpose() * F2, M_local = R_2.transpose() * (x2 - x_2).cross(F2);
  EXPECT_NEAR((sets[0].force_out() - F_ext).norm(), 0., 1e-13);
  EXPECT_NEAR((sets[0].moment_out() - M_ext).norm(), 0., 1e-13);
  EXPECT_NEAR((sets[1].force_out() - F_node).norm(), 0., 1e-13);
  EXPECT_NEAR((sets[1].moment_out() - M_node).norm(), 0., 1e-13);
  EXPECT_NEAR((sets[2].force_out() - F_local).norm(), 0., 1e-13);
  EXPECT_NEAR((sets[2].moment_out() - M_local).norm(), 0., 1e-13);
  // The rotor itself sums every element.
  EXPECT_NEAR((rotor.thrust_force_W() - (F1 + F2 + F3)).norm(), 0., 1e-12);

  // .rot: the rotor's line, then `<label>:<set> F M` per set, sets numbered from 1.
  test_support::FrcTextSink out(OutputFile::Rot, true);  // .rot, labels as MBDyn's setw(8)
  rotor.output(out);
  std::vector<std::string> lines;
  std::istringstream text(out.frc.str());
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u) << out.frc.str();
  const std::pair<Vec3, Vec3> expected[] = {{F_ext, M_ext}, {F_node, M_node}, {F_local, M_local}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(lines[i + 1].substr(0, 10), "       7:" + std::to_string(i + 1)) << lines[i + 1];
    const std::vector<double> v = six_numbers(lines[i + 1]);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(v[k], expected[i].first[k], 1e-5 * (1. + std::abs(expected[i].first[k]))) << i << ' ' << k;
      EXPECT_NEAR(v[3 + k], expected[i].second[k], 1e-5 * (1. + std::abs(expected[i].second[k]))) << i << ' ' << k;
    }
  }

  // The next assembly starts the sums again.
  f.residual_at_start(rotor);
  for (const ResultantSet& s : rotor.resultant_sets()) EXPECT_EQ(s.F_W + s.M_W, Vec3::Zero());
}

#ifdef MBL_BINARY
// End to end: two aerodynamic bodies on the free hub node 2 send their loads to a `no` rotor
// whose craft node 1 is clamped at the origin with the global orientation. The set lines follow
// the rotor's line at each step; about the origin (`external`, or node 1 `local`) a set of both
// elements is the rotor's own force and moment (disc frame = global, pole = craft node = origin);
// about node 2 its moment is M - x_2 x F.
TEST(RotorResultantSets, DeckWritesASetLineAfterEachRotorLine) {
  const std::string c81 = (test::fresh_temp_dir("rotor_sets_c81") / "plate.c81").string();
  std::ofstream(c81) << test_support::flat_plate_c81(0.3);
  const std::string deck =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 0.02; time step: 0.01;\n"
      "  tolerance: 1e-4; max iterations: 20; derivatives tolerance: 1e-2; end: initial value;\n"
      "begin: control data; structural nodes: 2; rigid bodies: 1; joints: 1; air properties;\n"
      "  aerodynamic elements: 2; induced velocity elements: 1; end: control data;\n"
      "begin: nodes;\n"
      "  structural: 1, static, null, eye, null, null;\n"
      "  structural: 2, dynamic, 0.3, -0.2, 0.5, eye, null, 0., 0., 40.;\n"
      "end: nodes;\n"
      "begin: elements;\n"
      "  joint: 5, clamp, 1, node, node;\n"
      "  body: 1, 2, 100., null, diag, 50., 50., 100.;\n"
      "  air properties: 1.225, 340., 1., 0., 0., const, 0.;\n"
      "  c81 data: 1, \"" + c81 + "\";\n"
      "  induced velocity: 3, rotor, 1, 2, induced velocity, no,\n"
      "    set, 3, external, 2, 10, 11, node, 2, 2, 11, 10, node, 1, local, 2, 10, 11;\n"
      "  aerodynamic body: 10, 2, induced velocity, 3, 3., 0.2, 0.1, 1, 0., 1., 0., 3, 1., 0., 0., 2.,\n"
      "    const, 0.3, const, 0., const, 0., const, 0., 3, c81, 1;\n"
      "  aerodynamic body: 11, 2, induced velocity, 3, -3., -0.2, 0.1, 1, 0., -1., 0., 3, -1., 0., 0., 2.,\n"
      "    const, 0.3, const, 0., const, 0., const, 0., 3, c81, 1;\n"
      "end: elements;\n";
  const test::TextDeckRun run = test::run_deck_text("rotor_sets", deck);
  ASSERT_EQ(run.rc, 0) << run.log();
  std::ifstream rot(run.output("rot"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(rot, line);) lines.push_back(line);
  // Node 2 (off the craft node) moves a little: its position from the .mov file.
  std::ifstream mov(run.output("mov"));
  std::map<int, Vec3> x_2;  // by step
  int step = 0;
  for (std::string line; std::getline(mov, line);) {
    std::istringstream s(line);
    unsigned label = 0;
    Vec3 x;
    s >> label >> x.x() >> x.y() >> x.z();
    if (label == 2) x_2[step++] = x;
  }
  ASSERT_EQ(lines.size(), 4u * x_2.size()) << run.output("rot");
  ASSERT_GE(x_2.size(), 2u);
  for (std::size_t s = 0; s < x_2.size(); ++s) {
    const std::string& main = lines[4 * s];
    EXPECT_EQ(main.substr(0, 8), "       3") << main;
    for (int i = 1; i <= 3; ++i) EXPECT_EQ(lines[4 * s + i].substr(0, 10), "       3:" + std::to_string(i));
    std::vector<double> rotor = six_numbers(main);
    const Vec3 F(rotor[0], rotor[1], rotor[2]), M(rotor[3], rotor[4], rotor[5]);
    ASSERT_GT(F.norm(), 1.) << main;
    const std::vector<double> ext = six_numbers(lines[4 * s + 1]), node2 = six_numbers(lines[4 * s + 2]),
                              local1 = six_numbers(lines[4 * s + 3]);
    const Vec3 M_about_2 = M - x_2[s].cross(F);
    EXPECT_GT(x_2[s].cross(F).norm(), 0.1 * F.norm());  // the poles differ by much
    for (int k = 0; k < 3; ++k) {
      const double tol_f = 1e-5 * F.norm(), tol_m = 1e-5 * (M.norm() + F.norm());
      EXPECT_NEAR(ext[k], F[k], tol_f);
      EXPECT_NEAR(ext[3 + k], M[k], tol_m);
      EXPECT_NEAR(local1[k], F[k], tol_f);
      EXPECT_NEAR(local1[3 + k], M[k], tol_m);
      EXPECT_NEAR(node2[k], F[k], tol_f);
      EXPECT_NEAR(node2[3 + k], M_about_2[k], tol_m);
    }
  }
}

// MBDyn's ReadResSet refuses an element listed twice in a set and an unknown set type.
TEST(RotorResultantSets, RefusesARepeatedElementAndAnUnknownType) {
  const std::string head =
      "begin: data; problem: initial value; end: data;\n"
      "begin: initial value; initial time: 0.; final time: 0.01; time step: 0.01; end: initial value;\n"
      "begin: control data; structural nodes: 2; air properties; induced velocity elements: 1; end: control data;\n"
      "begin: nodes; structural: 1, static, null, eye, null, null; structural: 2, static, null, eye, null, null; end: nodes;\n"
      "begin: elements; air properties: 1.225, 340., 1., 0., 0., const, 0.;\n"
      "  induced velocity: 3, rotor, 1, 2, induced velocity, no, set, 1, ";
  const auto twice = test::run_deck_text("rotor_sets_twice", head + "external, 2, 10, 10;\nend: elements;\n");
  EXPECT_EQ(twice.rc, 2);
  EXPECT_NE(twice.log().find("deck:6:"), std::string::npos) << twice.log();
  EXPECT_NE(twice.log().find("expected an element label not yet in the set, found 10"), std::string::npos) << twice.log();
  const auto type = test::run_deck_text("rotor_sets_type", head + "internal, 1, 10;\nend: elements;\n");
  EXPECT_EQ(type.rc, 2);
  EXPECT_NE(type.log().find("expected a force set type (external or node)"), std::string::npos) << type.log();
}
#endif
