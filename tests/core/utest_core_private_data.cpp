// Private data of every listed node and element kind under MBDyn's names and numbers (each
// kind's iGetPrivDataIdx / dGetPrivData in MBDyn's source): for each kind, every entry of the
// kind's listing (PrivateDataOwner::private_data_info) is found back by its name at its index, and
// its value is compared with the quantity computed here from the element's own state (node
// positions, velocities, closed-form reactions of a body at rest). One test reads a datum
// through the four paths (element drive, node drive, `bind`, model:: and the math plugins).
// With MBL_PRIVATE_DATA_TABLE=<file> the tests write docs/conformance/private-data.md from the
// listings, with the status of each row.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "elements/aero/rotor.hpp"
#include "elements/solids/solid_shapes.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "mbdyn-like/phases/model_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"

namespace mbl {
namespace {

// ---- the generated table -----------------------------------------------------------------------

struct Row {
  unsigned index;
  std::string name, meaning, status;
};
struct Section {
  std::string kind, source;
  std::vector<Row> rows;
};
std::vector<Section>& sections() {
  static std::vector<Section> s;
  return s;
}

class TableWriter : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* path = std::getenv("MBL_PRIVATE_DATA_TABLE");
    if (!path) return;
    std::ofstream t(path);
    t << "# Private data (generated)\n\n"
         "Written by `MBL_PRIVATE_DATA_TABLE=docs/conformance/private-data.md build/utest_core "
         "--gtest_filter='PrivateData*'` (tests/core/utest_core_private_data.cpp) from the kinds' own "
         "listings (`PrivateDataOwner::private_data_info`, the one list that `node` and `element` "
         "drives, `bind`, the `model::` functions and the `[node|element, ...]` plugins look names up "
         "in). Names and numbers are MBDyn 2024's (the MBDyn source file of each kind is given); "
         "`index, n` in a drive is the number of the first column.\n\n"
         "Status: **checked** — the test compares the value with the quantity computed from the "
         "element's own state (node states, closed-form reactions); **listed** — name and number "
         "checked, value not compared yet; **refused (as MBDyn)** — MBDyn's dGetPrivData stops with an "
         "error on the datum, and drives, `bind` and the plugins refuse its index here (the test "
         "checks so); **ours** — a datum MBDyn's kind does not have (an "
         "extension kept for decks written for mbdyn-like).\n\n"
         "Kinds with no MBDyn private data and none of ours are not listed: forces and couples "
         "(MBDyn's strforces.cc defines none), gravity, beam slider (beamslider.cc: 0 data). Driven "
         "elements expose their inner element's data (0 while inactive, driven.cc). The `automatic "
         "structural` element of a dynamic node is reached by the node's label.\n\n"
         "The elements holding a constitutive law (rod, deformable hinge, displacement, axial and "
         "deformable joints, viscous body) expose the law's data after their own as "
         "`constitutiveLaw.<name>` (constltp.h ConstitutiveLaw*Owner); in MBDyn 2024 only the "
         "shock absorber law has any (shockabsorber.h: p, A, Fe, Fv; the rod and deformable axial "
         "joint sections with that law below).\n\n"
         "Not listed here: rod bezier (rodbezj.cc), point contact, "
         "shells and membranes (their iGetNumPrivData is declared, never defined): not implemented "
         "kinds or no data; loadable (user defined) elements: whatever their module defines. "
         "Differences from MBDyn kept on purpose: the screw's M (C1 lambda) takes the axis once in "
         "the global frame (screwjoint.cc applies node 1's orientation to the already global axis "
         "in C1).\n";
    for (const Section& s : sections()) {
      t << "\n## " << s.kind << "\n\n" << s.source << "\n\n| index | name | meaning | status |\n|---:|---|---|---|\n";
      for (const Row& r : s.rows)
        t << "| " << r.index << " | " << (r.name.empty() ? std::string("(index only)") : "`" + r.name + "`")
          << " | " << r.meaning << " | " << r.status << " |\n";
    }
  }
};
[[maybe_unused]] ::testing::Environment* const table_writer = ::testing::AddGlobalTestEnvironment(new TableWriter);

/// Checks the listing of `o` and compares each datum named in `expected` ("#i" for a datum MBDyn
/// leaves without a name) with its value; records the kind's section of the table.
void check_kind(const std::string& kind, const std::string& source, const parser::PrivateDataOwner& o,
                const std::map<std::string, double>& expected, double tol = 1e-9) {
  SCOPED_TRACE(kind);
  const unsigned n = o.private_data_count();
  EXPECT_GT(n, 0u);
  Section sec{kind, source, {}};
  std::set<std::string> seen;
  for (unsigned i = 1; i <= n; ++i) {
    const parser::PrivateDataOwner::DatumInfo info = o.private_data_info(i);
    EXPECT_FALSE(info.meaning.empty()) << "datum " << i << " is not listed";
    if (!info.name.empty()) {
      EXPECT_EQ(o.private_data_index(info.name), i) << info.name;
    }
    const std::string key = info.name.empty() ? fmt::format("#{}", i) : info.name;
    std::string status = "listed";
    if (auto it = expected.find(key); it != expected.end()) {
      EXPECT_NEAR(o.private_data(i), it->second, tol * std::max(1.0, std::abs(it->second))) << key;
      seen.insert(key);
      status = "checked";
    }
    if (info.refused) {
      // MBDyn's dGetPrivData stops with an error on it: no name, and drives refuse the index.
      EXPECT_TRUE(info.name.empty()) << i;
      EXPECT_FALSE(parser::private_data_index_error(o, i, kind).empty()) << i;
      EXPECT_EQ(expected.count(key), 0u) << key;
      status = "refused (as MBDyn)";
    }
    if (info.extension) status += ", ours";
    sec.rows.push_back({i, info.name, info.meaning, status});
  }
  for (const auto& [name, value] : expected)
    if (!seen.count(name)) ADD_FAILURE() << kind << ": no datum " << name;
  EXPECT_EQ(o.private_data_info(n + 1).name, "");
  sections().push_back(std::move(sec));
}

void put3(std::map<std::string, double>& m, const std::string& fmt_name, const Vec3& v) {
  for (int i = 0; i < 3; ++i) m[fmt::format(fmt::runtime(fmt_name), i + 1, char('x' + i))] = v[i];
}

/// Reads and runs `deck` in this process; the model keeps the last converged state.
BuildResult run(const std::string& name, const std::string& deck) {
  BuildResult b = read_deck_text(name, deck);
  EXPECT_EQ(b.not_implemented, 0u);
  output::OutputConfig oc;
  oc.prefix = (std::filesystem::temp_directory_path() / fmt::format("mbl_private_data_{}_{}", name, ::getpid())).string();
  oc.text = true;
  std::ostringstream log;
  ModelOutput out(oc);
  const RunReport r = run_simulation(*b.model, b.settings, out, log);
  EXPECT_EQ(r.status, RunStatus::Completed) << r.message << log.str();
  return b;
}

StructNode& node(BuildResult& b, unsigned label) {
  auto* n = dynamic_cast<StructNode*>(b.model->find_node("structural", label));
  if (!n) throw std::runtime_error(fmt::format("no structural node {}", label));
  return *n;
}
const Element& element(BuildResult& b, const char* kind, unsigned label) {
  const Element* e = b.model->find_element(kind, label);
  if (!e) throw std::runtime_error(fmt::format("no {} {}", kind, label));
  return *e;
}

// ---- structural node ---------------------------------------------------------------------------

/// Euler parameters of R, sign chosen as MBDyn's MatR2EulerParams (the largest of the four
/// squared components is taken positive), computed here from the quaternion of R.
Eigen::Vector4d euler_parameters(const Mat3& R) {
  const Eigen::Quaterniond q(R);
  Eigen::Vector4d e(q.w(), q.x(), q.y(), q.z());
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (std::abs(e[i]) >= std::abs(e[k]) - 1e-15) k = i;
  return e[k] < 0.0 ? Eigen::Vector4d(-e) : e;
}

TEST(PrivateData, StructuralNode) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., -2., 3., euler123, 0.3, -1.2, 2.5, -0.5, 0.25, 2., 0.7, -0.4, 1.1;
end: nodes;
begin: elements;
  body: 1, 1, 2., null, eye;
end: elements;
)";
  BuildResult b = read_deck_text("private_data_struct_node", deck);
  ASSERT_EQ(b.not_implemented, 0u);
  StructNode& n = node(b, 1);
  const Vec3 xpp(0.1, -0.2, 0.3), wp(-1.5, 0.5, 2.5);
  n.set_accelerations(xpp, wp);
  const Mat3& R = n.R_WN();
  const Vec3 phi = rot::R_to_rotvec(R);
  std::map<std::string, double> x;
  put3(x, "X[{}]", n.x_W());
  put3(x, "x[{}]", R.transpose() * n.x_W());
  put3(x, "Phi[{}]", phi);
  put3(x, "XP[{}]", n.v_W());
  put3(x, "xP[{}]", R.transpose() * n.v_W());
  put3(x, "Omega[{}]", n.w_W());
  put3(x, "omega[{}]", R.transpose() * n.w_W());
  put3(x, "E[{}]", rot::R_to_euler123(R));
  put3(x, "E313[{}]", rot::R_to_euler313(R));
  put3(x, "E321[{}]", rot::R_to_euler321(R));
  const Eigen::Vector4d e = euler_parameters(R);
  for (int i = 0; i < 4; ++i) x[fmt::format("PE[{}]", i)] = e[i];
  put3(x, "XPP[{}]", xpp);
  put3(x, "xPP[{}]", R.transpose() * xpp);
  put3(x, "OmegaP[{}]", wp);
  put3(x, "omegaP[{}]", R.transpose() * wp);
  put3(x, "phi[{}]", R.transpose() * phi);
  EXPECT_EQ(n.private_data_count(), 49u);  // MBDyn's StructNode::iGetNumPrivData
  check_kind("structural node", "mbdyn/struct/strnode.cc `StructNode::iGetPrivDataIdx` (displacement-only nodes: "
             "`StructDispNode`, the same numbering)", n, x, 1e-12);
  EXPECT_EQ(n.private_data_index("E123[2]"), n.private_data_index("E[2]"));
  EXPECT_EQ(n.private_data_index("PE[4]"), 0u);
  EXPECT_EQ(n.private_data_index("X[0]"), 0u);
  EXPECT_EQ(n.private_data_index("X"), 0u);
}

