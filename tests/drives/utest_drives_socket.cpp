// Socket and stream file drivers (input manual §7.1.3, §7.1.5) fed by a real peer: the test
// connects to the driver's local socket and speaks the protocol MBDyn documents.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <thread>

#include "drive_test_util.hpp"
#include "elements/drives/socket_drivers.hpp"
#include "support/run_program.hpp"

namespace mbl::drives::test {
namespace {

namespace fs = std::filesystem;

std::string socket_path(const char* what) {
  static const fs::path dir = ::mbl::test::fresh_temp_dir("drives_socket");
  return (dir / (std::string(what) + ".sock")).string();
}

/// A client of a local socket; retries while the server is not listening yet.
int connect_local(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof(a.sun_path) - 1);
  for (;;) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = ::write(fd, p, n);
    ASSERT_GT(k, 0);
    p += k;
    n -= std::size_t(k);
  }
}

/// One peer session of the socket driver: connect, send the text, close.
void socket_session(const std::string& path, const std::string& text) {
  const int fd = connect_local(path);
  write_all(fd, text.data(), text.size());
  ::close(fd);
}

struct Driver {
  DriveDeck k;
  std::shared_ptr<StepObserver> hook;
  explicit Driver(const std::string& card) {
    k.read_cards("begin: drivers;\n" + card + "\nend: drivers;", [&](parser::CardReader& c) {
      if (c.card_is("file")) hook = read_file_driver_card(c, k.env);
      else c.skip_rest();
    });
  }
};

TEST(DrivesSocket, ChannelsKeepTheirInitialValuesUntilAPeerWrites) {
  const std::string path = socket_path("socketdrv");
  Driver d("file: 7, socket, 2, initial values, 1.5, -2., local, \"" + path + "\";");
  ASSERT_TRUE(d.hook);
  auto c1 = d.k.drive("file, 7, 1");
  auto c2 = d.k.drive("file, 7, 2, amplitude, 10.");
  d.hook->before_step(0.001);  // starts listening; no peer yet
  EXPECT_DOUBLE_EQ(c1->value(0.001), 1.5);
  EXPECT_DOUBLE_EQ(c2->value(0.001), -20.0);

  // set, then add in incremental mode (the peer authenticates although `local` needs none)
  socket_session(path, "user: me\npassword: secret\nlabel: 1\nvalue: 3.25\n.\n");
  socket_session(path, "label: 2\ninc: yes\nvalue: 0.5\nvalue: 0.25\n.\n");
  d.hook->before_step(0.002);
  EXPECT_DOUBLE_EQ(c1->value(0.002), 3.25);
  EXPECT_DOUBLE_EQ(c2->value(0.002), 10.0 * (-2.0 + 0.5 + 0.25));

  // impulsive mode: the value lasts one step, then the channel is zero
  socket_session(path, "label: 1\nimp: yes\nvalue: 9.\n.\n");
  d.hook->before_step(0.003);
  EXPECT_DOUBLE_EQ(c1->value(0.003), 9.0);
  d.hook->before_step(0.004);
  EXPECT_DOUBLE_EQ(c1->value(0.004), 0.0);

  // a malformed session (channel out of range) changes nothing
  socket_session(path, "label: 3\nvalue: 1.\n.\n");
  d.hook->before_step(0.005);
  EXPECT_DOUBLE_EQ(c2->value(0.005), 10.0 * (-2.0 + 0.5 + 0.25));
}

TEST(DrivesSocket, InetDriverNeedsAnAuthenticationMethod) {
  DriveDeck k;
  const auto e = input_error([&] {
    k.read_cards("begin: drivers;\nfile: 1, socket, 1, port, 5555;\nend: drivers;",
                 [&](parser::CardReader& c) {
                   if (c.card_is("file")) read_file_driver_card(c, k.env);
                   else c.skip_rest();
                 });
  });
  EXPECT_NE(e.message().find("noauth"), std::string::npos) << e.message();
}

TEST(DrivesStream, ReceivesFirstAtTheInitialTimeThenEveryInputEverySteps) {
  const std::string path = socket_path("streamdrv");
  Driver d("file: 3, stream, stream drive name, \"MBXOUT\", create, yes, local, \"" + path +
           "\", no signal, input every, 2, 2;");
  ASSERT_TRUE(d.hook);
  auto c2 = d.k.drive("file, 3, 2");
  // The peer sends one record (two native doubles) per exchange: at the initial time, then
  // every second step.
  std::thread peer([&] {
    const int fd = connect_local(path);
    for (double r : {1.0, 2.0, 3.0}) {
      const double record[2] = {r, 10.0 * r};
      write_all(fd, record, sizeof record);
    }
    ::close(fd);
  });
  EXPECT_DOUBLE_EQ(c2->value(0.0), 10.0);  // the first evaluation waits for the peer
  d.hook->before_step(0.1);
  EXPECT_DOUBLE_EQ(c2->value(0.1), 10.0);
  d.hook->before_step(0.2);
  EXPECT_DOUBLE_EQ(c2->value(0.2), 20.0);
  d.hook->before_step(0.3);
  d.hook->before_step(0.4);
  EXPECT_DOUBLE_EQ(c2->value(0.4), 30.0);
  peer.join();
  // The peer closed: the driver is abandoned and keeps its last values.
  d.hook->before_step(0.5);
  d.hook->before_step(0.6);
  EXPECT_DOUBLE_EQ(c2->value(0.6), 30.0);
}

TEST(DrivesStream, WithoutReceiveFirstTheInitialValuesHoldForTheFirstSteps) {
  const std::string path = socket_path("streamdrv2");
  Driver d("file: 4, stream, name, \"X\", create, yes, path, \"" + path +
           "\", receive first, no, 1, initial values, 0.5;");
  auto c1 = d.k.drive("file, 4");
  std::thread peer([&] {
    const int fd = connect_local(path);
    const double v = 4.0;
    write_all(fd, &v, sizeof v);
    ::close(fd);
  });
  EXPECT_DOUBLE_EQ(c1->value(0.0), 0.5);
  d.hook->before_step(0.1);
  EXPECT_DOUBLE_EQ(c1->value(0.1), 4.0);
  peer.join();
}

}  // namespace
}  // namespace mbl::drives::test
