// The `external structural mapping` force (input manual §8.8.11, MBDyn's strmappingext.cc)
// against our libmbc nodal peer (tests/support/mbc_nodal_peer.hpp; the mapped points carry no
// rotation). Expected kinematics and forces derived by hand from a small mapping matrix H:
//
// Points (node 1 at (1,0,0) turned by 90 degrees about z; node 2 at (0,2,0)):
//   P1 = node 1, P2 = node 1 + R1 (0,1,0) = (0,0,0), P3 = node 2   ->  x = [1,0,0, 0,0,0, 0,2,0]
// H (6 x 9): A = (P1 + P3)/2;  B = (P2_x + P3_y, 2 P2_y, -P1_x)
//   -> q = H x = [0.5, 1, 0,  2, 0, -1]
// Peer forces p = [A: (1,2,3), B: (4,5,6)] -> f = H^T p = [-5.5,1,1.5, 4,10,0, 0.5,5,1.5]
//   node 1: F = f1 + f2 = (-1.5, 11, 1.5), M = (R1 (0,1,0)) x f2 = (-1,0,0) x (4,10,0) = (0,0,-10)
//   node 2: F = f3 = (0.5, 5, 1.5), M = 0
// With a reference node r at (0,0,1) turned by 90 degrees about z, everything is relative to r and
// in its frame (x_rel = Rz^T (P - x_r)), and the forces come back in r's frame:
//   x = [0,-1,-1, 0,0,-1, 2,0,-1]  ->  q = [1, -0.5, -1,  0, 0, 0]
//   point forces (global) Rz f: (-1,-5.5,1.5), (-10,4,0), (-5,0.5,1.5)
//   node 1: F = (-11,-1.5,1.5), M = (-1,0,0) x (-10,4,0) = (0,0,-4); node 2: F = (-5,0.5,1.5)
//   F2 = (-16,-1,3); M2 = sum M + (x_n - x_r) x F_n = (2, 14.5, 4.5)
//   peer's F0 = (0,0,7), M0 = (1,0,0): F1 = Rz F0 - F2 = (16,1,4), M1 = Rz M0 - M2 = (-2,-13.5,-4.5)
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "support/mbc_modal_peer.hpp"
#include "support/mbc_nodal_peer.hpp"
#include "support/peer_spring.hpp"

namespace mbl::test {
namespace {

/// H of the header, as `row col value` triplets.
const char* kSparseH = R"(# H of the test
1 1 0.5
1 7 0.5
2 2 0.5
2 8 0.5
3 3 0.5
3 9 0.5
4 4 1.
4 8 1.
5 5 2.
6 1 -1.
6 3 1e-12
)";

/// The same H, full (row by row).
std::string full_h() {
  double H[6][9] = {};
  H[0][0] = H[0][6] = H[1][1] = H[1][7] = H[2][2] = H[2][8] = 0.5;
  H[3][3] = H[3][7] = 1.0;
  H[4][4] = 2.0;
  H[5][0] = -1.0;
  std::ostringstream os;
  os << "# full\n";
  for (auto& row : H) {
    for (double v : row) os << v << ' ';
    os << '\n';
  }
  return os.str();
}

/// The .frc lines by their first field.
std::map<std::string, std::vector<double>> last_frc_lines(const std::filesystem::path& frc) {
  std::map<std::string, std::vector<double>> out;
  std::ifstream is(frc);
  for (std::string line; std::getline(is, line);) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    std::vector<double> v;
    for (double d; ls >> d;) v.push_back(d);
    out[key] = v;
  }
  return out;
}

struct PeerResult {
  bool negotiated = false;
  int records = 0;
  std::vector<std::string> problems;
  MbcNodalMotion first;
};

/// A peer that sends the constant forces p (and F0, M0 for the reference node) and converges when
/// the motion repeats.
void run_constant_peer(const std::string& sock, MbcNodalFlags flags, std::vector<std::uint32_t> labels, PeerResult& out) {
  MbcNodalPeer p(flags);
  out.negotiated = p.connect_and_negotiate(sock);
  if (!out.negotiated) return;
  std::vector<double> x_last;
  MbcNodalMotion m;
  while (p.get_motion(m)) {
    if (out.records++ == 0) out.first = m;
    if (flags.labels && m.labels != labels) out.problems.push_back("labels of record " + std::to_string(out.records));
    if (m.x == x_last) {
      p.converged();
      x_last.clear();
      continue;
    }
    x_last = m.x;
    const std::vector<double> f = {1, 2, 3, 4, 5, 6}, none;
    const double F0[3] = {0, 0, 7}, M0[3] = {1, 0, 0};
    p.put_forces(labels, f, none, F0, M0, 3u);
  }
}

