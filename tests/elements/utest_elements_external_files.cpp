// External forces (input manual §8.8.9-8.8.12) over the file and EDGE communicators (and the
// external modal force over a socket) in whole runs: a thread of the test is the peer process; it
// reads the motion the program writes and answers with loads, in MBDyn's formats (its extforce.cc, extedge.cc, strext.cc,
// stredge.cc, modalext.cc, modaledge.cc).
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "support/peer_socket.hpp"
#include "support/peer_spring.hpp"
#include "support/run_program.hpp"

namespace mbl::test {
namespace {

namespace fs = std::filesystem;

void pause_1ms() { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }

/// Writes `text` to `path` through a renamed temporary, so that the program never reads half of it.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".peer";
  std::ofstream(tmp) << text;
  fs::rename(tmp, path);
}

/// The EDGE command of a flag file ("UPDATE,N,0,0,1\nFLAG,I,1,1,0\n<d>"), -1 while it is missing.
int edge_flag(const fs::path& flag) {
  std::ifstream f(flag);
  std::string line, last;
  while (std::getline(f, line))
    if (!line.empty()) last = line;
  return last.size() == 1 ? last[0] - '0' : -1;
}

void set_edge_flag(const fs::path& flag, int cmd) {
  write_atomically(flag, "UPDATE,N,0,0,1\nFLAG,I,1,1,0\n" + std::to_string(cmd) + "\n");
}

/// The peer side of the file communicator with `unlink` and `no clobber`: takes each motion file
/// the program writes (removing it lets the program write the next one) and answers with the
/// loads file `answer(motion)`, until `done`. Returns every motion received.
template <class Answer>
std::vector<std::string> serve_files(const fs::path& motion, const fs::path& loads, const std::atomic<bool>& done,
                                     Answer answer) {
  std::vector<std::string> motions;
  while (!done) {
    if (!fs::exists(motion)) {
      pause_1ms();
      continue;
    }
    std::stringstream text;
    text << std::ifstream(motion).rdbuf();
    fs::remove(motion);
    motions.push_back(text.str());
    write_atomically(loads, answer(text.str()));
  }
  return motions;
}

/// The peer side of MBDyn's EDGE exchange: ready (2) at first; on each motion (flag 3) it calls
/// `answer` with the data file's text, which returns the loads to write (flag 2) or nothing (it
/// set the flag itself); a motion equal to the last one means the peer converged (flag 4). Ends
/// when the exchange is quit (flag 5) or `done` is set.
struct EdgePeer {
  EdgePeer(fs::path flag_file, fs::path data_file) : flag(std::move(flag_file)), data(std::move(data_file)) {}
  fs::path flag, data;
  std::vector<std::string> motions;  ///< every motion file received
  int converged_steps = 0;
  bool saw_quit = false;

  template <class Answer>
  void run(const std::atomic<bool>& done, Answer answer) {
    set_edge_flag(flag, 2);
    std::string last;
    for (;;) {
      const int cmd = edge_flag(flag);
      if (cmd == 5) {
        saw_quit = true;
        return;
      }
      if (done) return;  // the program ended (its last flag was read above)
      if (cmd != 3) {
        pause_1ms();
        continue;
      }
      std::stringstream text;
      text << std::ifstream(data).rdbuf();
      motions.push_back(text.str());
      if (text.str() == last) {
        last.clear();
        ++converged_steps;
        set_edge_flag(flag, 4);
        continue;
      }
      last = text.str();
      const std::string loads = answer(text.str());
      if (loads.empty()) continue;  // `answer` set the flag itself
      write_atomically(data, loads);
      set_edge_flag(flag, 2);
    }
  }
};

/// The numbers of `text` after the line that starts with `header`, up to the next header line.
std::vector<double> edge_block(const std::string& text, const std::string& header) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line) && line.rfind(header, 0) != 0) {
  }
  std::vector<double> v;
  while (std::getline(in, line) && !line.empty() && (std::isdigit(line[0]) || line[0] == '-')) {
    std::istringstream ls(line);
    for (double d; ls >> d;) v.push_back(d);
  }
  return v;
}

/// The position of the first point of a motion file (the line after `# regular nodes`).
Eigen::Vector3d point_position(const std::string& motion) {
  std::istringstream is(motion.substr(motion.find("# regular nodes\n") + 16));
  Eigen::Vector3d x;
  is >> x[0] >> x[1] >> x[2];
  return x;
}