// ---- scalar nodes, genels, air properties ------------------------------------------------------

TEST(PrivateData, ScalarNodesGenelsAndAirProperties) {
  // Abstract node 1 on a spring support (k = 4) loaded by 2: x = 0.5 at rest; node 2 algebraic,
  // clamped to 3 by a genel; parameter node 5 bound to the spring's force; hydraulic node 7
  // clamped by a genel to 2e5.
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; end: initial value;
begin: control data; abstract nodes: 2; parameter nodes: 1; hydraulic nodes: 1; genels: 3; forces: 1;
  air properties; end: control data;
begin: nodes;
  abstract: 1, algebraic;
  abstract: 2, algebraic;
  parameter: 5, element;
  hydraulic: 7, 1.e5;
end: nodes;
begin: elements;
  genel: 1, spring support, 1, abstract, algebraic, linear elastic, 4.;
  force: 1, abstract, 1, abstract, const, 2.;
  genel: 2, clamp, 2, abstract, algebraic, const, 3.;
  genel: 3, clamp, 7, hydraulic, algebraic, const, 2.e5;
  bind: 1, genel, 5, string, "F";
  air properties: 1.2, 340., 3., 4., 12., const, 0.5;
end: elements;
)";
  BuildResult b = run("scalar", deck);
  const Node* a1 = b.model->find_node("abstract", 1);
  const Node* a2 = b.model->find_node("abstract", 2);
  const Node* p5 = b.model->find_node("parameter", 5);
  const Node* h7 = b.model->find_node("hydraulic", 7);
  ASSERT_TRUE(a1 && a2 && p5 && h7);
  check_kind("abstract node (also electric, thermal)", "mbdyn/base/scalarnode.cc `ScalarDifferentialNode` (x, xP), "
             "`ScalarAlgebraicNode` (x)", *a1, {{"x", 0.5}});
  EXPECT_EQ(a2->private_data_count(), 1u);
  EXPECT_NEAR(a2->private_data(1), 3.0, 1e-12);
  check_kind("parameter node", "mbdyn/base/scalarnode.cc `ScalarAlgebraicNode` (x)", *p5, {{"x", 2.0}});
  check_kind("hydraulic node", "mbdyn/base/scalarnode.cc `ScalarAlgebraicNode` (MBDyn's PressureNode: x)", *h7,
             {{"x", 2.e5}});
  // The spring carries the load 2: F = k x = 2 at x = 0.5.
  check_kind("genel: spring support", "mbdyn/elec/genel_.cc `GenelSpringSupport`",
             element(b, "genel", 1), {{"F", 2.0}, {"X", 0.5}});
  // air properties: density, sound celerity, then the velocity (3, 4, 12) times the drive's 0.5.
  const Vec3 v = Vec3(3., 4., 12.) * 0.5;
  check_kind("air properties", "mbdyn/aero/aerodyn.cc `AirProperties`", element(b, "air properties", 1),
             {{"vxinf", v[0]}, {"vyinf", v[1]}, {"vzinf", v[2]}, {"vinf", 6.5}});
}

// ---- joints holding bodies at rest under gravity ------------------------------------------------

// Each joint holds a body of its own (mass on the node, no offset) at rest under gravity g = 9.81
// along -z: its reaction is the body's weight m g, seen in the joint's frame R_WJ as R_WJ^T F_W;
// no moment. The sign is the one of each kind's .jnt columns, which the deck agreement tests
// compare with MBDyn's: the planar hinges give F_W = (0, 0, m g), the total, drive displacement
// and clamp joints (0, 0, -m g); the frame is the one of each kind's dGetPrivData (the revolute
// hinge's and axial rotation's F global, the total joint's in the joint frame). The kinematic
// data are those of the nodes.
constexpr double kG = 9.81;

TEST(PrivateData, JointsHoldingBodiesAtRest) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 9; rigid bodies: 8; joints: 10; gravity; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 11, dynamic, 1., 0., -1., euler123, 0.3, 0.2, 0.1, null, null;
  structural: 12, dynamic, 2., 0., -1., eye, null, null;
  structural: 13, dynamic, 3., 0., -1., eye, null, null;
  structural: 14, dynamic, 4., 0., -1., eye, null, null;
  structural: 15, dynamic, 5., 0., -1., eye, null, null;
  structural: 16, dynamic, 6., 0., -1., eye, null, null;
  structural: 18, dynamic, 8., 0., -1., eye, null, 0., 0., 0.5;
  structural: 19, dynamic, 9., 0., -1., eye, null, null;
end: nodes;
begin: elements;
  gravity: uniform, 0., 0., -1., const, 9.81;
  joint: 1, clamp, 1, node, node;
  body: 11, 11, 1.5, null, diag, 1., 1., 1.;
  body: 12, 12, 2., null, diag, 1., 1., 1.;
  body: 13, 13, 2.5, null, diag, 1., 1., 1.;
  body: 14, 14, 3., null, diag, 1., 1., 1.;
  body: 15, 15, 3.5, null, diag, 1., 1., 1.;
  body: 16, 16, 4., null, diag, 1., 1., 1.;
  body: 18, 18, 5., null, diag, 1., 1., 2.;
  body: 19, 19, 5.5, null, diag, 1., 1., 1.;
  joint: 11, revolute hinge, 1, position, 1., 0., -1., orientation, euler123, 0.3, 0.2, 0.1,
    11, position, null, orientation, eye;
  joint: 12, total joint, 1, position, 2., 0., -1., position orientation, euler123, 0.1, -0.2, 0.3,
    rotation orientation, euler123, 0.1, -0.2, 0.3,
    12, position, null, position orientation, euler123, 0.1, -0.2, 0.3, rotation orientation, euler123, 0.1, -0.2, 0.3,
    position constraint, active, active, active, null, orientation constraint, active, active, active, null;
  joint: 13, total pin joint, 13, position, null, position orientation, eye, rotation orientation, eye,
    position, 3., 0., -1., position orientation, euler123, -0.2, 0.1, 0.4, rotation orientation, eye,
    position constraint, active, active, active, null, orientation constraint, active, active, active, null;
  joint: 14, spherical hinge, 1, position, 4., 0., -1., orientation, euler123, 0.2, 0.4, -0.1,
    14, position, null, orientation, euler123, 0.2, 0.4, -0.1;
  joint: 15, drive displacement, 1, 5., 0., 0., 15, null, single, 0., 0., -1., const, 1.;
  joint: 16, distance, 1, position, 6., 0., 0., 16, position, null, const, 1.;
  joint: 160, prismatic, 1, 16;
  joint: 18, axial rotation, 1, position, 8., 0., -1., 18, position, null, const, 0.5;
  joint: 19, clamp, 19, node, node;
end: elements;
)";
  BuildResult b = run("joints_at_rest", deck);
  auto weight = [](double m) { return Vec3(0., 0., m * kG); };
  auto minus_weight = [](double m) { return Vec3(0., 0., -m * kG); };
  {
    std::map<std::string, double> x{{"rz", 0.}, {"wz", 0.}};
    put3(x, "F{1}", weight(1.5));  // global (planej.cc), unlike M
    put3(x, "M{1}", Vec3::Zero());
    check_kind("joint: revolute hinge, revolute pin", "mbdyn/struct/planej.cc `PlaneHingeJoint`, `PlanePinJoint` "
               "(MBDyn counts 2 for the pin: rz, wz; its names Fx..Mz still resolve to 3..8)",
               element(b, "joint", 11), x, 1e-4);  // M: the start's dCoef-sized offsets, 3e-5
  }
  {
    const Mat3 R = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
    std::map<std::string, double> x;
    for (const char* v : {"p{1}", "r{1}", "d{1}", "t{1}", "v{1}", "w{1}", "M{1}"}) put3(x, v, Vec3::Zero());
    put3(x, "F{1}", R.transpose() * minus_weight(2.));
    check_kind("joint: total joint", "mbdyn/struct/totalj.cc `TotalJoint`", element(b, "joint", 12), x, 1e-8);
  }
  {
    const Mat3 R = rot::euler123_to_R(Vec3(-0.2, 0.1, 0.4));
    std::map<std::string, double> x;
    for (const char* v : {"p{1}", "r{1}", "d{1}", "t{1}", "v{1}", "w{1}", "M{1}"}) put3(x, v, Vec3::Zero());
    put3(x, "F{1}", R.transpose() * minus_weight(2.5));
    check_kind("joint: total pin joint", "mbdyn/struct/totalj.cc `TotalPinJoint`", element(b, "joint", 13), x, 1e-8);
  }
  {
    const Mat3 R = rot::euler123_to_R(Vec3(0.2, 0.4, -0.1));
    std::map<std::string, double> x;
    put3(x, "F{1}", R.transpose() * weight(3.));
    put3(x, "M{1}", Vec3::Zero());
    check_kind("joint: spherical hinge (also prismatic, in line, in plane, cardano, universal, plane displacement, "
               "coincidence, ...: every joint MBDyn gives no private data)",
               "MBDyn: none (the `Joint` base class has no private data); the reaction is ours",
               element(b, "joint", 14), x, 1e-8);
  }
  {
    std::map<std::string, double> x;
    put3(x, "d{1}", Vec3(0., 0., -1.));
    put3(x, "f{1}", minus_weight(3.5));
    check_kind("joint: drive displacement (below the ground)", "", element(b, "joint", 15), x, 1e-8);
    sections().pop_back();  // one table section per kind: the turned-ground test has it
  }
  // The reaction (ours): the multiplier, the tension of the hanging body along the joint's axis
  // (MBDyn's .jnt first column), no moment.
  check_kind("joint: distance, distance with offset", "mbdyn/struct/genj.cc `DistanceJoint`, `DistanceJointWithOffset` "
             "(d, the imposed distance); the reaction after it is ours", element(b, "joint", 16),
             {{"d", 1.0}, {"Fx", 4. * kG}, {"Fy", 0.}, {"Fz", 0.}, {"Mx", 0.}, {"My", 0.}, {"Mz", 0.}}, 1e-8);
  {
    const StructNode& n = node(b, 18);
    std::map<std::string, double> x{{"rz", rot::R_to_rotvec(n.R_WN())[2]}, {"wz", n.w_W()[2]}};
    put3(x, "F{1}", weight(5.));
    put3(x, "M{1}", Vec3::Zero());
    EXPECT_NEAR(x["wz"], 0.5, 1e-9);
    EXPECT_GT(x["rz"], 0.);
    check_kind("joint: axial rotation", "mbdyn/struct/planej.cc `AxialRotationJoint`", element(b, "joint", 18), x, 1e-8);
  }
  {
    std::map<std::string, double> x;
    put3(x, "F{1}", minus_weight(5.5));
    put3(x, "M{1}", Vec3::Zero());
    check_kind("joint: clamp", "mbdyn/struct/genj.cc `ClampJoint` (global frame)", element(b, "joint", 19), x, 1e-8);
  }
  // Bodies: at rest, E = 0 except the spinning one (J w^2 / 2); V = -m g . x (z = -1).
  check_kind("body", "mbdyn/struct/body.cc `Body` (displacement-only nodes: `Mass`)", element(b, "body", 18),
             {{"E", 0.5 * 2. * 0.25}, {"V", -5. * kG}, {"m", 5.}}, 1e-8);
}

