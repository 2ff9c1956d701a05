// Stream output elements (input manual §8.14.1, §8.14.3) and the stream file driver (§7.1.5) in
// whole runs: a thread of the test is the peer; it connects to the program's local sockets and
// exchanges native doubles as MBDyn's protocol has it.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "support/run_program.hpp"

namespace mbl::test {
namespace {

/// A client of a local socket; retries while the program is not listening yet.
int connect_local(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof(a.sun_path) - 1);
  for (int attempt = 0; attempt < 3000; ++attempt) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

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
  return R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: 0.1; time step: 1.e-3;
  method: ms, .6; tolerance: 1e-9; max iterations: 20;
end: initial value;
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
  const std::string deck = R"(
begin: data; problem: initial value; end: data;
begin: initial value;
  initial time: 0.; final time: 0.05; time step: 1.e-3;
  method: ms, .6; tolerance: 1e-10; max iterations: 20;
end: initial value;
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