TEST(ExternalStructuralFile, APeerSpringThroughFilesGivesTheHarmonicMotion) {
  const fs::path dir = fresh_temp_dir("extfile_peer");
  const fs::path in = dir / "loads.dat", out = dir / "motion.dat";
  std::atomic<bool> done{false};
  std::vector<std::string> motions;
  std::thread peer([&] {
    motions = serve_files(out, in, done, [](const std::string& motion) {
      // One line per point: force and moment (global), no label.
      return number_text(-kPeerSpring * point_position(motion)[0]) + " 0 0 0 0 0\n";
    });
  });
  const TextDeckRun r = run_deck_text(
      "extfile_run", peer_spring_deck("force: 10, external structural, \"" + in.string() + "\", unlink, \"" +
                                      out.string() + "\", no clobber, sleep time, 1, precision, 12, coupling, tight, 1, 1;"));
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  expect_peer_spring_motion(r);
  // The motion file, as MBDyn's ExtFileHandler and StructExtForce::SendToStream write it: a
  // header line, then x, R (row by row), v, w of the point in scientific notation with the
  // deck's precision (12 digits).
  ASSERT_GT(motions.size(), 200u);  // several exchanges a step: tight coupling
  const std::regex number(R"(-?\d\.\d{12}e[-+]\d\d)");
  std::istringstream first(motions.front());
  std::string header, value;
  std::getline(first, header);
  EXPECT_EQ(header, "# regular nodes");
  std::vector<double> fields;
  while (first >> value) {
    EXPECT_TRUE(std::regex_match(value, number)) << value;
    fields.push_back(std::stod(value));
  }
  ASSERT_EQ(fields.size(), 18u);
  EXPECT_EQ(fields[0], 1.0);  // the predicted position of the first step
  const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; ++k) EXPECT_EQ(fields[3 + k], R[k]);
  EXPECT_FALSE(fs::exists(in));  // `unlink`: the program removed the last loads it read
}

// With a `reference node` the motion is relative to it and in its frame, and so are the loads:
// a clamped reference node turned 90 deg about z sees the mass at x = 1 at (0, -1, 0); the peer's
// spring in that frame is the same spring globally, hence the same harmonic motion.
TEST(ExternalStructuralFile, WithAReferenceNodeMotionAndLoadsAreInItsFrame) {
  const fs::path dir = fresh_temp_dir("extfile_ref");
  const fs::path in = dir / "loads.dat", out = dir / "motion.dat";
  std::atomic<bool> done{false};
  std::vector<std::string> motions;
  std::thread peer([&] {
    motions = serve_files(out, in, done, [](const std::string& motion) {
      const Eigen::Vector3d f = -kPeerSpring * point_position(motion);
      // The reference node's record (no force of its own), then the point's.
      return "0 0 0 0 0 0\n" + number_text(f[0]) + " " + number_text(f[1]) + " " + number_text(f[2]) + " 0 0 0\n";
    });
  });
  const TextDeckRun r = run_deck_text("extfile_ref_run", exchange_problem_blocks(0.1, 1e-3) + R"(
begin: control data; structural nodes: 2; rigid bodies: 1; joints: 1; forces: 1; end: control data;
begin: nodes;
  structural: 1, dynamic, 1., 0., 0., eye, null, null;
  structural: 2, static, null, 3, 0., 0., 1., 1, 0., 1., 0., null, null;
end: nodes;
begin: elements;
  body: 1, 1, 1., null, eye;
  joint: 2, clamp, 2, node, node;
  force: 10, external structural, ")" + in.string() + R"(", unlink, ")" + out.string() + R"(", no clobber,
    coupling, tight, reference node, 2, 1, 1;
end: elements;
)");
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  const auto mov = records(r.output("mov"), 1);
  ASSERT_EQ(mov.size(), 101u);
  EXPECT_NEAR(mov.back()[0], std::cos(1.0), 1e-2);
  // Reference node at the origin with R = Rz(90 deg); the point in its frame at (0, -1, 0), with
  // the relative orientation R_r^T I = Rz(-90 deg) row by row.
  std::istringstream first(motions.at(0));
  std::string line;
  std::getline(first, line);
  EXPECT_EQ(line, "# reference node");
  std::getline(first, line);
  std::getline(first, line);
  EXPECT_EQ(line, "# regular nodes");
  std::vector<double> v;
  for (double d; first >> d;) v.push_back(d);
  ASSERT_EQ(v.size(), 18u);
  const double expected[12] = {0, -1, 0, 0, 1, 0, -1, 0, 0, 0, 0, 1};
  for (int k = 0; k < 12; ++k) EXPECT_NEAR(v[k], expected[k], 1e-12) << k;
  // .frc: the reference node's line (received, applied, resultant), then the point's.
  std::ifstream frc(r.output("frc"));
  std::string id;
  frc >> id;
  EXPECT_EQ(id, "10#2");
}