// ---- deformable joints, rod, total joint with free rotation ------------------------------------

// Node 2 moves freely (no gravity) under a rod and deformable hinge/displacement/joint elements
// tied to the ground node 1 (at the origin, aligned with W, every offset null): their data are
// the relative kinematics of node 2 (x, rotation vector, v, w in W) and the laws' loads.
TEST(PrivateData, DeformableJointsAndRodFollowTheNodes) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 3e-3; time step: 1e-3; tolerance: 1e-12; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 7; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0.2, -0.1, euler123, 0.2, -0.3, 0.4, 0.1, -0.2, 0.3, 0.3, 0.1, -0.2;
  structural: 3, dynamic, null, euler123, 0.3, -0.2, 0.5, null, 0.4, -0.3, 0.6;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 2., null, diag, 0.1, 0.2, 0.3;
  body: 3, 3, 1., null, diag, 0.5, 0.5, 0.5;
  joint: 21, rod, 1, 2, 1.2, linear elastic, 50.;
  joint: 22, deformable hinge, 1, 2, linear elastic isotropic, 10.;
  joint: 23, deformable displacement joint, 1, null, 2, null, linear elastic isotropic, 5.;
  joint: 24, deformable joint, 1, null, 2, null, linear elastic isotropic, 3.;
  joint: 25, viscous body, 2, position, null, linear viscous isotropic, 0.5;
  joint: 31, total joint, 1, position, null, 3, position, null,
    position constraint, active, active, active, null, orientation constraint, inactive, inactive, inactive, null;
end: elements;
)";
  BuildResult b = run("deformable", deck);
  const StructNode& n = node(b, 2);
  const Vec3 x = n.x_W(), v = n.v_W(), w = n.w_W(), r = rot::R_to_rotvec(n.R_WN());
  const double l = x.norm();
  check_kind("joint: rod", "mbdyn/struct/rodj.cc `Rod` (\"L\", \"LPrime\": MBDyn's obsolete names, also read)",
             element(b, "joint", 21), {{"F", 50. * (l - 1.2) / 1.2}, {"l", l}, {"lP", x.dot(v) / l}});
  {
    std::map<std::string, double> e;
    put3(e, "r{1}", r);
    put3(e, "w{1}", w);
    put3(e, "M{1}", 10. * r);
    check_kind("joint: deformable hinge, invariant deformable hinge", "mbdyn/struct/vehj.cc `DeformableHingeJoint` "
               "(then the law's constitutiveLaw.* data)", element(b, "joint", 22), e);
  }
  {
    std::map<std::string, double> e;
    put3(e, "d{1}", x);
    put3(e, "v{1}", v);
    put3(e, "F{1}", 5. * x);
    check_kind("joint: deformable displacement joint", "mbdyn/struct/vehj2.cc `DeformableDispJoint` (then the law's "
               "constitutiveLaw.* data)", element(b, "joint", 23), e);
  }
  {
    std::map<std::string, double> e;
    put3(e, "d{1}", x);
    put3(e, "r{1}", r);
    put3(e, "v{1}", v);
    put3(e, "w{1}", w);
    put3(e, "F{1}", 3. * x);
    put3(e, "M{1}", 3. * r);
    check_kind("joint: deformable joint, invariant deformable joint", "mbdyn/struct/vehj3.cc `DeformableJoint` (then the "
               "law's constitutiveLaw.* data)", element(b, "joint", 24), e);
  }
  {
    // vb.cc: the attachment frame is the node's here (no offset, no orientation).
    const Mat3 RT = n.R_WN().transpose();
    std::map<std::string, double> e;
    put3(e, "r{1}", rot::R_to_rotvec(RT));
    put3(e, "v{1}", RT * v);
    put3(e, "w{1}", RT * w);
    put3(e, "F{1}", 0.5 * RT * v);
    put3(e, "M{1}", 0.5 * RT * w);
    check_kind("joint: viscous body", "mbdyn/struct/vb.cc `ViscousBody` (then the law's constitutiveLaw.* data)",
               element(b, "joint", 25), e);
  }
  {
    const StructNode& n3 = node(b, 3);
    std::map<std::string, double> e;
    put3(e, "r{1}", rot::R_to_rotvec(n3.R_WN()));
    put3(e, "w{1}", n3.w_W());
    for (const char* q : {"p{1}", "v{1}", "d{1}", "t{1}", "F{1}", "M{1}"}) put3(e, q, Vec3::Zero());
    EXPECT_GT(n3.w_W().norm(), 0.5);
    // the free rotation of a total joint is the node's own (and is nonzero)
    check_kind("joint: total joint (free rotation)", "mbdyn/struct/totalj.cc `TotalJoint`", element(b, "joint", 31), e);
    sections().pop_back();  // one table section per kind: the first total joint test has it
  }
  check_kind("body (moving, no gravity)", "mbdyn/struct/body.cc `Body`", element(b, "body", 2),
             {{"E", 0.5 * (2. * v.squaredNorm() + w.dot(n.R_WN() * Vec3(0.1, 0.2, 0.3).asDiagonal() *
                                                           n.R_WN().transpose() * w))},
              {"V", 0.},
              {"m", 2.}});
  sections().pop_back();
}

// ---- beams ---------------------------------------------------------------------------------------

// A straight beam along x, clamped at node 1 and pulled at its end by an axial force P: at
// equilibrium the axial strain is P / EA, the axial force P, all else zero; the evaluation points
// sit on the stretched axis.
TEST(PrivateData, BeamsUnderAxialLoad) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 7; joints: 3; beams: 3; forces: 3; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 1., 0., 0., eye, null, null;
  structural: 3, static, 0., 1., 0., eye, null, null;
  structural: 4, static, 1., 1., 0., eye, null, null;
  structural: 5, static, 2., 1., 0., eye, null, null;
  structural: 6, static, 0., 2., 0., eye, null, null;
  structural: 7, static, 1., 2., 0., eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 3, clamp, 3, node, node;
  beam2: 1, 1, null, 2, null, eye, linear elastic generic, diag, 1000., 100., 100., 50., 50., 50.;
  beam3: 2, 3, null, 4, null, 5, null, eye, linear elastic generic, diag, 1000., 100., 100., 50., 50., 50.,
    same, same;
  force: 1, absolute, 2, position, null, 1., 0., 0., const, 10.;
  force: 2, absolute, 5, position, null, 1., 0., 0., const, 20.;
  joint: 6, clamp, 6, node, node;
  hbeam: 3, 6, null, 7, null, linear elastic generic, diag, 1000., 100., 100., 50., 50., 50.;
  force: 3, absolute, 7, position, null, 1., 0., 0., const, 30.;
end: elements;
)";
  BuildResult b = run("beams", deck);
  {
    std::map<std::string, double> e{{"ex", 0.01}, {"Fx", 10.}};
    for (const char* q : {"ey", "ez", "kx", "ky", "kz", "Fy", "Fz", "Mx", "My", "Mz", "Phix", "Phiy", "Phiz", "Omegax",
                          "Omegay", "Omegaz"})
      e[q] = 0.;
    e["Xx"] = 0.5 * 1.01;
    e["Xy"] = e["Xz"] = 0.;
    check_kind("beam2", "mbdyn/struct/beam2.cc `Beam2` (names of beam.cc without the point prefix; ours also "
               "reads them with \"pI.\")", element(b, "beam", 1), e, 1e-7);
  }
  {
    std::map<std::string, double> e;
    // Evaluation points at xi = -1/sqrt(3), +1/sqrt(3) of the stretched span [0, 2.04] (x).
    const double xi = 1. / std::sqrt(3.), L = 2. * 1.02;
    const double xs[2] = {0.5 * L * (1. - xi), 0.5 * L * (1. + xi)};
    for (int p = 0; p < 2; ++p) {
      const std::string pre = p == 0 ? "pI." : "pII.";
      e[pre + "ex"] = 0.02;
      e[pre + "Fx"] = 20.;
      for (const char* q : {"ey", "ez", "kx", "ky", "kz", "Fy", "Fz", "Mx", "My", "Mz", "Phix", "Phiy", "Phiz", "Omegax",
                            "Omegay", "Omegaz"})
        e[pre + q] = 0.;
      e[pre + "Xx"] = xs[p];
      e[pre + "Xy"] = 1.;
      e[pre + "Xz"] = 0.;
    }
    check_kind("beam (beam3)", "mbdyn/struct/beam.cc `Beam` (elastic: Omega stays 0 in MBDyn, ePx..kPz are "
               "viscoelastic beams' only)",
               element(b, "beam", 2), e, 1e-7);
  }
  {
    // hbeam.cc: ex, kx..kz, Fx, Mx..Mz; the shear strains and forces (2, 3, 8, 9) have no name and
    // MBDyn refuses to return them.
    std::map<std::string, double> e{{"ex", 0.03}, {"Fx", 30.}};
    for (const char* q : {"kx", "ky", "kz", "Mx", "My", "Mz"}) e[q] = 0.;
    check_kind("hbeam", "mbdyn/struct/hbeam.cc `HBeam`", element(b, "beam", 3), e, 1e-7);
  }
}

// ---- one datum, four paths -----------------------------------------------------------------------

