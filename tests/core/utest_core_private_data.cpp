// Private data of the structural node under MBDyn's names and numbers (strnode.cc
// StructNode::iGetPrivDataIdx / dGetPrivData): every entry read through the node, through the
// `index, n` numbering the drives use, and through the model:: function, against the quantity
// computed here from the node's own state. With MBL_PRIVATE_DATA_TABLE=<file> the test writes
// the table of docs/conformance/private-data.md from the node's own name list.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <string>
#include <vector>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/core/struct_node_private_data.hpp"
#include "mbdyn-like/model/model_builder.hpp"

namespace mbl {
namespace {

// A dynamic node with a general orientation, velocity and angular velocity (nothing solved: the
// node's state is the card's).
constexpr const char* kDeck = R"(
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

struct Expected {
  std::string name;
  double value;
  std::string quantity;  ///< what the datum is, for the table
};

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

std::vector<Expected> expected_data(const StructNode& n, const Vec3& xpp, const Vec3& wp) {
  const Mat3& R = n.R_WN();
  const Vec3 phi = rot::R_to_rotvec(R);
  std::vector<Expected> out;
  auto vec = [&](const char* name, const Vec3& v, const char* what) {
    for (int i = 0; i < 3; ++i) out.push_back({fmt::format("{}[{}]", name, i + 1), v[i], what});
  };
  vec("X", n.x_W(), "position, global frame");
  vec("x", R.transpose() * n.x_W(), "position, node frame (R^T X)");
  vec("Phi", phi, "rotation vector");
  vec("XP", n.v_W(), "velocity, global frame");
  vec("xP", R.transpose() * n.v_W(), "velocity, node frame");
  vec("Omega", n.w_W(), "angular velocity, global frame");
  vec("omega", R.transpose() * n.w_W(), "angular velocity, node frame");
  vec("E", rot::R_to_euler123(R), "Euler angles 1-2-3 (also E123)");
  vec("E313", rot::R_to_euler313(R), "Euler angles 3-1-3");
  vec("E321", rot::R_to_euler321(R), "Euler angles 3-2-1");
  const Eigen::Vector4d e = euler_parameters(R);
  for (int i = 0; i < 4; ++i) out.push_back({fmt::format("PE[{}]", i), e[i], "Euler parameters e0, e1, e2, e3"});
  vec("XPP", xpp, "acceleration, global frame");
  vec("xPP", R.transpose() * xpp, "acceleration, node frame");
  vec("OmegaP", wp, "angular acceleration, global frame");
  vec("omegaP", R.transpose() * wp, "angular acceleration, node frame");
  vec("phi", R.transpose() * phi, "rotation vector, node frame");
  return out;
}

TEST(StructNodePrivateData, EveryMbdynNameIsTheNodesOwnState) {
  BuildResult b = read_deck_text("private_data_struct_node", kDeck);
  ASSERT_EQ(b.not_implemented, 0u);
  auto* n = dynamic_cast<StructNode*>(b.model->find_node("structural", 1));
  ASSERT_NE(n, nullptr);
  const Vec3 xpp(0.1, -0.2, 0.3), wp(-1.5, 0.5, 2.5);
  n->set_accelerations(xpp, wp);
  const std::vector<Expected> expected = expected_data(*n, xpp, wp);
  const std::vector<std::string> names = struct_node_private_data_names();
  ASSERT_EQ(names.size(), expected.size());
  EXPECT_EQ(n->private_data_count(), 49u);  // MBDyn's StructNode::iGetNumPrivData
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Expected& x = expected[i];
    EXPECT_EQ(names[i], x.name);                        // our list is MBDyn's numbering
    EXPECT_EQ(n->private_data_index(x.name), i + 1) << x.name;  // `index, n` = `string, "name"`
    EXPECT_NEAR(n->private_data(static_cast<unsigned>(i + 1)), x.value, 1e-12) << x.name;
  }
  EXPECT_EQ(n->private_data_index("E123[2]"), n->private_data_index("E[2]"));
  EXPECT_EQ(n->private_data_index("PE[4]"), 0u);
  EXPECT_EQ(n->private_data_index("X[0]"), 0u);
  EXPECT_EQ(n->private_data_index("X"), 0u);
  // The Euler parameters rebuild the orientation.
  const double e0 = n->private_data(31);
  const Vec3 e(n->private_data(32), n->private_data(33), n->private_data(34));
  const Mat3 R = (2.0 * e0 * e0 - 1.0) * Mat3::Identity() + 2.0 * e * e.transpose() + 2.0 * e0 * skew(e);
  EXPECT_LT((R - n->R_WN()).norm(), 1e-12);