TEST(ExternalStructuralEdge, APeerSpringThroughEdgeFilesGivesTheHarmonicMotion) {
  const fs::path dir = fresh_temp_dir("extedge_peer");
  EdgePeer edge{dir / "flag.dat", dir / "data.dat"};
  std::atomic<bool> done{false};
  std::thread peer([&] {
    edge.run(done, [](const std::string& motion) {
      const std::vector<double> x = edge_block(motion, "str_coordinates");
      return "* EDGE to MBDyn\next_model, N, 0, 0, 2\n*\ngrid_idents, IF, 1, 1, 0\n7\nforce, RF, 3, 1, 0\n" +
             number_text(-kPeerSpring * x.at(0)) + "\n0\n0\n";
    });
  });
  const TextDeckRun r = run_deck_text(
      "extedge_run", peer_spring_deck("force: 10, external structural, edge, \"" + edge.flag.string() + "\", \"" +
                                      edge.data.string() + "\", sleep time, 1, precision, 12, coupling, tight, "
                                      "labels, yes, sorted, no, 1, 1, label, 7;"));
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(edge.saw_quit);  // the program ends the exchange with flag 5
  EXPECT_EQ(edge.converged_steps, 100);  // one convergence (flag 4) per step
  // The records are the point's, labelled 7.
  const auto mov = records(r.output("mov"), 1);
  ASSERT_EQ(mov.size(), 101u);
  EXPECT_NEAR(mov.back()[0], std::cos(1.0), 1e-2);
  std::ifstream frc(r.output("frc"));
  std::string point;
  frc >> point;
  EXPECT_EQ(point, "10@7");
  // The motion file of stredge.cc: labels, positions and velocities by components.
  EXPECT_EQ(edge.motions.front(),
            "ext_model, N, 0, 0, 3\n*\ngrid_idents, IF, 1, 1, 0\n7\n"
            "str_coordinates, RF, 3, 1, 0\n1.000000000000e+00\n0.000000000000e+00\n0.000000000000e+00\n"
            "velocity, RF, 3, 1, 0\n0.000000000000e+00\n0.000000000000e+00\n0.000000000000e+00\n");
}

// A flag file that stays malformed ends the run after MBDyn's 10 retries (exit 3, outputs
// complete), never a crash or an endless wait.
TEST(ExternalStructuralEdge, AMalformedFlagFileEndsTheRunAfterTenRetries) {
  const fs::path dir = fresh_temp_dir("extedge_malformed");
  std::ofstream(dir / "flag.dat") << "UPDATE,N,0,0,1\nFLAG,X,1,1,0\n2\n";  // X: not MBDyn's field
  const TextDeckRun r = run_deck_text(
      "extedge_malformed_run",
      peer_spring_deck("force: 10, external structural, edge, \"" + (dir / "flag.dat").string() + "\", \"" +
                       (dir / "data.dat").string() + "\", coupling, tight, 1, 1;"));
  EXPECT_EQ(r.rc, 3) << r.log();
  EXPECT_NE(r.log().find("malformed flag file"), std::string::npos) << r.log();
  EXPECT_EQ(records(r.output("mov"), 1).size(), 1u);  // the initial record
}

/// One FEM node, one mode of generalized mass 1 and stiffness 1e4 (appendix A.1).
const char* kOneModeFem = R"(** MBDyn MODAL DATA FILE
** RECORD GROUP 1, HEADER
**   REVISION, NODE, NORMAL, ATTACHMENT, CONSTRAINT, REJECTED MODES.
 REV0 1 1 0 0 0
**
** RECORD GROUP 2, FINITE ELEMENT NODE LIST
 1
** RECORD GROUP 3, INITIAL MODAL DISPLACEMENTS
 0
** RECORD GROUP 4, INITIAL MODALVELOCITIES
 0
** RECORD GROUP 5, NODAL X COORDINATES
 1