// The rod's length read through an element drive, `bind` to a parameter node (then a node drive
// on that node), model::element::joint and the [element, ...] plugin; a node's X[1] through a
// node drive, model::node::structural and the [node, ...] plugin: all the same number, the
// distance between the nodes.
TEST(PrivateData, FourPathsReadTheSameDatum) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; end: initial value;
begin: control data; structural nodes: 2; parameter nodes: 1; rigid bodies: 1; joints: 2; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0.5, -0.25, eye, 0.2, 0.1, -0.3, null;
  parameter: 5, element;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 1., null, eye;
  joint: 21, rod, 1, 2, from nodes, linear elastic, 10.;
  bind: 21, joint, 5, string, "l";
  drive caller: 1, element, 21, joint, string, "l", direct;
  drive caller: 2, node, 5, parameter, string, "x", direct;
  drive caller: 3, element, 21, joint, index, 2, direct;
  drive caller: 4, node, 2, structural, string, "X[1]", direct;
  set: [element, ROD_L, 21, joint, string="l"];
  set: [node, NODE_X, 2, structural, string="X[1]"];
end: elements;
)";
  BuildResult b = run("four_paths", deck);
  const StructNode& n = node(b, 2);
  const double l = n.x_W().norm(), t = 2e-3;
  ASSERT_GT(std::abs(l - std::sqrt(1.3125)), 1e-6);  // the node moved
  auto drive = [&](int label) {
    auto d = b.read_context->find_named<DriveCaller>("drive caller", std::to_string(label));
    if (!d) throw std::runtime_error("no drive caller");
    return d->value(t);
  };
  auto& math = b.model->math();
  EXPECT_NEAR(element(b, "joint", 21).private_data(2), l, 1e-12);
  EXPECT_NEAR(drive(1), l, 1e-12);                                      // element drive, by name
  EXPECT_NEAR(drive(3), l, 1e-12);                                      // element drive, by index
  EXPECT_NEAR(b.model->find_node("parameter", 5)->private_data(1), l, 1e-12);  // bind
  EXPECT_NEAR(drive(2), l, 1e-12);                                      // node drive on the bound node
  EXPECT_NEAR(math.evaluate("model::element::joint(21, \"l\")", {}).to_real(), l, 1e-12);
  EXPECT_NEAR(math.evaluate("ROD_L", {}).to_real(), l, 1e-12);
  EXPECT_NEAR(drive(4), n.x_W()[0], 1e-12);                             // node drive
  EXPECT_NEAR(math.evaluate("model::node::structural(2, \"X[1]\")", {}).to_real(), n.x_W()[0], 1e-12);
  EXPECT_NEAR(math.evaluate("NODE_X", {}).to_real(), n.x_W()[0], 1e-12);
}

// ---- revolute rotation, brake --------------------------------------------------------------------

// Node 2 turned by 0.3 about z and spinning at 0.5 about z relative to the fixed node 1 (read from
// the cards, nothing solved: the data are computed from the nodes' states).
TEST(PrivateData, RevoluteRotationAndBrake) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 2; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, euler123, 0., 0., 0.3, null, 0., 0., 0.5;
end: nodes;
begin: elements;
  body: 2, 2, 1., null, eye;
  joint: 2, revolute rotation, 1, 2;
  joint: 3, brake, 1, null, 2, null, friction, 0.1, modlugre, 1.e3, 0., 0., 0.5, "mu", const, 0.2,
    simple, const, 50.;
end: elements;
)";
  BuildResult b = read_deck_text("private_data_revolute", deck);
  ASSERT_EQ(b.not_implemented, 0u);
  std::map<std::string, double> e{{"rz", 0.3}, {"wz", 0.5}};
  check_kind("joint: brake", "mbdyn/struct/brake.cc `Brake` (its friction data: not in MBDyn's count either)",
             element(b, "joint", 3), e, 1e-12);
  put3(e, "M{1}", Vec3::Zero());  // nothing solved yet
  check_kind("joint: revolute rotation", "mbdyn/struct/planej.cc `PlaneRotationJoint`", element(b, "joint", 2), e, 1e-12);
}

// ---- driven joints, screw, gimbal, displacement-node joints ---------------------------------------

/// "matr, ..." of R (row by row), for decks built here.
std::string matr(const Mat3& R) {
  return fmt::format("matr, {:.17g}, {:.17g}, {:.17g}, {:.17g}, {:.17g}, {:.17g}, {:.17g}, {:.17g}, {:.17g}", R(0, 0),
                     R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2));
}
std::string vec(const Vec3& v) { return fmt::format("{:.17g}, {:.17g}, {:.17g}", v[0], v[1], v[2]); }

// Each joint holds a node at rest against loads applied here (no gravity), so its reaction is
// the load (closed form); the signs and frames are those of MBDyn's dGetPrivData of each kind,
// the ground node 10 turned so that joint, node and global frames differ:
// - drive hinge (drvhinge.cc): node 1 receives +R1 M, node 2 -R1 M, so a couple C on node 2
//   gives M = R1^T C; rx..rz is the drive's value;
// - gimbal rotation (gimbal.cc): node 2 receives +Ra lambda: a couple C gives lambda = -Ra^T C,
//   C normal to the two free directions R_ab w_theta, R_ab w_phi (the joint's (9.156));
// - screw (screwjoint.cc): F = e lambda, M = C1 lambda, both global (not in the joint frame); a
//   force P along the axis e balanced by the couple -P p / 2 pi about it gives lambda = -P;
//   d = e . D and r = e_h . Theta (absolute, not from the start);
// - offset / rigid body displacement joints (offdispjad.cc, rbdispjad.cc): f, m are minus the
//   load the element puts on node 1 (the master), global; F, M the same in that node's frame;
// - linear / angular acceleration (accj.cc): the node receives -F e in its momentum definition,
//   so F is a momentum, m a t from rest (M = J wp t);
// - drive displacement (drvdisp.cc): d the drive's value (node 1's frame), f the reaction,
//   global: the load;
// - velocity joints (drvj.cc), the imposed value; deformable axial joint (vehj4.cc): rz, wz from
//   the nodes, Mz = k rz.
TEST(PrivateData, DrivenAndDisplacementJointsBalanceTheirLoads) {
  const Mat3 R10 = rot::euler123_to_R(Vec3(0.2, -0.1, 0.3));
  const Mat3 R6 = rot::euler123_to_R(Vec3(-0.3, 0.2, 0.1));
  const double th = 0.1, ph = 0.2;
  const Mat3 Rab = rot::R2(th) * rot::R1(ph) * rot::R2(th);  // gimbal_R(theta, phi) of gimbal.cc
  const Vec3 w_theta(std::sin(th) * std::sin(ph), 1. + std::cos(ph), -std::cos(th) * std::sin(ph));
  const Vec3 w_phi(std::cos(th), 0., std::sin(th));
  const Vec3 lam = 0.7 * (Rab * w_theta).cross(Rab * w_phi).normalized();
  const Vec3 C2(0.3, -0.4, 0.5), C3 = -(R10 * lam);
  const Vec3 e = R10.col(2);
  const double P = 2., pitch = 0.05, k_pitch = pitch / (2. * M_PI);
  const Vec3 X5(0.3, -0.2, 0.4), F5(1., -2., 3.), F6(0.5, 1., -1.5), C6(0.2, -0.3, 0.4), F16(-1., 0.5, 2.);
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 16; rigid bodies: 11; joints: 18; forces: 8;
  skip initial joint assembly; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 10, static, null, {R10}, null, null;
  structural: 2, dynamic, null, {R2}, null, null;
  structural: 3, dynamic, null, {R3}, null, null;
  structural: 4, dynamic, {X4}, {R4}, null, null;
  structural: 5, dynamic displacement, {X5}, null;
  structural: 6, dynamic, 2., 0., 0., {R6}, null, null;
  structural: 61, static, 3., 0., 0., eye, null, null;
  structural: 62, static, 2., 1., 0., eye, null, null;
  structural: 63, static, 2., 0., 1., eye, null, null;
  structural: 11, dynamic, null, eye, 2., 0., 0., null;
  structural: 12, dynamic, null, eye, null, 0., 0., 1.5;
  structural: 13, dynamic, null, eye, null, null;
  structural: 14, dynamic, null, eye, null, null;
  structural: 15, dynamic, null, euler123, 0., 0., 0.3, null, 0., 0., 0.5;
  structural: 16, dynamic, {X16}, eye, null, null;
end: nodes;
begin: elements;
  joint: 101, clamp, 1, node, node;
  joint: 110, clamp, 10, node, node;
  joint: 161, clamp, 61, node, node;
  joint: 162, clamp, 62, node, node;
  joint: 163, clamp, 63, node, node;
  body: 2, 2, 1., null, eye;
  body: 3, 3, 1., null, eye;
  body: 4, 4, 1., null, eye;
  body: 5, 5, 2.;
  body: 6, 6, 1., null, eye;
  body: 11, 11, 1., null, eye;
  body: 12, 12, 1., null, eye;
  body: 13, 13, 2., null, eye;
  body: 14, 14, 1., null, diag, 1., 1., 3.;
  body: 15, 15, 1., null, eye;
  joint: 202, spherical hinge, 10, null, 2, null;
  joint: 203, spherical hinge, 10, null, 3, null;
  joint: 2, drive hinge, 10, 2, single, 0., 0., 1., const, 0.2;
  couple: 22, absolute, 2, {C2}, const, 1.;
  joint: 3, gimbal rotation, 10, 3;
  couple: 23, absolute, 3, {C3}, const, 1.;
  joint: 4, screw, 10, position, null, orientation, eye, 4, offset, null, pitch, {pitch};
  force: 4, absolute, 4, position, null, {e}, const, {P};
  couple: 24, absolute, 4, {e}, const, {Cs};
  joint: 5, offset displacement joint, 10, 5;
  force: 5, absolute displacement, 5, {F5}, const, 1.;
  joint: 6, rigid body displacement joint, 6, 3, 61, 62, 63;
  force: 6, absolute, 6, position, null, {F6}, const, 1.;
  couple: 26, absolute, 6, {C6}, const, 1.;
  joint: 11, linear velocity, 11, 1., 0., 0., const, 2.;
  joint: 12, angular velocity, 12, 0., 0., 1., const, 1.5;
  joint: 13, linear acceleration, 13, 1., 0., 0., const, 4.;
  joint: 14, angular acceleration, 14, 0., 0., 1., const, -1.5;
  joint: 15, deformable axial joint, 1, 15, linear elastic, 10.;
  body: 16, 16, 1., null, eye;
  joint: 16, drive displacement, 10, null, 16, null, single, {d16}, const, 1.;
  force: 16, absolute, 16, position, null, {F16}, const, 1.;
end: elements;
)",
                                       fmt::arg("R10", matr(R10)), fmt::arg("R2", matr(R10 * rot::R3(0.2))),
                                       fmt::arg("R3", matr(R10 * Rab)), fmt::arg("X4", vec(0.1 * e)),
                                       fmt::arg("R4", matr(R10 * rot::R3(0.5))), fmt::arg("X5", vec(X5)),
                                       fmt::arg("R6", matr(R6)), fmt::arg("C2", vec(C2)), fmt::arg("C3", vec(C3)),
                                       fmt::arg("pitch", pitch), fmt::arg("e", vec(e)), fmt::arg("P", P),
                                       fmt::arg("Cs", -P * k_pitch), fmt::arg("F5", vec(F5)), fmt::arg("F6", vec(F6)),
                                       fmt::arg("C6", vec(C6)), fmt::arg("d16", vec(Vec3(0.1, 0.2, 0.3))),
                                       fmt::arg("F16", vec(F16)), fmt::arg("X16", vec(R10 * Vec3(0.1, 0.2, 0.3))));
  BuildResult b = run("driven_joints", deck);
  // The reactions carry the start's dCoef-sized offsets of the dynamic nodes (relative 1e-5).
  constexpr double kStart = 1e-4;
  {
    std::map<std::string, double> x;
    put3(x, "r{1}", Vec3(0., 0., 0.2));
    put3(x, "M{1}", R10.transpose() * C2);
    check_kind("joint: drive hinge", "mbdyn/struct/drvhinge.cc `DriveHingeJoint`", element(b, "joint", 2), x, kStart);
  }
  {
    std::map<std::string, double> x{{"theta", th}, {"phi", ph}};
    put3(x, "lambda[{}]", lam);
    check_kind("joint: gimbal rotation", "mbdyn/struct/gimbal.cc `GimbalRotationJoint`", element(b, "joint", 3), x, kStart);
  }
  {
    std::map<std::string, double> x{{"d", 0.1}, {"r", 0.5}};
    put3(x, "F{1}", -P * e);
    put3(x, "M{1}", P * k_pitch * e);
    check_kind("joint: screw", "mbdyn/struct/screwjoint.cc `ScrewJoint` (F, M global, as MBDyn's; its M, "
               "C1 lambda, applies R1 to the already global axis where ours does not)",
               element(b, "joint", 4), x, kStart);
  }
  {
    std::map<std::string, double> x;
    put3(x, "f{1}", -F5);
    put3(x, "m{1}", Vec3(-X5.cross(F5)));
    put3(x, "F{1}", Vec3(-R10.transpose() * F5));
    put3(x, "M{1}", Vec3(-R10.transpose() * X5.cross(F5)));
    check_kind("joint: offset displacement joint", "mbdyn/struct/offdispjad.cc `OffsetDispJointAd` (F, M in node 1's "
               "frame; f, m global)", element(b, "joint", 5), x, kStart);
  }
  {
    std::map<std::string, double> x;
    put3(x, "f{1}", F6);
    put3(x, "m{1}", C6);
    put3(x, "F{1}", Vec3(R6.transpose() * F6));
    put3(x, "M{1}", Vec3(R6.transpose() * C6));
    check_kind("joint: rigid body displacement joint", "mbdyn/struct/rbdispjad.cc `RigidBodyDispJointAd` (F, M in "
               "the master's frame; f, m global)", element(b, "joint", 6), x, kStart);
  }
  {
    // drvdisp.cc: d the drive's value (in node 1's frame: node 16 sits at R10 d), f the reaction
    // in the global frame (node 10 is turned).
    std::map<std::string, double> x;
    put3(x, "d{1}", Vec3(0.1, 0.2, 0.3));
    put3(x, "f{1}", F16);
    check_kind("joint: drive displacement, drive displacement pin", "mbdyn/struct/drvdisp.cc "
               "`DriveDisplacementJoint`, `DriveDisplacementPinJoint` (f global)", element(b, "joint", 16), x, kStart);
  }
  check_kind("joint: linear velocity", "mbdyn/struct/drvj.cc `LinearVelocityJoint`", element(b, "joint", 11),
             {{"v", 2.}});
  check_kind("joint: angular velocity", "mbdyn/struct/drvj.cc `AngularVelocityJoint`", element(b, "joint", 12),
             {{"w", 1.5}});
  // On a dynamic node the multiplier enters the momentum definition (MBDyn's iGetFirstRowIndex):
  // it is the momentum m a t (J wp t) gained from rest, not a force.
  const double t = 2e-3;
  check_kind("joint: linear acceleration", "mbdyn/struct/accj.cc `LinearAccelerationJoint`", element(b, "joint", 13),
             {{"F", 2. * 4. * t}, {"a", 4.}}, 1e-6);
  check_kind("joint: angular acceleration", "mbdyn/struct/accj.cc `AngularAccelerationJoint`",
             element(b, "joint", 14), {{"M", 3. * -1.5 * t}, {"wp", -1.5}}, 1e-6);
  {
    const StructNode& n = node(b, 15);
    const double rz = rot::R_to_rotvec(n.R_WN())[2];
    EXPECT_GT(rz, 0.3);
    check_kind("joint: deformable axial joint", "mbdyn/struct/vehj4.cc `DeformableAxialJoint` (then the law's "
               "constitutiveLaw.* data)", element(b, "joint", 15),
               {{"rz", rz}, {"wz", n.w_W()[2]}, {"Mz", 10. * rz}}, 1e-9);
  }
}