  if (const char* path = std::getenv("MBL_PRIVATE_DATA_TABLE")) {
    std::ofstream t(path);
    t << "# Private data (generated)\n\n"
         "Written by `MBL_PRIVATE_DATA_TABLE=docs/conformance/private-data.md build/utest_core "
         "--gtest_filter='StructNodePrivateData.*:JointPrivateData.*'` from the entities' own lists "
         "(`struct_node_private_data_names`); every row is checked against the node's state by that test.\n"
         "Names and numbers are MBDyn 2024's (mbdyn/struct/strnode.cc `StructNode::iGetPrivDataIdx`); "
         "`index, n` in a `node` drive is the number of the first column.\n\n"
         "## structural node\n\n| index | name | quantity |\n|---:|---|---|\n";
    for (std::size_t i = 0; i < expected.size(); ++i)
      t << "| " << i + 1 << " | `" << expected[i].name << "` | " << expected[i].quantity << " |\n";
  }
}

// Revolute hinge/rotation and brake under MBDyn's numbers (planej.cc, brake.cc): the `index, n`
// form of element drives reads these.
TEST(JointPrivateData, RevoluteAndBrakeUseMbdynsNumbers) {
  const char* deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1e-3; time step: 1e-3; end: initial value;
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 3; end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, null, euler123, 0., 0., 0.3, null, 0., 0., 0.5;
end: nodes;
begin: elements;
  body: 2, 2, 1., null, eye;
  joint: 1, revolute hinge, 1, null, 2, null;
  joint: 2, revolute rotation, 1, 2;
  joint: 3, brake, 1, null, 2, null, friction, 0.1, modlugre, 1.e3, 0., 0., 0.5, "mu", const, 0.2,
    simple, const, 50.;
end: elements;
)";
  BuildResult b = read_deck_text("private_data_revolute", deck);
  const Element* hinge = b.model->find_element("joint", 1);
  const Element* rotation = b.model->find_element("joint", 2);
  const Element* brake = b.model->find_element("joint", 3);
  ASSERT_NE(hinge, nullptr);
  ASSERT_NE(rotation, nullptr);
  EXPECT_EQ(hinge->private_data_count(), 8u);
  EXPECT_EQ(hinge->private_data_index("rz"), 1u);
  EXPECT_EQ(hinge->private_data_index("wz"), 2u);
  EXPECT_EQ(hinge->private_data_index("Fx"), 3u);
  EXPECT_EQ(hinge->private_data_index("Mz"), 8u);
  EXPECT_NEAR(hinge->private_data(1), 0.3, 1e-12);  // node 2 turned 0.3 about z
  EXPECT_NEAR(hinge->private_data(2), 0.5, 1e-12);  // relative angular velocity about z
  EXPECT_EQ(rotation->private_data_count(), 5u);
  EXPECT_EQ(rotation->private_data_index("Mx"), 3u);
  EXPECT_EQ(rotation->private_data_index("Mz"), 5u);
  EXPECT_EQ(rotation->private_data_index("Fx"), 0u);
  EXPECT_NEAR(rotation->private_data(1), 0.3, 1e-12);
  ASSERT_NE(brake, nullptr);
  EXPECT_EQ(brake->private_data_count(), 2u);
  EXPECT_EQ(brake->private_data_index("rz"), 1u);
  EXPECT_EQ(brake->private_data_index("wz"), 2u);
  EXPECT_EQ(brake->private_data_index("Fx"), 0u);
  EXPECT_NEAR(brake->private_data(1), 0.3, 1e-12);

  if (const char* path = std::getenv("MBL_PRIVATE_DATA_TABLE")) {  // appended after the node's
    std::ofstream t(path, std::ios::app);
    t << "\n## joints whose numbering differs from F, M first (mbdyn/struct/planej.cc, brake.cc)\n\n"
         "| kind | index: name |\n|---|---|\n";
    const std::pair<const char*, const Element*> kinds[] = {
        {"revolute hinge, revolute pin", hinge}, {"revolute rotation", rotation}, {"brake", brake}};
    for (const auto& [kind, e] : kinds) {
      t << "| " << kind << " |";
      for (const char* name : {"rz", "wz", "Fx", "Fy", "Fz", "Mx", "My", "Mz"})
        if (const unsigned i = e->private_data_index(name)) t << ' ' << i << ": `" << name << "`";
      t << " |\n";
    }
  }
}

}  // namespace
}  // namespace mbl