** RECORD GROUP 6, NODAL Y COORDINATES
 0
** RECORD GROUP 7, NODAL Z COORDINATES
 0
** RECORD GROUP 8, MODE SHAPES
**    NORMAL MODE SHAPE # 1
 0 0 1 0 0 0
**
** RECORD GROUP 9, MODAL MASS MATRIX
 1
**
** RECORD GROUP 10, MODAL STIFFNESS MATRIX
 1e4
**
** RECORD GROUP 11, DIAGONAL OF LUMPED MASS MATRIX
 1 1 1 1 1 1
)";

std::string one_mode_deck(const fs::path& fem, const std::string& force_card, double final_time) {
  return exchange_problem_blocks(final_time, 1e-3) + R"(
begin: control data; joints: 1; forces: 1; end: control data;
begin: elements;
  joint: 2, modal, clamped, 1, from file, no damping, ")" + fem.string() + R"(", 0;
  )" + force_card + R"(
end: elements;
)";
}

/// The modal coordinate per output record (.mod lines "2.1 q q' q''").
std::vector<double> modal_history(const TextDeckRun& r) {
  std::vector<double> q;
  std::ifstream mod(r.output("mod"));
  for (std::string line; std::getline(mod, line);) {
    std::istringstream ls(line);
    std::string id;
    double v = 0.0;
    if (ls >> id >> v && id == "2.1") q.push_back(v);
  }
  return q;
}

// A constant generalized force F on a mode of stiffness K and mass 1, from rest:
// q = F/K (1 - cos(w t)), w = 100 rad/s.
TEST(ExternalModalEdge, APeerModalForceDrivesTheMode) {
  const fs::path dir = fresh_temp_dir("extmodal_edge");
  std::ofstream(dir / "one.fem") << kOneModeFem;
  EdgePeer edge{dir / "mflag.dat", dir / "mdata.dat"};
  constexpr double F = 100.0, K = 1e4;
  std::atomic<bool> done{false};
  std::thread peer([&] {
    edge.run(done, [&](const std::string&) {
      return "* EDGE to MBDyn modal forces\nmodal_force_flow,R,1,1,0\n" + number_text(F) + "\n";
    });
  });
  const TextDeckRun r = run_deck_text(
      "extmodal_edge_run",
      one_mode_deck(dir / "one.fem",
                    "force: 11, external modal, EDGE, \"" + edge.flag.string() + "\", \"" + edge.data.string() +
                        "\", sleeptime, 1, coupling, tight, 2, type, modal;",
                    0.06));
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(edge.saw_quit);
  const std::vector<double> q = modal_history(r);
  ASSERT_EQ(q.size(), 61u);
  double worst = 0.0;
  for (std::size_t k = 1; k < q.size(); ++k)
    worst = std::max(worst, std::abs(q[k] - F / K * (1.0 - std::cos(100.0 * 1e-3 * double(k)))));
  // ms(0.6) at w h = 0.1 keeps the phase to a fraction of a percent of the amplitude over the
  // first oscillation; the derivatives phase sees no force yet (the first exchange follows the
  // first prediction), which shifts the start by one step.
  EXPECT_LT(worst, 0.1 * F / K) << "worst " << worst;
  EXPECT_NEAR(*std::max_element(q.begin(), q.end()), 2.0 * F / K, 0.05 * F / K);
  // MBDyn's modal EDGE record (modaledge.cc): modal_coordinate and modal_velocity, <n>,1 order.
  const std::string& m = edge.motions.at(5);
  EXPECT_EQ(m.rfind("* MBDyn to EDGE modal dynamics\nmodal_state,N,0,0,2\nmodal_coordinate,R,1,1,0\n", 0), 0u) << m;
  EXPECT_NE(m.find("\nmodal_velocity,R,1,1,0\n"), std::string::npos) << m;
  EXPECT_EQ(edge.converged_steps, 60);
  // .frc: "label.mode f".
  std::ifstream frc(r.output("frc"));
  std::string id;
  double f = 0.0;
  std::string last_id;
  double last_f = 0.0;
  while (frc >> id >> f) last_id = id, last_f = f;
  EXPECT_EQ(last_id, "11.1");
  EXPECT_EQ(last_f, F);
}