// ---- solid, variable mass body -------------------------------------------------------------------

// A hexahedron8 of side 0.5 and density 2 falling from rest under gravity: it translates rigidly
// at v = g t, its kinetic energy is (rho V) |v|^2 / 2 (solid.cc SolidElemDynamic::dGetE). A variable mass body (mass 2 + t,
// inertia 0.3 I about its node) spinning and falling under gravity: E, V from its node's state
// (body_vm.cc VariableBody).
TEST(PrivateData, SolidAndVariableMassBody) {
  const elements::solid::Shape& hex = *elements::solid::find_shape("hexahedron8");
  const Vec3 v = Vec3::Zero();
  std::string nodes, labels, rho, laws = "neo hookean elastic, E, 1.e5, nu, 0.3";
  for (int i = 0; i < hex.node_count(); ++i) {
    nodes += fmt::format("  structural: {}, dynamic displacement, {}, {};\n", i + 1, vec(0.25 * hex.nodes[i]), vec(v));
    labels += fmt::format("{}, ", i + 1);
    rho += "2., ";
  }
  for (std::size_t k = 1; k < hex.stiffness.points.size(); ++k) laws += ", same";
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-9; end: initial value;
begin: control data; structural nodes: 9; solids: 1; rigid bodies: 1; gravity; end: control data;
begin: nodes;
{nodes}  structural: 20, dynamic, 1., 2., -1., euler123, 0.1, 0.2, 0.3, 0.5, 0., 0.2, 0.1, -0.3, 0.7;
end: nodes;
begin: elements;
  hexahedron8: 1, {labels}{rho}{laws};
  body: 20, 20, variable mass, linear, 2., 1., null, null, single, eye, const, 0.3;
  gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)",
                                       fmt::arg("nodes", nodes), fmt::arg("labels", labels), fmt::arg("rho", rho),
                                       fmt::arg("laws", laws));
  BuildResult b = run("solid_variable_body", deck);
  // the solid falls too: its velocity is v + g t at every node
  const Vec3 vt = node(b, 1).v_W();
  EXPECT_NEAR(vt[2], v[2] - kG * 2e-3, 1e-7);  // (the start's dCoef-sized offset)
  check_kind("solid (hexahedron8, ..., tetrahedron10)", "mbdyn/struct/solid.cc `SolidElem` (E: 0 for static solids)",
             element(b, "solid", 1), {{"E", 0.5 * 2. * 0.125 * vt.squaredNorm()}}, 1e-9);
  const StructNode& n = node(b, 20);
  const double m = 2. + 2e-3;
  check_kind("body: variable mass", "mbdyn/struct/body_vm.cc `VariableBody` (MBDyn counts 1 datum: its V, named, is "
             "refused by a drive)", element(b, "body", 20),
             {{"E", 0.5 * (m * n.v_W().squaredNorm() + 0.3 * n.w_W().squaredNorm())},
              {"V", m * kG * n.x_W()[2]},
              {"m", m}},
             1e-9);
}

// ---- motor, discrete control ------------------------------------------------------------------------

