// Every libmbc flag combination of the external structural force's socket communicator (input
// manual §8.8.10, MBDyn's strext.cc; the protocol as libmbc lays it out, mbc.c) against our own
// peer (tests/support/mbc_nodal_peer.hpp): with and without a reference node and each of its
// rotation formats (the reference-node rotation bits a libmbc peer adds, 0x2206 for a matrix, are
// not compared, as in MBDyn's CheckProblemsMatch), every point rotation format, labels and
// accelerations. The peer is a spring k x toward the reference node's origin, computed in the
// frame the motion arrives in; the unit mass at x = 1 must then oscillate as cos(sqrt(k) t).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <thread>

#include "support/mbc_nodal_peer.hpp"
#include "support/peer_spring.hpp"

namespace mbl::test {
namespace {

struct Combination {
  bool reference;
  std::uint32_t rotation, reference_rotation;
  bool labels, accelerations;
};

std::string name_of(std::uint32_t r) {
  switch (r) {
    case 0x100: return "Theta";
    case 0x200: return "Mat";
    case 0x400: return "Euler";
    default: return "None";
  }
}

std::string card_orientation(std::uint32_t r) {
  switch (r) {
    case 0x100: return "orientation vector";
    case 0x200: return "orientation matrix";
    case 0x400: return "euler 123";
    default: return "none";
  }
}

class ExternalStructuralFlags : public ::testing::TestWithParam<Combination> {};

TEST_P(ExternalStructuralFlags, APeerSpringGivesTheHarmonicMotion) {
  const Combination c = GetParam();
  const std::filesystem::path dir = fresh_temp_dir("extflags");
  const std::string sock = (dir / "ext.sock").string();
  MbcNodalFlags flags;
  flags.reference = c.reference;
  flags.rotation = c.rotation;
  flags.reference_rotation = c.reference_rotation;
  flags.labels = c.labels;
  flags.accelerations = c.accelerations;
  // The reference node (2) is clamped at the origin, turned by 90 degrees about z.
  const double s = 1.0, k = kPeerSpring;
  const std::string deck = exchange_problem_blocks(0.05) + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 1; forces: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, null, null)" + std::string(c.accelerations ? ", accelerations, yes" : "") + R"(;
  structural: 2, static, null, euler123, 0., 0., pi/2, null, null;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  joint: 2, clamp, 2, node, node;
  force: 10, external structural, socket, create, yes, path, ")" + sock + R"(", no signal, coupling, tight,
    )" + (c.reference ? "reference node, 2, " : "") + "labels, " + (c.labels ? "yes" : "no") +
                           ", orientation, " + card_orientation(c.rotation) + ", accelerations, " +
                           (c.accelerations ? "yes" : "no") + R"(, 1, 1, offset, 0., 0., 0.;
end: elements;
)";
  int steps = 0;
  bool negotiated = false;
  std::vector<std::string> problems;  // checked on the main thread
  MbcNodalMotion last;
  std::thread peer([&] {
    MbcNodalPeer p(flags);
    negotiated = p.connect_and_negotiate(sock);
    if (!negotiated) return;
    std::vector<double> x_last;
    MbcNodalMotion m;
    while (p.get_motion(m)) {
      if (c.labels && m.labels.at(0) != 1u) problems.push_back("node label " + std::to_string(m.labels[0]));
      if (c.reference) {
        if (c.labels && m.reference_label != 2u) problems.push_back("reference label");
        // x = 0, then the rotation Rz(90 deg) in the reference format
        const std::uint32_t rf = flags.reference_format();
        std::vector<double> R(m.reference.begin() + 3, m.reference.begin() + 3 + MbcNodalFlags::rotation_size(rf));
        const std::vector<double> expected = rf == 0x200   ? std::vector<double>{0, 1, 0, -1, 0, 0, 0, 0, 1}
                                             : rf == 0x400 ? std::vector<double>{0, 0, 90}
                                                           : std::vector<double>{0, 0, M_PI / 2};
        for (std::size_t i = 0; i < R.size(); ++i)
          if (std::abs(R[i] - expected[i]) > 1e-12) problems.push_back("reference rotation " + std::to_string(i));
      }
      bool same = x_last.size() == m.x.size();
      for (std::size_t i = 0; same && i < m.x.size(); ++i) same = std::abs(m.x[i] - x_last[i]) < 1e-12;
      if (same) {
        last = m;
        p.converged();
        x_last.clear();
        ++steps;
        continue;
      }
      x_last = m.x;
      std::vector<double> f(3), mom(3, 0.0);
      for (int i = 0; i < 3; ++i) f[i] = -k * m.x[i];  // x from the reference node's origin, in its frame
      const double zero[3] = {0, 0, 0};
      p.put_forces({1u}, f, mom, zero, zero, 2u);
    }
  });
  const TextDeckRun r = run_deck_text("extflags_run", deck);
  peer.join();
  ASSERT_TRUE(negotiated) << r.log();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_EQ(steps, 50);
  const auto mov = records(r.output("mov"), 1);
  ASSERT_EQ(mov.size(), 51u);
  const double w = std::sqrt(k), t = 0.05;
  EXPECT_NEAR(mov.back()[0], s * std::cos(w * t), 1e-2);
  EXPECT_NEAR(mov.back()[1], 0.0, 1e-9);
  // The last converged motion: relative to the reference node (x_rel = Rz^T x) or absolute.
  ASSERT_EQ(last.x.size(), 3u);
  const double x_expected = mov.back()[0];
  if (c.reference) {
    EXPECT_NEAR(last.x[1], -x_expected, 1e-5);
    EXPECT_NEAR(last.x[0], 0.0, 1e-9);
  } else {
    EXPECT_NEAR(last.x[0], x_expected, 1e-5);
  }
  if (c.accelerations) {
    // a = -k x (unit mass), in the same frame as x: the node computes its accelerations after
    // each converged step (`accelerations, yes`), so the exchange sends the last step's (MBDyn:
    // the iterate's), within k v dt of -k x.
    ASSERT_EQ(last.a.size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(last.a[i], -k * last.x[i], 0.05 * k) << i;
  }
  if (c.rotation == 0x200) {
    ASSERT_EQ(last.rotation.size(), 9u);  // the point does not turn: R = I, or Rz^T relative
    EXPECT_NEAR(last.rotation[c.reference ? 1 : 0], c.reference ? -1.0 : 1.0, 1e-12);
  }
  std::filesystem::remove_all(dir);
}

std::vector<Combination> all_combinations() {
  std::vector<Combination> v;
  for (std::uint32_t rot : {0x000u, 0x100u, 0x200u, 0x400u})
    for (bool labels : {false, true})
      for (bool accels : {false, true}) {
        v.push_back({false, rot, 0, labels, accels});
        for (std::uint32_t rr : {0x000u, 0x100u, 0x200u, 0x400u}) v.push_back({true, rot, rr, labels, accels});
      }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Libmbc, ExternalStructuralFlags, ::testing::ValuesIn(all_combinations()),
                         [](const ::testing::TestParamInfo<Combination>& i) {
                           const Combination& c = i.param;
                           return std::string(c.reference ? "Ref" + name_of(c.reference_rotation) : "NoRef") + "_Rot" +
                                  name_of(c.rotation) + (c.labels ? "_Labels" : "") + (c.accelerations ? "_Accels" : "");
                         });

}  // namespace
}  // namespace mbl::test