std::string mapping_deck(const std::string& sock, bool reference, const std::string& mapping_clause, bool labels) {
  return exchange_problem_blocks(0.003) + R"(
begin: control data; structural nodes: 3; joints: 3; forces: 1; end: control data;
begin: nodes;
  structural: 1, static, 1., 0., 0., euler123, 0., 0., pi/2, null, null;
  structural: 2, static, 0., 2., 0., eye, null, null;
  structural: 3, static, 0., 0., 1., euler123, 0., 0., pi/2, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  force: 10, external structural mapping, socket, create, yes, path, ")" + sock + R"(", no signal, coupling, tight,
    )" + (reference ? "reference node, 3, " : "") + "labels, " + (labels ? "yes" : "no") + R"(,
    points number, 3,
      1, offset, )" + (labels ? "11, " : "") + "null, offset, " + (labels ? "12, " : "") + R"(0., 1., 0.,
      2, offset, )" + (labels ? "21, " : "") + R"(null,
    )" + mapping_clause + R"(;
end: elements;
)";
}

void expect_near(const std::vector<double>& got, const std::vector<double>& expected, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol) << what << " [" << i << "]";
}

void expect_numbers(const std::string& text, const std::vector<double>& expected) {
  std::istringstream is(text);
  std::vector<double> got;
  for (double d; is >> d;) got.push_back(d);
  expect_near(got, expected, 1e-12, text);
}

TEST(ExternalStructuralMapping, HandDerivedKinematicsAndForces) {
  const std::filesystem::path dir = fresh_temp_dir("extmap_plain");
  std::ofstream(dir / "H.dat") << full_h();
  const std::string sock = (dir / "ext.sock").string();
  MbcNodalFlags flags;
  flags.nodes = 2;  // mapped points, no rotation
  PeerResult peer;
  std::thread t([&] { run_constant_peer(sock, flags, {}, peer); });
  const TextDeckRun r = run_deck_text(
      "extmap_plain_run",
      mapping_deck(sock, false, "mapped points number, 2, full mapping file, \"" + (dir / "H.dat").string() + "\"", false));
  t.join();
  ASSERT_TRUE(peer.negotiated) << r.log();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(peer.problems.empty());
  expect_near(peer.first.x, {0.5, 1, 0, 2, 0, -1}, 1e-12, "q");
  expect_near(peer.first.v, {0, 0, 0, 0, 0, 0}, 1e-12, "q'");
  const auto frc = last_frc_lines(r.output("frc"));
  ASSERT_TRUE(frc.count("10@1") && frc.count("10@2")) << read_file(r.output("frc"));
  EXPECT_FALSE(frc.count("10#3"));
  expect_near(frc.at("10@1"), {-1.5, 11, 1.5, 0, 0, -10}, 1e-9, "node 1");
  expect_near(frc.at("10@2"), {0.5, 5, 1.5, 0, 0, 0}, 1e-9, "node 2");
  std::filesystem::remove_all(dir);
}

