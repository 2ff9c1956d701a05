// Stream output elements (input manual §8.14.1, §8.14.3) and the stream file driver (§7.1.5) in
// whole runs: a thread of the test is the peer; it connects to the program's local sockets and
// exchanges native doubles as MBDyn's protocol has it.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <cmath>
#include <limits>
#include <thread>

#include "support/peer_socket.hpp"
#include "support/peer_spring.hpp"
#include "support/run_program.hpp"

namespace mbl::test {
namespace {

/// Every double the program sends until it closes the connection.
std::vector<double> receive_all(int fd) {
  std::vector<char> bytes;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) bytes.insert(bytes.end(), buf, buf + n);
  std::vector<double> v(bytes.size() / sizeof(double));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
  return v;
}

std::string spring_deck(const std::string& sock, const std::string& output_card) {
  // Node 2 (mass 1) on a rod of stiffness 100 to the clamped node 1, released from x = 1.2.
  return exchange_problem_blocks(0.1) + R"(
begin: control data;
  structural nodes: 2; joints: 2; rigid bodies: 1; output elements: 1;
end: control data;
begin: nodes;
  structural: 1, static, null, eye, null, null;
  structural: 2, dynamic, 0., 0., 1.2, eye, null, null;
end: nodes;
begin: elements;
  joint: 1, clamp, 1, node, node;
  joint: 2, rod, 1, 2, from nodes, linear elastic, 1e2;
  body: 2, 2, 1., null, eye;
  )" + output_card + R"(
end: elements;
)";
}

TEST(ElementsStream, MotionOutputSendsThePositionsOfTheMovEveryOutputEverySteps) {
  const std::string sock = fresh_temp_dir("stream_motion").string() + "/motion.sock";
  std::vector<double> got;
  std::thread peer([&] {
    const int fd = connect_local(sock);
    ASSERT_GE(fd, 0);
    got = receive_all(fd);
    ::close(fd);
  });
  const TextDeckRun r = run_deck_text(
      "stream_motion_run", spring_deck(sock, "stream motion output: 1, stream name, \"SPRNGF\", create, yes, local, \"" +
                                                 sock + "\", output every, 10, motion, 1, 2;"));
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  EXPECT_NE(r.log().find("waiting for a peer to connect"), std::string::npos) << r.log();
  // The initial time (send first), then steps 10, 20, ...: records of 2 positions.
  const auto mov = records(r.output("mov"), 2);
  ASSERT_GE(mov.size(), 101u);
  const std::size_t sent = 1 + (mov.size() - 1) / 10;
  ASSERT_EQ(got.size(), sent * 6u);
  for (std::size_t k = 0; k < sent; ++k)
    for (int i = 0; i < 3; ++i) {
      EXPECT_DOUBLE_EQ(got[6 * k + i], 0.0);  // node 1 stays at the origin
      EXPECT_NEAR(got[6 * k + 3 + i], mov[10 * k][std::size_t(i)], 1e-6) << "record " << k << ", component " << i;
    }
  EXPECT_DOUBLE_EQ(got[5], 1.2);
}

TEST(ElementsStream, StreamDriverAndValuesOutputCloseTheLoopWithThePeer) {
  // The peer pushes node 2 with a force it sends before each step (first at the initial time);
  // the program sends back the node's position and velocity after each step.
  const std::string dir = fresh_temp_dir("stream_loop").string();
  const std::string in_sock = dir + "/in.sock", out_sock = dir + "/out.sock";
  const std::string deck = exchange_problem_blocks(0.05) + R"(
begin: control data;
  structural nodes: 1; rigid bodies: 1; forces: 1; output elements: 1; file drivers: 1;
end: control data;
begin: nodes;
  structural: 2, dynamic, null, eye, null, null;
end: nodes;
begin: drivers;
  file: 1, stream, stream drive name, "FRC", create, yes, local, ")" + in_sock + R"(", 1;
end: drivers;
begin: elements;
  body: 2, 2, 2., null, eye;
  force: 1, absolute, 2, position, null, 1., 0., 0., file, 1, 1;
  stream output: 1, stream name, "MOV", create, yes, local, ")" + out_sock + R"(", no send first,
    values, 2, node dof, 2, structural, 1, algebraic, drive, dof, 2, structural, 1, differential, direct;
end: elements;
)";
  constexpr double force = 4.0;  // a = 2 m/s^2
  std::vector<double> got;
  std::thread peer([&] {
    const int in_fd = connect_local(in_sock);
    ASSERT_GE(in_fd, 0);
    // the initial time and every step (a few more than the 50 steps are never read)
    for (int k = 0; k <= 60; ++k) ASSERT_EQ(::send(in_fd, &force, sizeof force, 0), ssize_t(sizeof force));
    const int out_fd = connect_local(out_sock);
    ASSERT_GE(out_fd, 0);
    got = receive_all(out_fd);
    ::close(in_fd);
    ::close(out_fd);
  });
  const TextDeckRun r = run_deck_text("stream_loop_run", deck);
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  const auto mov = records(r.output("mov"), 2);
  ASSERT_GE(mov.size(), 51u);
  const std::size_t steps = mov.size() - 1;
  ASSERT_EQ(got.size(), steps * 2u);  // no send first: one record per step
  for (std::size_t k = 0; k < steps; ++k) {
    EXPECT_NEAR(got[2 * k], mov[k + 1][0], 1e-6 * (1.0 + std::abs(got[2 * k])));
    EXPECT_NEAR(got[2 * k + 1], mov[k + 1][6], 1e-6 * (1.0 + std::abs(got[2 * k + 1])));
  }
  // Constant acceleration F/m from rest: x = t^2, v = 2 t at step 50.
  EXPECT_NEAR(got[98], 0.05 * 0.05, 1e-6);
  EXPECT_NEAR(got[99], 2.0 * 0.05, 1e-6);
}

}  // namespace
}  // namespace mbl::test