// A motor (gain G = 5, L = 1e-3, R = 10, cogging M0 = 0.01, M1 = 0.02, 3 terminal pairs) between
// a fixed node and a node turned by 0.4 about the axis, on 10 V: its torque is all that turns
// node 2 about the axis, so M = d(gamma_z)/dt, i = (M - M0) / (G + M1), and L iP = U - G omega -
// R i (motor.cc). A discrete control (the input manual's example: A_1 = B_1 = I, the measures
// scaled by 1e-3) applies u[k] to abstract nodes held by unit springs: u[k] is their value, and
// 1e-3 times the sum of the earlier measures.
TEST(PrivateData, MotorAndDiscreteControl) {
  const std::filesystem::path control =
      std::filesystem::temp_directory_path() / fmt::format("mbl_private_data_control_{}.dat", ::getpid());
  std::ofstream(control) << "1. 0.\n0. 1.\n1. 0.\n0. 1.\n";
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 5e-3; time step: 1e-3; tolerance: 1e-10; max iterations: 20;
end: initial value;
begin: control data; structural nodes: 2; electric nodes: 2; abstract nodes: 3; joints: 2; rigid bodies: 1;
  electric elements: 2; genels: 5; forces: 1; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, euler123, 0., 0., 0.4, null, null;
  electric: 1;
  electric: 2;
  abstract: 21;
  abstract: 22;
  abstract: 31;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, revolute hinge, 1, null, 2, null;
  body: 2, 2, 1., null, diag, 1., 1., 2.;
  electric: 1, motor, 1, 2, orientation, eye, 1, 2, 5., 1.e-3, const, 10., M0, const, 0.01, M1, const, 0.02,
    terminal pairs, 3;
  genel: 1, clamp, 1, electric, algebraic, 0.;
  genel: 2, clamp, 2, electric, algebraic, 10.;
  genel: 31, spring support, 31, abstract, algebraic, linear elastic, 1.;
  force: 31, abstract, 31, abstract, sine, 0., 2*pi, 1., forever, 0.;
  genel: 21, spring support, 21, abstract, algebraic, linear elastic, 1.;
  genel: 22, spring support, 22, abstract, algebraic, linear elastic, 1.;
  electric: 3, discrete control, 2, 2, 1, 1, control, "{control}",
    outputs, node dof, 31, abstract, algebraic, scale, 1e-3,
      drive, sine, 0., 2*pi, 1., forever, 0., scale, 2e-3,
    inputs, 21, abstract, algebraic, 22, abstract, algebraic;
end: elements;
)",
                                       fmt::arg("control", control.string()));
  BuildResult b = run("motor_control", deck);
  const StructNode& n2 = node(b, 2);
  const double M = n2.gamma_dot()[2], i = (M - 0.01) / 5.02, omega = n2.w_W()[2];
  const double phim = std::atan2(n2.R_WN()(1, 0), n2.R_WN()(0, 0));
  EXPECT_GT(std::abs(i), 1e-3);
  EXPECT_GT(phim, 0.4);
  check_kind("electric: motor", "mbdyn/elec/motor.cc `Motor`", element(b, "electric", 1),
             {{"omega", omega},
              {"M", M},
              {"Pmech", omega * M},
              {"U", 10.},
              {"i", i},
              {"iP", (10. - 5. * omega - 10. * i) / 1e-3},
              {"Pel", 10. * i},
              {"Phimech", phim},
              {"Phiel", std::fmod(3. * phim, 2. * M_PI)},
              {"M0", 0.01},
              {"M1", 0.02 * i},
              {"R", 10.}},
             1e-7);
  // u(t_n) = 1e-3 sum_(j<n) y(t_j): the last of 5 steps applies the sum over steps 1..4.
  double u1 = 0., u2 = 0.;
  for (int j = 1; j < 5; ++j) {
    u1 += 1e-3 * std::sin(2. * M_PI * 1e-3 * j);
    u2 += 2e-3 * std::sin(2. * M_PI * 1e-3 * j);
  }
  EXPECT_NEAR(b.model->find_node("abstract", 21)->private_data(1), u1, 1e-12);
  EXPECT_NEAR(b.model->find_node("abstract", 22)->private_data(1), u2, 1e-12);
  check_kind("electric: discrete control", "mbdyn/elec/discctrl.cc `DiscreteControlElem` (u[1..number of inputs])",
             element(b, "electric", 3), {{"u[1]", u1}, {"u[2]", u2}}, 1e-9);
  std::filesystem::remove(control);
}

// ---- generic aerodynamic force, rotor -------------------------------------------------------------

// A generic aerodynamic force on a clamped, turned node in a steady airstream, its table constant
// (c = 1..6 everywhere): f = q S (1, 2, 3), m = q S L (4, 5, 6) in the aerodynamic frame, F = R f
// and M = R m + o x F global, alpha and beta from the body-frame airspeed (genfm.cc, "alpha
// first"). A rotor (induced velocity, no inflow model) sums the loads its aerodynamic elements
// send: T = sum F, M = sum M + (x - x_pole) x F (indvel.cc, Res.AddForces), the pole the craft
// node (indvel.cc ResetForce), here apart from the rotor node.
TEST(PrivateData, GenericAerodynamicForceAndRotor) {
  const std::filesystem::path table =
      std::filesystem::temp_directory_path() / fmt::format("mbl_private_data_genfm_{}.dat", ::getpid());
  {
    std::ofstream t(table);
    t << "2 2\n";
    for (double b : {-90., 90.})
      for (double a : {-180., 180.}) t << a << ' ' << b << " 1 2 3 4 5 6\n";
  }
  const Mat3 R = rot::euler123_to_R(Vec3(0.1, -0.2, 0.3));
  const Vec3 x_hub(1., 2., 3.);
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-10; end: initial value;
begin: control data; structural nodes: 4; rigid bodies: 1; joints: 3; aerodynamic elements: 2;
  induced velocity elements: 1; air properties; end: control data;
begin: nodes;
  structural: 1, static, null, {R}, null, null;
  structural: 2, static, {hub}, eye, null, null;
  structural: 3, static, {rotor}, euler123, 0.2, 0., 0., null, null;
  structural: 4, dynamic, 10., -20., 300., euler123, 0.05, 0.1, 0.3, 40., 10., 2., 0.01, -0.02, 0.03;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  air properties: 1.2, 340., -1., 0., -0.2, const, 30.;
  generic aerodynamic force: 10, 1, position, 0.5, 0., 0., orientation, eye, reference surface, 2.,
    reference length, 0.5, alpha first, yes, file, angle units, degrees, "{table}";
  induced velocity: 5, rotor, 2, 3, induced velocity, no;
  body: 4, 4, 1., null, eye;
  aircraft instruments: 7, 4, initial latitude, 0.5, initial longitude, -1.2, earth radius, 6.4e3;
end: elements;
)",
                                       fmt::arg("R", matr(R)), fmt::arg("hub", vec(x_hub)),
                                       fmt::arg("rotor", vec(Vec3(x_hub + Vec3(0.3, -0.2, 0.5)))),
                                       fmt::arg("table", table.string()));
  BuildResult b = run("genfm_rotor", deck);
  std::filesystem::remove(table);
  {
    const Vec3 o_W = R * Vec3(0.5, 0., 0.), v_W = -Vec3(-30., 0., -6.), v = R.transpose() * v_W;
    const double q = 0.5 * 1.2 * v_W.squaredNorm();
    const Vec3 f = q * 2. * Vec3(1., 2., 3.), m = q * 2. * 0.5 * Vec3(4., 5., 6.);
    std::map<std::string, double> x{
        {"alpha", std::atan2(v.z(), std::copysign(std::hypot(v.x(), v.y()), v.x()))},
        {"beta", -std::atan2(v.y(), std::abs(v.x()))}};
    put3(x, "F{1}", R * f);
    put3(x, "M{1}", Vec3(R * m + o_W.cross(R * f)));
    put3(x, "f{1}", f);
    put3(x, "m{1}", m);
    EXPECT_GT(std::abs(x["beta"]), 0.05);
    check_kind("generic aerodynamic force", "mbdyn/aero/genfm.cc `GenericAerodynamicForce`",
               element(b, "aerodynamic", 10), x, 1e-12);
  }
  {
    // instruments.cc (flight mechanics axes: the node's frame), from the node's state; the
    // initial position is the node's at input, latitude and longitude move with x and -y over
    // the earth radius; air properties given as density and sound speed have no pressure and
    // temperature (aerodyn.cc: -1).
    const StructNode& n = node(b, 4);
    const Mat3& R = n.R_WN();
    const Vec3 v = n.v_W(), w = n.w_W(), v_air = v - Vec3(-30., 0., -6.), vb = R.transpose() * v_air;
    double heading = -std::atan2(R(1, 0), R(0, 0));
    if (heading < 0.) heading += 2. * M_PI;
    std::map<std::string, double> x{{"airspeed", v_air.norm()},
                                    {"groundspeed", std::hypot(v.x(), v.y())},
                                    {"altitude", n.x_W().z()},
                                    {"attitude", std::asin(R(2, 0))},
                                    {"bank", std::asin(-R(2, 1))},
                                    {"turn", 60. * w.z()},
                                    {"slip", -std::atan2(vb.y(), vb.x())},
                                    {"verticalspeed", v_air.z()},
                                    {"angleofattack", -std::atan2(vb.z(), vb.x())},
                                    {"heading", heading},
                                    {"density", 1.2},
                                    {"soundcelerity", 340.},
                                    {"init_x1", 10.},
                                    {"init_x2", -20.},
                                    {"init_latitude", 0.5},
                                    {"init_longitude", -1.2},
                                    {"latitude", 0.5 + (n.x_W().x() - 10.) / 6.4e3},
                                    {"longitude", -1.2 - (n.x_W().y() + 20.) / 6.4e3},
                                    {"staticpressure", -1.},
                                    {"temperature", -1.}};
    const Vec3 rates = R.transpose() * w;
    for (int k = 0; k < 3; ++k) {
      x[std::array{"rollrate", "pitchrate", "yawrate"}[k]] = rates[k];
      x[std::array{"body_vx", "body_vy", "body_vz"}[k]] = vb[k];
      x[std::array{"body_axb", "body_ayb", "body_azb"}[k]] = n.xpp_W()[k];
      x[std::array{"body_pd", "body_qd", "body_rd"}[k]] = n.wp_W()[k];
    }
    const Element& instruments = element(b, "aerodynamic", 7);
    check_kind("aircraft instruments", "mbdyn/aero/instruments.cc `AircraftInstruments` (names in any letter case; "
               "body_axb..body_rd on dynamic nodes only)", instruments, x, 1e-9);
    EXPECT_EQ(instruments.private_data_index("AoA"), instruments.private_data_index("angleofattack"));
    EXPECT_EQ(instruments.private_data_index("sideslip"), instruments.private_data_index("slip"));
  }
  {
    auto& rotor = const_cast<elements::aero::Rotor&>(
        dynamic_cast<const elements::aero::Rotor&>(element(b, "induced velocity", 5)));
    const Vec3 F1(1., -2., 3.), M1(0.1, 0.2, -0.3), x1(1.5, 2., 3.), F2(-0.5, 1., 2.), M2(0., 0.4, 0.), x2(1., 1., 3.5);
    rotor.add_load(1, F1, M1, x1);
    rotor.add_load(1, F2, M2, x2);
    std::map<std::string, double> x;
    put3(x, "T{1}", Vec3(F1 + F2));
    put3(x, "M{1}", Vec3(M1 + M2 + (x1 - x_hub).cross(F1) + (x2 - x_hub).cross(F2)));
    check_kind("induced velocity: rotor", "mbdyn/aero/indvel.cc `InducedVelocity` (global frame; the moment about "
               "the moment about the craft node)", rotor, x, 1e-12);
  }
}

// ---- modal joint --------------------------------------------------------------------------------------