TEST(ExternalStructuralMapping, ReferenceNodeLabelsAndSparseFile) {
  const std::filesystem::path dir = fresh_temp_dir("extmap_ref");
  std::ofstream(dir / "H.dat") << kSparseH;
  const std::string sock = (dir / "ext.sock").string();
  MbcNodalFlags flags;
  flags.nodes = 2;
  flags.reference = true;
  flags.reference_rotation = 0x200;  // the card's default with a reference node: a matrix
  flags.labels = true;
  PeerResult peer;
  std::thread t([&] { run_constant_peer(sock, flags, {100u, 200u}, peer); });
  const TextDeckRun r = run_deck_text(
      "extmap_ref_run", mapping_deck(sock, true,
                                     "mapped points number, from file, sparse mapping file, threshold, 1e-9, \"" +
                                         (dir / "H.dat").string() + "\", 100, 200",
                                     true));
  t.join();
  ASSERT_TRUE(peer.negotiated) << r.log();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(peer.problems.empty()) << peer.problems.front();
  EXPECT_EQ(peer.first.reference_label, 3u);
  // x_r, R_r column-major (Rz(90): columns (0,1,0), (-1,0,0), (0,0,1)), v_r, w_r
  expect_near(peer.first.reference, {0, 0, 1, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, 1e-12, "reference");
  expect_near(peer.first.x, {1, -0.5, -1, 0, 0, 0}, 1e-12, "q");
  const auto frc = last_frc_lines(r.output("frc"));
  ASSERT_TRUE(frc.count("10#3")) << read_file(r.output("frc"));
  expect_near(frc.at("10#3"), {0, 0, 7, 1, 0, 0, 16, 1, 4, -2, -13.5, -4.5, -16, -1, 3, 2, 14.5, 4.5}, 1e-9, "reference");
  expect_near(frc.at("10@1"), {-11, -1.5, 1.5, 0, 0, -4}, 1e-9, "node 1");
  expect_near(frc.at("10@2"), {-5, 0.5, 1.5, 0, 0, 0}, 1e-9, "node 2");
  std::filesystem::remove_all(dir);
}

// Without `mapped points number` the points themselves are exchanged (H = I): a free body
// translating at v0 and spinning at w0 about z (no load: the peer answers zeros) sends the point
// x0 + v0 t + Rz(w0 t) b, v0 + w0 x Rz(w0 t) b, and its acceleration -w0^2 Rz(w0 t) b.
TEST(ExternalStructuralMapping, IdentityMappingSendsThePointsMotion) {
  const std::filesystem::path dir = fresh_temp_dir("extmap_id");
  const std::string sock = (dir / "ext.sock").string();
  MbcNodalFlags flags;
  flags.nodes = 1;
  flags.accelerations = true;
  bool negotiated = false;
  MbcNodalMotion last;
  std::thread t([&] {
    MbcNodalPeer p(flags);
    negotiated = p.connect_and_negotiate(sock);
    if (!negotiated) return;
    std::vector<double> x_last;
    MbcNodalMotion m;
    while (p.get_motion(m)) {
      if (m.x == x_last) {
        last = m;
        p.converged();
        x_last.clear();
        continue;
      }
      x_last = m.x;
      const std::vector<double> zero(3, 0.0);
      const double z[3] = {0, 0, 0};
      p.put_forces({}, zero, zero, z, z, 0u);
    }
  });
  const double w0 = 2.0, v0 = 0.5, T = 0.1;
  const TextDeckRun r = run_deck_text("extmap_id_run", exchange_problem_blocks(T) + R"(
begin: control data; structural nodes: 1; rigid bodies: 1; forces: 1; end: control data;
begin: nodes; structural: 1, dynamic, 0., 0., 0., eye, )" + number_text(v0) + ", 0., 0., 0., 0., " + number_text(w0) +
                                                           R"(, accelerations, yes; end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  force: 10, external structural mapping, socket, create, yes, path, ")" + sock +
                                                           R"(", no signal, coupling, tight,
    accelerations, yes, points number, 1, 1, offset, 0., 1., 0.;
end: elements;
)");
  t.join();
  ASSERT_TRUE(negotiated) << r.log();
  ASSERT_EQ(r.rc, 0) << r.log();
  const double c = std::cos(w0 * T), s = std::sin(w0 * T);
  // R b = (-s, c, 0); w x R b = w0 (-c, -s, 0)
  expect_near(last.x, {v0 * T - s, c, 0}, 1e-6, "x");
  expect_near(last.v, {v0 - w0 * c, -w0 * s, 0}, 1e-6, "v");
  expect_near(last.a, {w0 * w0 * s, -w0 * w0 * c, 0}, 1e-4, "a");
  std::filesystem::remove_all(dir);
}

TEST(ExternalStructuralMapping, InputErrors) {
  const std::filesystem::path dir = fresh_temp_dir("extmap_bad");
  std::ofstream(dir / "H1.dat") << "1 1 1.\n1 2 1.\n";  // one row: not 3 rows per mapped point
  std::ofstream(dir / "H2.dat") << "1 1 1.\n1 4 1.\n";  // column 4 of 3
  const std::string H1 = (dir / "H1.dat").string(), H2 = (dir / "H2.dat").string();
  auto run_card = [&](const std::string& card) {
    return run_deck_text("extmap_bad_run", exchange_problem_blocks(0.003) + R"(
begin: control data; structural nodes: 2; forces: 1; end: control data;
begin: nodes; structural: 1, static, 0., 0., 0., eye, null, null;
  structural: 2, static displacement, 1., 0., 0., null; end: nodes;
begin: elements;
  force: 10, external structural mapping, )" + card + R"(;
end: elements;
)");
  };
  const std::string sock = "socket, create, yes, path, \"" + (dir / "s").string() + "\", no signal, ";
  struct Case {
    std::string card, message;
  };
  for (const Case& c : std::vector<Case>{
           {"\"in\", \"out\", points number, 1, 1, offset, null", "expected the `socket` communicator"},
           {sock + "1, 1, offset, null", "expected `points number`"},
           {sock + "reference node, 1, orientation, none, points number, 1, 1, offset, null", "found `none`"},
           {sock + "points number, 2, 1, offset, null, 1, offset, null", "found node 1 again"},
           {sock + "points number, 1, 2, offset, 0., 1., 0.", "with a null offset"},
           {sock + "points number, 1, 1, offset, null, mapped points number, from file, sparse mapping file, \"" + H1 + "\"",
            "3 rows per mapped point"},
           {sock + "points number, 1, 1, offset, null, mapped points number, 1, sparse mapping file, \"" + H2 + "\"",
            "columns 1 to 3"},
       }) {
    const TextDeckRun r = run_card(c.card);
    EXPECT_EQ(r.rc, 2) << c.card << "\n" << r.log();
    EXPECT_NE(r.log().find(c.message), std::string::npos) << c.card << "\n" << r.log();
  }
  std::filesystem::remove_all(dir);
}