namespace mbl::test {
namespace {

std::string external_spring_deck(const std::string& sock) {
  return peer_spring_deck("force: 10, external structural, socket, create, yes, path, \"" + sock +
                          "\", no signal, coupling, tight, 1, 1, offset, 0., 0., 0.;");
}

TEST(ElementsExternalStructural, TightCouplingWithAPeerSpringGivesTheHarmonicMotion) {
  const std::string sock = fresh_temp_dir("extstr").string() + "/ext.sock";
  int exchanges = 0, steps = 0;
  std::thread peer([&] {
    const int fd = connect_local(sock);
    ASSERT_GE(fd, 0);
    // negotiation: nodal, orientation matrix, no labels, no accelerations, 1 point
    const std::uint8_t request = ES_NEGOTIATION;
    const std::uint32_t flags[2] = {0x0002 | 0x0200, 1};
    ASSERT_EQ(::send(fd, &request, 1, 0), 1);
    ASSERT_EQ(::send(fd, flags, sizeof flags, 0), ssize_t(sizeof flags));
    std::uint8_t answer = 0;
    ASSERT_TRUE(receive_exactly(fd, &answer, 1));
    ASSERT_EQ(answer, ES_OK);
    double x_last = std::numeric_limits<double>::quiet_NaN();
    for (std::uint8_t cmd; receive_exactly(fd, &cmd, 1) && cmd != ES_ABORT;) {
      ASSERT_EQ(cmd, ES_REGULAR_DATA);
      double motion[18];  // x, R (column-major), v, w
      ASSERT_TRUE(receive_exactly(fd, motion, sizeof motion));
      EXPECT_DOUBLE_EQ(motion[3], 1.0);  // R11: the node does not rotate
      ++exchanges;
      if (std::abs(motion[0] - x_last) < 1e-12) {  // converged: the forces sent last stay
        const std::uint8_t next = ES_GOTO_NEXT_STEP;
        ASSERT_EQ(::send(fd, &next, 1, 0), 1);
        x_last = std::numeric_limits<double>::quiet_NaN();
        ++steps;
        continue;
      }
      x_last = motion[0];
      const std::uint8_t data = ES_REGULAR_DATA;
      const double fm[6] = {-kPeerSpring * motion[0], 0., 0., 0., 0., 0.};
      ASSERT_EQ(::send(fd, &data, 1, 0), 1);
      ASSERT_EQ(::send(fd, fm, sizeof fm, 0), ssize_t(sizeof fm));
    }
    ::close(fd);
  });
  const TextDeckRun r = run_deck_text("extstr_run", external_spring_deck(sock));
  peer.join();
  ASSERT_EQ(r.rc, 0) << r.log();
  expect_peer_spring_motion(r);
  EXPECT_EQ(steps, 100);  // one converged exchange per step
  EXPECT_GT(exchanges, 2 * steps);
}

TEST(ElementsExternalStructural, APeerAskingForOtherDataIsRefused) {
  const std::string sock = fresh_temp_dir("extstr_refused").string() + "/ext.sock";
  std::uint8_t answer = 0;
  std::thread peer([&] {
    const int fd = connect_local(sock);
    ASSERT_GE(fd, 0);
    const std::uint8_t request = ES_NEGOTIATION;
    const std::uint32_t flags[2] = {0x0002 | 0x0200 | 0x0010, 1};  // with labels: not what the card says
    ASSERT_EQ(::send(fd, &request, 1, 0), 1);
    ASSERT_EQ(::send(fd, flags, sizeof flags, 0), ssize_t(sizeof flags));
    ASSERT_TRUE(receive_exactly(fd, &answer, 1));
    ::close(fd);
  });
  const TextDeckRun r = run_deck_text("extstr_refused_run", external_spring_deck(sock));
  peer.join();
  EXPECT_EQ(answer, ES_ABORT);
  EXPECT_EQ(r.rc, 3) << r.log();
  EXPECT_NE(r.log().find("the peer asks for flags"), std::string::npos) << r.log();
}

}  // namespace
}  // namespace mbl::test