// An EDGE peer that quits (flag 5, as EDGE does at the end of its run) ends the simulation after
// the step in which it quit, with the outputs complete (MBDyn: stop at the end of the time step).
TEST(ExternalModalEdge, APeerThatQuitsEndsTheRunAfterTheStep) {
  const fs::path dir = fresh_temp_dir("extmodal_quit");
  std::ofstream(dir / "one.fem") << kOneModeFem;
  EdgePeer edge{dir / "mflag.dat", dir / "mdata.dat"};
  std::atomic<bool> done{false};
  std::thread peer([&] {
    edge.run(done, [&](const std::string&) {
      if (edge.converged_steps == 10) {  // quit instead of answering the first motion of step 11
        set_edge_flag(edge.flag, 5);
        return std::string();
      }
      return std::string("modal_force_flow,R,1,1,0\n1\n");
    });
  });
  const TextDeckRun r = run_deck_text(
      "extmodal_quit_run",
      one_mode_deck(dir / "one.fem",
                    "force: 11, external modal, edge, \"" + edge.flag.string() + "\", \"" + edge.data.string() +
                        "\", coupling, tight, 2, type, modal;",
                    1.0));
  done = true;
  peer.join();
  EXPECT_EQ(r.rc, 0) << r.log();
  EXPECT_NE(r.log().find("the peer ended the simulation"), std::string::npos) << r.log();
  EXPECT_EQ(modal_history(r).size(), 12u);  // the initial record, 10 steps, and the step it quit in
}