// A clamped modal element of one mode (FEM node 2 moving along z: shape (0, 0, 1), generalized
// mass 1, stiffness 100) whose FEM node 2 carries the static node 2, loaded by F = 2 along z:
// q is the node's z, qP its velocity, qPP = (F - K q) / M; the FEM nodes' x, xP are the positions
// and velocities of the points (modal.cc Modal::dGetPrivData, the 18 data of each FEM node).
TEST(PrivateData, ModalJoint) {
  const std::filesystem::path fem =
      std::filesystem::temp_directory_path() / fmt::format("mbl_private_data_modal_{}.fem", ::getpid());
  std::ofstream(fem) << "** RECORD GROUP 1, HEADER\n REV0 2 1 0 0 0\n"
                        "** RECORD GROUP 2, FINITE ELEMENT NODE LIST\n 1 2\n"
                        "** RECORD GROUP 3, INITIAL MODAL DISPLACEMENTS\n 0\n"
                        "** RECORD GROUP 4, INITIAL MODALVELOCITIES\n 0\n"
                        "** RECORD GROUP 5, NODAL X COORDINATES\n 0\n 1\n"
                        "** RECORD GROUP 6, NODAL Y COORDINATES\n 0\n 0\n"
                        "** RECORD GROUP 7, NODAL Z COORDINATES\n 0\n 0\n"
                        "** RECORD GROUP 8, MODE SHAPES\n**    NORMAL MODE SHAPE # 1\n 0 0 0 0 0 0\n 0 0 1 0 0 0\n"
                        "** RECORD GROUP 9, MATRIX\n 1\n** RECORD GROUP 10, MATRIX\n 100\n"
                        "** RECORD GROUP 11, DIAGONAL OF LUMPED MASS MATRIX\n 0.5 0.5 0.5 0 0 0\n 0.5 0.5 0.5 0 0 0\n";
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 3e-3; time step: 1e-3; tolerance: 1e-12; end: initial value;
begin: control data; structural nodes: 1; joints: 1; forces: 1; end: control data;
begin: nodes; structural: 2, static, 1., 0., 0., eye, null, null; end: nodes;
begin: elements;
  joint: 1, modal, clamped, 1, from file, no damping, "{}", 1, "2", 2, null;
  force: 1, absolute, 2, position, null, 0., 0., 1., const, 2.;
end: elements;
)",
                                       fem.string());
  BuildResult b = run("modal", deck);
  std::filesystem::remove(fem);
  const StructNode& n = node(b, 2);
  const double q = n.x_W()[2];
  ASSERT_GT(q, 1e-6);
  std::map<std::string, double> x{{"q[1]", q}, {"qP[1]", n.v_W()[2]}, {"qPP[1]", 2. - 100. * q}};
  put3(x, "x[1,{}]", Vec3::Zero());
  put3(x, "xP[1,{}]", Vec3::Zero());
  put3(x, "x[2,{}]", n.x_W());
  put3(x, "xP[2,{}]", n.v_W());
  // Accelerations: the mode shape times qPP (modal.cc, clamped: no frame terms).
  put3(x, "xPP[1,{}]", Vec3::Zero());
  put3(x, "xPP[2,{}]", Vec3(0., 0., 2. - 100. * q));
  for (int k = 1; k <= 2; ++k) {
    put3(x, fmt::format("w[{},{{}}]", k), Vec3::Zero());
    put3(x, fmt::format("wP[{},{{}}]", k), Vec3::Zero());
  }
  check_kind("joint: modal", "mbdyn/struct/modal.cc `Modal` (q, qP, qPP by mode number, also \"q[#j]\"; x, xP, w, "
             "xPP, wP of FEM node n as \"x[n,i]\"; the rotation of each node has no name)",
             element(b, "joint", 1), x, 1e-8);
}

// ---- automatic structural ----------------------------------------------------------------------------

// The automatic structural element of a dynamic node carrying a body (mass 2, inertia diag(0.1,
// 0.2, 0.3) about the node) under a constant force F and couple C: beta = m v, gamma = J_W w,
// betaP = F, gammaP = C (the node's momentum balance, the body on the node), KE the body's
// kinetic energy (autostr.cc). Read through an element drive and `bind` too.
TEST(PrivateData, AutomaticStructural) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 3e-3; time step: 1e-3; tolerance: 1e-12; end: initial value;
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 2; parameter nodes: 1; end: control data;
begin: nodes;
  structural: 2, dynamic, 1., 0.5, -0.2, euler123, 0.3, -0.2, 0.1, 0.4, -0.1, 0.2, 0.3, 0.5, -0.4;
  parameter: 5, element;
end: nodes;
begin: elements;
  body: 2, 2, 2., null, diag, 0.1, 0.2, 0.3;
  force: 1, absolute, 2, position, null, 1., -2., 0.5, const, 1.;
  couple: 3, absolute, 2, 0.2, 0.1, -0.3, const, 1.;
  bind: 2, automatic structural, 5, string, "KE";
  drive caller: 1, element, 2, automatic structural, string, "beta[2]", direct;
end: elements;
)";
  BuildResult b = run("automatic_structural", deck);
  const StructNode& n = node(b, 2);
  const Mat3 J = n.R_WN() * Vec3(0.1, 0.2, 0.3).asDiagonal() * n.R_WN().transpose();
  const double KE = 0.5 * (2. * n.v_W().squaredNorm() + n.w_W().dot(J * n.w_W()));
  std::map<std::string, double> x{{"KE", KE}};
  put3(x, "beta[{}]", Vec3(2. * n.v_W()));
  put3(x, "gamma[{}]", Vec3(J * n.w_W()));
  put3(x, "betaP[{}]", Vec3(1., -2., 0.5));
  put3(x, "gammaP[{}]", Vec3(0.2, 0.1, -0.3));
  parser::PrivateDataOwner* a = b.model->find_element_data("automatic structural", 2);
  ASSERT_NE(a, nullptr);
  check_kind("automatic structural", "mbdyn/struct/autostr.cc `AutomaticStructElem` (dynamic nodes; "
             "`AutomaticStructDispElem` for displacement-only ones, the same names)", *a, x, 1e-9);
  EXPECT_NEAR(b.model->find_node("parameter", 5)->private_data(1), KE, 1e-12);
  auto d = b.read_context->find_named<DriveCaller>("drive caller", "1");
  ASSERT_TRUE(d);
  EXPECT_NEAR(d->value(3e-3), 2. * n.v_W()[1], 1e-12);
  EXPECT_EQ(b.model->find_element_data("automatic structural", 3), nullptr);
}

// ---- inertia ---------------------------------------------------------------------------------------

// Two bodies on the x axis (inertia diagonal in the global frame) read from the cards: the
// inertia element's mass, center of mass, its velocity, momentum and inertia tensor about the
// center of mass are the sums computed here, the angular velocity Jcg^-1 gamma, the inertia about
// the reference point (the origin, global axes) J, the principal moments JP in ascending order
// (the tensor is diagonal with distinct entries: its principal axes are the global ones, Phi = 0)
// (inertia.cc; MBDyn's numbering: JP 13-15, J[r,c] 16-24, m 25, beta 26-28, gamma 29-31,
// Jcg[r,c] 32-40, matrices column by column).
TEST(PrivateData, InertiaSumsItsBodies) {
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 2; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, 0., 1., 0., null;
  structural: 2, dynamic, -1., 0., 0., eye, 0.5, 0., -1., null;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, diag, 0.1, 0.2, 0.3;
  body: 2, 2, 3., null, diag, 0.2, 0.1, 0.4;
  inertia: 9, body, all, output, always;
end: elements;
)";
  BuildResult b = read_deck_text("private_data_inertia", deck);
  ASSERT_EQ(b.not_implemented, 0u);
  const StructNode& n1 = node(b, 1);
  const StructNode& n2 = node(b, 2);
  const double m = 4.;
  const Vec3 X = (1. * n1.x_W() + 3. * n2.x_W()) / m;
  const Vec3 beta = 1. * n1.v_W() + 3. * n2.v_W();
  const Mat3 J_bodies = Vec3(0.3, 0.3, 0.7).asDiagonal();
  Mat3 Jcg = J_bodies, J0 = J_bodies;
  Vec3 gamma = Vec3::Zero();
  for (const auto& [n, mi] : {std::pair{&n1, 1.}, std::pair{&n2, 3.}}) {
    const Vec3 r = n->x_W() - X, x = n->x_W();
    Jcg += mi * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
    J0 += mi * (x.squaredNorm() * Mat3::Identity() - x * x.transpose());
    gamma += r.cross(mi * (n->v_W() - beta / m));
  }
  // Two masses 2 apart on x: the reduced mass 3/4 times 2^2 about y and z.
  ASSERT_TRUE(Jcg.isApprox(Mat3(Vec3(0.3, 3.3, 3.7).asDiagonal()), 1e-14));
  std::map<std::string, double> e{{"m", m}};
  put3(e, "X[{}]", X);
  put3(e, "V[{}]", beta / m);
  put3(e, "beta[{}]", beta);
  put3(e, "gamma[{}]", gamma);
  put3(e, "Omega[{}]", Vec3(Jcg.inverse() * gamma));
  put3(e, "JP[{}]", Vec3(0.3, 3.3, 3.7));
  put3(e, "Phi[{}]", Vec3::Zero());
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) {
      e[fmt::format("Jcg[{},{}]", r + 1, c + 1)] = Jcg(r, c);
      e[fmt::format("J[{},{}]", r + 1, c + 1)] = J0(r, c);
    }
  const Element& in = element(b, "inertia", 9);
  check_kind("inertia", "mbdyn/struct/inertia.cc `Inertia` (with `output, always`; ours also reads J[r][c], "
             "Jcg[r][c])", in, e, 1e-12);
  EXPECT_EQ(in.private_data_index("Jcg[2][3]"), in.private_data_index("Jcg[2,3]"));
  EXPECT_EQ(in.private_data_index("Jcg[2,3]"), 31u + 2u + 3u * 2u);
  EXPECT_EQ(in.private_data_index("m"), 25u);
}


// ---- constitutive law data -------------------------------------------------------------------------