TEST(ExternalStructuralMapping, EchoWritesThePointsAndStops) {
  const std::filesystem::path dir = fresh_temp_dir("extmap_echo");
  const std::string echo = (dir / "points.dat").string();
  const TextDeckRun r = run_deck_text("extmap_echo_run", exchange_problem_blocks(0.003) + R"(
begin: control data; structural nodes: 2; forces: 1; end: control data;
begin: nodes; structural: 1, static, 1., 0., 0., euler123, 0., 0., pi/2, null, null;
  structural: 3, static, 0., 0., 1., euler123, 0., 0., pi/2, null, null; end: nodes;
begin: elements;
  force: 10, external structural mapping, socket, create, yes, path, ")" + (dir / "s").string() + R"(", no signal,
    reference node, 3, labels, yes, points number, 2, 1, offset, 7, null, offset, 8, 0., 1., 0.,
    echo, ")" + echo + R"(", precision, 3, surface, "surf.dat", order, 2, weight, inf, stop;
end: elements;
)");
  EXPECT_EQ(r.rc, 0) << r.log();
  std::ifstream is(echo);
  std::vector<std::string> lines;
  for (std::string l; std::getline(is, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 13u) << read_file(echo);
  EXPECT_EQ(lines[0], "# Generated by MBDyn StructMappingExtForce(10)");
  EXPECT_EQ(lines[3], "# labels: on");
  EXPECT_EQ(lines[4], "# reference: 3");
  EXPECT_EQ(lines[5], "# position: 0.000e+00 0.000e+00 1.000e+00");
  EXPECT_EQ(lines[6].substr(0, 15), "# orientation: ");
  expect_numbers(lines[6].substr(15), {0, 0, 90});
  EXPECT_EQ(lines[7], "# points: 2");
  EXPECT_EQ(lines[8], "# surface: surf.dat");
  EXPECT_EQ(lines[9], "# order: 2");
  EXPECT_EQ(lines[10], "# weight: inf");
  // Rz^T ((1,0,0) - (0,0,1)) = (0,-1,-1); the second point is at the reference node's x, y.
  EXPECT_EQ(lines[11].substr(0, 2), "7 ");
  EXPECT_NE(lines[11].find(" -1.000e+00 -1.000e+00"), std::string::npos) << lines[11];  // %.3e
  expect_numbers(lines[11].substr(2), {0, -1, -1});
  EXPECT_EQ(lines[12].substr(0, 2), "8 ");
  expect_numbers(lines[12].substr(2), {0, 0, -1});
  std::filesystem::remove_all(dir);
}

// `external modal mapping` (input manual §8.8.13, MBDyn's modalmappingext.cc) against our libmbc
// modal peer. Node 1 (dynamic, free) translates at v0 along x and spins at w0 about z; node 2 and
// the reference node 3 (at (0,0,1), turned by 90 degrees about z) are clamped. H (2 x 12):
// mode 1 = x_1 + theta_z,1 (columns 1 and 6), mode 2 = 3 y_2 (column 8). Without a reference
// node: q1 = v0 t + sin(w0 t) (MatR2LinParam of Rz(w0 t)), q1' = v0 + w0, q2 = q2' = 0. The peer's
// p = (0, 5) gives H^T p = 15 on column 8: node 2 takes (0, 15, 0), node 1 nothing (its motion
// stays free). With the reference node (`type, all`), everything is in its frame: q1 = sin(w0 t)
// (x_1 moves along the reference's -y), q1' = w0; node 2's force is Rz (0,15,0) = (-15,0,0);
// F2 = (-15,0,0), M2 = (0,2,-1) x F2 = (0,15,30); with the peer's F0 = (0,0,7), M0 = (1,0,0):
// F1 = Rz F0 - F2 = (15,0,7), M1 = Rz M0 - M2 = (0,-14,-30).
class ExternalModalMapping : public ::testing::TestWithParam<bool> {};

TEST_P(ExternalModalMapping, HandDerivedModesAndLoads) {
  const bool reference = GetParam();
  const std::filesystem::path dir = fresh_temp_dir("extmodalmap");
  std::ofstream(dir / "H.dat") << "# Hp\n1 1 1.\n1 6 1.\n2 8 3.\n";
  const std::string sock = (dir / "modal.sock").string();
  bool negotiated = false;
  MbcModalMotion first, last;
  std::thread t([&] {
    MbcModalPeer p(reference, 2);
    negotiated = p.connect_and_negotiate(sock);
    if (!negotiated) return;
    std::vector<double> q_last;
    MbcModalMotion m;
    bool have_first = false;
    while (p.get_motion(m)) {
      if (!have_first) first = m, have_first = true;
      if (m.q == q_last) {
        last = m;
        p.converged();
        q_last.clear();
        continue;
      }
      q_last = m.q;
      const double F0[3] = {0, 0, 7}, M0[3] = {1, 0, 0};
      p.put_forces(F0, M0, {0.0, 5.0});
    }
  });
  const double v0 = 0.5, w0 = 2.0, T = 0.1;
  const TextDeckRun r = run_deck_text("extmodalmap_run", exchange_problem_blocks(T) + R"(
begin: control data; structural nodes: 3; rigid bodies: 1; joints: 2; forces: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, )" + number_text(v0) + ", 0., 0., 0., 0., " + number_text(w0) + R"(;
  structural: 2, static, 0., 2., 0., eye, null, null;
  structural: 3, static, 0., 0., 1., euler123, 0., 0., pi/2, null, null;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  joint: 2, clamp, 2, node, node;
  joint: 3, clamp, 3, node, node;
  force: 10, external modal mapping, socket, create, yes, path, ")" + sock + R"(", no signal, coupling, tight,
    )" + (reference ? "reference node, 3, use rigid body forces, yes, type, all, " : "") + R"(
    nodes number, 2, 1, 2, modes number, from file, sparse mapping file, ")" + (dir / "H.dat").string() + R"(";
end: elements;
)");
  t.join();
  ASSERT_TRUE(negotiated) << r.log();
  ASSERT_EQ(r.rc, 0) << r.log();
  const double s = std::sin(w0 * T);
  expect_near(last.q, {(reference ? 0.0 : v0 * T) + s, 0.0}, 1e-6, "q");
  expect_near(last.qp, {(reference ? 0.0 : v0) + w0, 0.0}, 1e-6, "q'");
  if (reference) expect_near(first.rigid, {0, 0, 1, 0, 1, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, 1e-12, "rigid");
  const auto frc = last_frc_lines(r.output("frc"));
  ASSERT_TRUE(frc.count("10#1") && frc.count("10#2") && frc.count("10.1") && frc.count("10.2")) << read_file(r.output("frc"));
  expect_near(std::vector<double>(frc.at("10#2").begin(), frc.at("10#2").begin() + 6),
              reference ? std::vector<double>{-15, 0, 0, 0, 0, 0} : std::vector<double>{0, 15, 0, 0, 0, 0}, 1e-9, "node 2");
  expect_near(std::vector<double>(frc.at("10#1").begin(), frc.at("10#1").begin() + 6), {0, 0, 0, 0, 0, 0}, 1e-9,
              "node 1");
  EXPECT_EQ(frc.at("10#1").size(), 18u);  // F, M, x (6), x' (6)
  expect_near({frc.at("10.2")[0]}, {5.0}, 1e-12, "p2");
  if (reference) {
    ASSERT_TRUE(frc.count("10@3"));
    expect_near(frc.at("10@3"), {0, 0, 7, 1, 0, 0, 15, 0, 7, 0, -14, -30, -15, 0, 0, 0, 15, 30}, 1e-9, "rigid");
  } else {
    EXPECT_FALSE(frc.count("10@3"));
  }
  // The free node keeps its motion: x = v0 T.
  const auto mov = records(r.output("mov"), 1);
  EXPECT_NEAR(mov.back()[0], 1.0 + v0 * T, 1e-9);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Libmbc, ExternalModalMapping, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "ReferenceNode" : "Absolute"; });

}  // namespace
}  // namespace mbl::test