// The rigid part over EDGE (modaledge.cc): the peer pushes the modal node (the body's mass is 1,
// its mode moves along z only) with a constant force F along x, so x = F t^2 / 2; the motion file
// gives the velocity relative to the airstream of `air properties`, in the node frame.
TEST(ExternalModalEdge, APeerRigidBodyForcePushesTheModalNode) {
  const fs::path dir = fresh_temp_dir("extrigid_edge");
  std::ofstream(dir / "one.fem") << kOneModeFem;
  EdgePeer edge{dir / "rflag.dat", dir / "rdata.dat"};
  constexpr double F = 2.0, V_air = 10.0;
  std::atomic<bool> done{false};
  std::thread peer([&] {
    edge.run(done, [&](const std::string&) {
      return "* EDGE to MBDyn rigid body forces\nbody_forces,R,1,6,0\n" + number_text(F) + " 0 0 0 0 0\n";
    });
  });
  const TextDeckRun r = run_deck_text("extrigid_edge_run", exchange_problem_blocks(0.05, 1e-3) + R"(
begin: control data; structural nodes: 1; joints: 1; forces: 1; air properties; end: control data;
begin: nodes; structural: 1, modal, null, eye, null, null; end: nodes;
begin: elements;
  joint: 2, modal, 1, 1, from file, no damping, ")" + (dir / "one.fem").string() + R"(", 0;
  air properties: 1.225, 340., 1., 0., 0., const, )" + number_text(V_air) + R"(;
  force: 10, external modal, edge, ")" + edge.flag.string() + R"(", ")" + edge.data.string() + R"(",
    coupling, tight, 2, type, rigid;
end: elements;
)");
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_TRUE(edge.saw_quit);
  EXPECT_EQ(edge.converged_steps, 50);
  const auto mov = records(r.output("mov"), 1);
  ASSERT_EQ(mov.size(), 51u);
  const double t = 0.05;
  // Within the shift of one step (the derivatives phase sees no force yet): measured 2.0 %.
  EXPECT_NEAR(mov.back()[0], 0.5 * F * t * t, F * t * 1e-3);
  EXPECT_NEAR(mov.back()[6], F * t, 2e-2 * F * t);
  // The last motion of the run: the node's velocity less the airstream, in the node frame,
  // then the orientation by columns (identity).
  const std::string& m = edge.motions.back();
  EXPECT_EQ(m.rfind("* MBDyn to EDGE rigid body dynamics\nbody_dynamics,N,0,0,3\n"
                    "* Body linear velocity in body axes\nVRELV,R,1,3,0\n", 0), 0u) << m;
  const std::vector<double> v = edge_block(m, "VRELV"), w = edge_block(m, "VRELM"), R = edge_block(m, "OMGMAN");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NEAR(v[0], F * t - V_air, 2e-2 * F * t);
  EXPECT_EQ(w, std::vector<double>(3, 0.0));
  EXPECT_EQ(R, (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  // .frc: "label#node F M".
  std::ifstream f(r.output("frc"));
  std::string id;
  f >> id;
  EXPECT_EQ(id, "10#1");
}

// The file communicator of the external modal force (modalext.cc): motion lines "q q'" per mode
// (the rigid part only with a modal node), loads one value per mode; a constant generalized force
// gives the same response as through EDGE.
TEST(ExternalModalFile, MotionAndLoadsFollowMBDynsLines) {
  const fs::path dir = fresh_temp_dir("extmodal_file");
  std::ofstream(dir / "one.fem") << kOneModeFem;
  const fs::path in = dir / "loads.dat", out = dir / "motion.dat";
  std::atomic<bool> done{false};
  std::vector<std::string> motions;
  constexpr double F = 100.0, K = 1e4;
  std::thread peer([&] {
    motions = serve_files(out, in, done, [&](const std::string&) { return number_text(F) + "\n"; });
  });
  const TextDeckRun r = run_deck_text(
      "extmodal_file_run", one_mode_deck(dir / "one.fem",
                                         "force: 11, external modal, \"" + in.string() + "\", unlink, \"" +
                                             out.string() + "\", no clobber, coupling, tight, 2;",
                                         0.03));
  done = true;
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  const std::vector<double> q = modal_history(r);
  ASSERT_EQ(q.size(), 31u);
  EXPECT_NEAR(q.back(), F / K * (1.0 - std::cos(100.0 * 0.03)), 0.1 * F / K);
  // Clamped joint: the modal part alone, one line "q q'" per mode, 6 digits by default.
  ASSERT_GT(motions.size(), 30u);
  EXPECT_TRUE(std::regex_match(motions.front(), std::regex(R"(-?\d\.\d{6}e[-+]\d\d -?\d\.\d{6}e[-+]\d\d\n)")))
      << motions.front();
}

// The socket communicator of the external modal force (libmbc modal protocol, modalext.cc): the
// peer negotiates MBC_MODAL without MBC_REF_NODE (the joint is clamped) and one mode, receives
// q and q' and answers with the generalized force until q stops changing.
TEST(ExternalModalSocket, APeerModalForceDrivesTheMode) {
  const fs::path dir = fresh_temp_dir("extmodal_socket");
  std::ofstream(dir / "one.fem") << kOneModeFem;
  const std::string sock = (dir / "modal.sock").string();
  constexpr double F = 100.0, K = 1e4;
  int steps = 0;
  std::thread peer([&] {
    const int fd = connect_local(sock);
    ASSERT_GE(fd, 0);
    const std::uint8_t request = ES_NEGOTIATION;
    const std::uint32_t flags[2] = {0x0001, 1};  // MBC_MODAL, 1 mode
    ASSERT_EQ(::send(fd, &request, 1, 0), 1);
    ASSERT_EQ(::send(fd, flags, sizeof flags, 0), ssize_t(sizeof flags));
    std::uint8_t answer = 0;
    ASSERT_TRUE(receive_exactly(fd, &answer, 1));
    ASSERT_EQ(answer, ES_OK);
    double q_last = -1.0;
    for (std::uint8_t cmd; receive_exactly(fd, &cmd, 1) && cmd != ES_ABORT;) {
      ASSERT_EQ(cmd, ES_REGULAR_DATA);
      double motion[2];  // q, q'
      ASSERT_TRUE(receive_exactly(fd, motion, sizeof motion));
      if (motion[0] == q_last) {
        const std::uint8_t next = ES_GOTO_NEXT_STEP;
        ASSERT_EQ(::send(fd, &next, 1, 0), 1);
        q_last = -1.0;
        ++steps;
        continue;
      }
      q_last = motion[0];
      const std::uint8_t data = ES_REGULAR_DATA;
      ASSERT_EQ(::send(fd, &data, 1, 0), 1);
      ASSERT_EQ(::send(fd, &F, sizeof F, 0), ssize_t(sizeof F));
    }
    ::close(fd);
  });
  const TextDeckRun r = run_deck_text(
      "extmodal_socket_run",
      one_mode_deck(dir / "one.fem",
                    "force: 11, external modal, socket, create, yes, path, \"" + sock + "\", coupling, tight, 2;", 0.06));
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_EQ(steps, 60);
  const std::vector<double> q = modal_history(r);
  ASSERT_EQ(q.size(), 61u);
  EXPECT_NEAR(*std::max_element(q.begin(), q.end()), 2.0 * F / K, 0.05 * F / K);
}

}  // namespace
}  // namespace mbl::test