// A rod (node 2 moving toward the clamped node 1) and a deformable axial joint (node 3 turning
// about z) with a shock absorber law: after their own data, the law's p, A, Fe, Fv as
// "constitutiveLaw.p" ... (rodj.cc, vehj4.cc), computed here from the element's strain and rate:
// eps = (l - l0) / l0, eps' = l' / l0 for the rod, eps = rz, eps' = wz for the axial joint;
// p = p0 (1 + c eps)^-gamma, A the metering area, Fe = -A0 p, Fv = rho Af (Af / (A cd))^2 eps'|eps'| / 2
// (shockabsorber.h).
TEST(PrivateData, ShockAbsorberLawDataFollowTheElements) {
  constexpr double p0 = 1e5, A0 = 1e-3, c = 1.5, gamma = 1.4, Am = 2e-4, Af = 1e-3, rho = 900., cd = 0.7;
  const std::string law = fmt::format("shock absorber, {}, {}, {}, {}, metering, const, {}, {}, {}, {}", p0, A0, c,
                                      gamma, Am, Af, rho, cd);
  const std::string deck = fmt::format(R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 3e-3; time step: 1e-3; tolerance: 1e-10; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 3; rigid bodies: 2; joints: 5; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 1., 0., 0., eye, -0.5, 0., 0., null;
  structural: 3, dynamic, null, eye, null, 0., 0., -0.5;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  body: 2, 2, 10., null, diag, 1., 1., 1.;
  body: 3, 3, 10., null, diag, 1., 1., 1.;
  joint: 21, rod, 1, 2, 1., {law};
  joint: 22, deformable axial joint, 1, position, null, orientation, eye, 3, position, null, orientation, eye, {law};
  joint: 23, rod, 1, 2, 1., array, 2, {law}, linear elastic, 1.;
  joint: 24, rod, 1, 2, 1., {prestrained};
end: elements;
)",
                                       fmt::arg("law", law),
                                       fmt::arg("prestrained", "shock absorber, prestrain, single, const, -1e-3, " +
                                                                   law.substr(std::string("shock absorber, ").size())));
  BuildResult b = run("shock_absorber", deck);
  const auto law_data = [&](double e, double ed, std::map<std::string, double>& x) {
    const double p = p0 * std::pow(1. + c * e, -gamma), r = Af / (Am * cd);
    x["constitutiveLaw.p"] = p;
    x["constitutiveLaw.A"] = Am;
    x["constitutiveLaw.Fe"] = -A0 * p;
    x["constitutiveLaw.Fv"] = 0.5 * rho * Af * r * r * ed * std::abs(ed);
    return -A0 * p + x["constitutiveLaw.Fv"];
  };
  {
    const StructNode& n = node(b, 2);
    const double l = n.x_W().norm(), lP = n.x_W().dot(n.v_W()) / l;
    ASSERT_LT(lP, -0.4);
    std::map<std::string, double> x{{"l", l}, {"lP", lP}};
    x["F"] = law_data(l - 1., lP, x);
    check_kind("joint: rod with a shock absorber law", "mbdyn/struct/rodj.cc `Rod`, the law's data "
               "from mbdyn/base/shockabsorber.h `ShockAbsorberConstitutiveLaw` (also a rod with offset)",
               element(b, "joint", 21), x, 1e-9);
  }
  {
    const StructNode& n = node(b, 3);
    const double rz = rot::R_to_rotvec(n.R_WN())[2], wz = n.w_W()[2];
    ASSERT_LT(wz, -0.1);
    std::map<std::string, double> x{{"rz", rz}, {"wz", wz}};
    x["Mz"] = law_data(rz, wz, x);
    check_kind("joint: deformable axial joint with a shock absorber law", "mbdyn/struct/vehj4.cc "
               "`DeformableAxialJoint`, the law's data from mbdyn/base/shockabsorber.h", element(b, "joint", 22), x,
               1e-9);
  }
  // A law wrapped in an array has no data of the element (MBDyn's ConstitutiveLawArray keeps
  // SimulationEntity's 0); a prestrained one keeps them (the law's own in MBDyn).
  EXPECT_EQ(element(b, "joint", 23).private_data_count(), 3u);
  EXPECT_EQ(element(b, "joint", 23).private_data_index("constitutiveLaw.p"), 0u);
  EXPECT_EQ(element(b, "joint", 24).private_data_index("constitutiveLaw.Fv"), 7u);
}


// ---- viscoelastic beams ------------------------------------------------------------------------------

// Viscoelastic beams whose nodes (free, each with a body of isotropic inertia) spin together about
// the beam axis x at w and move along it at different speeds: the sections turn with the nodes
// (Phi, Omega = w), the axis stays on x; at each evaluation point the strain and its rate are
// the interpolated axial stretch x'(xi) / X'(xi) - 1 and v'(xi) / X'(xi) (beam.cc, beam2.cc
// ViscoElasticBeam: DefPrimeLoc = R^T (L' + L x Omega), L x Omega = 0 here), all else zero, and
// the axial force is K ex + C ePx.
TEST(PrivateData, ViscoelasticBeamsStretchingAndSpinning) {
  constexpr double w = 0.5, EA = 1000., CA = 10.;
  constexpr const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2e-3; time step: 1e-3; tolerance: 1e-12; max iterations: 30;
end: initial value;
begin: control data; structural nodes: 5; rigid bodies: 5; beams: 2; end: control data;
begin: nodes;
  structural: 1, dynamic, 0., 0., 0., eye, 0., 0., 0., 0.5, 0., 0.;
  structural: 2, dynamic, 1., 0., 0., eye, 0.2, 0., 0., 0.5, 0., 0.;
  structural: 3, dynamic, 0., 1., 0., eye, 0., 0., 0., 0.5, 0., 0.;
  structural: 4, dynamic, 1., 1., 0., eye, 0.1, 0., 0., 0.5, 0., 0.;
  structural: 5, dynamic, 2., 1., 0., eye, 0.3, 0., 0., 0.5, 0., 0.;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  body: 2, 2, 1., null, eye;
  body: 3, 3, 1., null, eye;
  body: 4, 4, 1., null, eye;
  body: 5, 5, 1., null, eye;
  beam2: 1, 1, null, 2, null, eye, linear viscoelastic generic,
    diag, 1000., 100., 100., 50., 50., 50., diag, 10., 1., 1., 1., 1., 1.;
  beam3: 2, 3, null, 4, null, 5, null, eye, linear viscoelastic generic,
    diag, 1000., 100., 100., 50., 50., 50., diag, 10., 1., 1., 1., 1., 1., same, same;
end: elements;
)";
  BuildResult b = run("viscoelastic_beams", deck);
  const Vec3 phi = rot::R_to_rotvec(node(b, 1).R_WN());
  EXPECT_GT(phi.x(), 5e-4);
  const auto point = [&](const std::string& pre, double ex, double ePx, const Vec3& X, std::map<std::string, double>& e) {
    e[pre + "ex"] = ex;
    e[pre + "ePx"] = ePx;
    e[pre + "Fx"] = EA * ex + CA * ePx;
    for (const char* q : {"ey", "ez", "kx", "ky", "kz", "Fy", "Fz", "Mx", "My", "Mz", "ePy", "ePz", "kPx", "kPy", "kPz"})
      e[pre + q] = 0.;
    put3(e, pre + "X{1}", X);
    put3(e, pre + "Phi{1}", phi);
    put3(e, pre + "Omega{1}", Vec3(w, 0., 0.));
  };
  {
    const StructNode &n1 = node(b, 1), &n2 = node(b, 2);
    ASSERT_GT(n2.v_W().x() - n1.v_W().x(), 0.1);
    std::map<std::string, double> e;
    point("", (n2.x_W() - n1.x_W()).x() - 1., (n2.v_W() - n1.v_W()).x(), Vec3(0.5 * (n1.x_W() + n2.x_W())), e);
    check_kind("beam2 (viscoelastic)", "mbdyn/struct/beam2.cc `ViscoElasticBeam2`", element(b, "beam", 1), e, 1e-7);
  }
  {
    // Three nodes one apart: X'(xi) = 1; N = (xi (xi - 1), 2 (1 - xi^2), xi (xi + 1)) / 2.
    const StructNode* n[3] = {&node(b, 3), &node(b, 4), &node(b, 5)};
    std::map<std::string, double> e;
    for (int p = 0; p < 2; ++p) {
      const double xi = (p == 0 ? -1. : 1.) / std::sqrt(3.);
      const double N[3] = {0.5 * xi * (xi - 1.), 1. - xi * xi, 0.5 * xi * (xi + 1.)}, dN[3] = {xi - 0.5, -2. * xi, xi + 0.5};
      Vec3 X = Vec3::Zero(), dx = Vec3::Zero(), dv = Vec3::Zero();
      for (int k = 0; k < 3; ++k) {
        X += N[k] * n[k]->x_W();
        dx += dN[k] * n[k]->x_W();
        dv += dN[k] * n[k]->v_W();
      }
      EXPECT_GT(std::abs(dv.x()), 0.05);
      point(p == 0 ? "pI." : "pII.", dx.x() - 1., dv.x(), X, e);
    }
    check_kind("beam (beam3, viscoelastic)", "mbdyn/struct/beam.cc `ViscoElasticBeam`", element(b, "beam", 2), e, 1e-7);
  }
  // An elastic beam has no rate data (beam.cc iGetPrivDataIdx_int): see BeamsUnderAxialLoad.
  EXPECT_EQ(element(b, "beam", 2).private_data_index("pI.omegaX"), 0u);
  EXPECT_EQ(element(b, "beam", 2).private_data_index("pI.OMEGAx"), 19u);
}


// A datum MBDyn's dGetPrivData refuses (hbeam.cc: the shear strains; beam.cc: an elastic beam's
// strain rates) is refused where a deck asks for it: element drive, `bind`, the [element, ...]
// plugin, each with the input error at the index.
TEST(PrivateData, DatumMbdynRefusesIsAnInputError) {
  const std::string head = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 3; joints: 1; beams: 1; parameter nodes: 1; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, static, 1., 0., 0., eye, null, null;
  structural: 3, static, 2., 0., 0., eye, null, null;
  parameter: 5, element;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  hbeam: 3, 1, null, 2, null, linear elastic generic, diag, 1000., 100., 100., 50., 50., 50.;
)";
  for (const std::string& card : {std::string("drive caller: 1, element, 3, beam, index, 2, direct;"),
                                  std::string("bind: 3, beam, 5, index, 8;"),
                                  std::string("set: [element, SHEAR, 3, beam, index=9];")}) {
    SCOPED_TRACE(card);
    try {
      read_deck_text("refused_datum", head + "  " + card + "\nend: elements;\n");
      ADD_FAILURE() << "read";
    } catch (const parser::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("which MBDyn does not return (shear"), std::string::npos) << e.what();
    }
  }
  // The named data still read.
  EXPECT_EQ(read_deck_text("named_datum", head + "  drive caller: 1, element, 3, beam, string, \"Fx\", direct;\n"
                                                  "end: elements;\n")
                .not_implemented,
            0u);
}

}  // namespace
}  // namespace mbl
