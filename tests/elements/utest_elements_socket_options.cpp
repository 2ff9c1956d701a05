// The socket options of the stream file driver, the stream output elements and the external
// forces' socket communicator (input manual §7.1.5, §8.14.1, §8.8.9), read by one reader with
// MBDyn's checks (its socketstreamdrive.cc, socketstream_out_elem.cc, extsocket.cc): port range,
// local sockets without port or host, the host MBDyn connects to, udp and `create`, local paths
// (bound as given when created, found as files when connected to), and the text precision of
// the echo and the external forces. Whole decks with these errors are in tests/bad/.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "elements/input/socket_options.hpp"
#include "elements/input/stream_echo.hpp"
#include "parser/parser_test_util.hpp"
#include "support/run_program.hpp"

namespace mbl::elements {
namespace {

namespace fs = std::filesystem;
using parser::test::MemoryDeck;

// The rules of the three cards (as their readers give them).
const SocketRules kStreamDriver{.default_port = 9012, .udp_creates = true, .udp_create = true, .udp_feature = "udp"};
const SocketRules kStreamOutput{.default_port = 9011, .udp_creates = true, .udp_create = false, .udp_feature = "udp"};
const SocketRules kExternalForce{.connect_needs_host = true, .udp_creates = false, .udp_create = true, .udp_feature = "udp"};

/// Reads the options of the card "x: <args>;" of a deck named `deck`; the card must end there.
std::optional<SocketOptions> read(MemoryDeck& d, const SocketRules& rules) {
  parser::CardReader& c = d.card();
  std::optional<SocketOptions> s = read_socket_options(c, rules);
  if (s) c.expect_end();
  return s;
}

/// The InputError of reading "x: <args>;" ("test.mbd:1:<col>: error: <message>").
std::string error_of(const std::string& args, const SocketRules& rules) {
  MemoryDeck d("x: " + args + ";");
  try {
    read(d, rules);
  } catch (const parser::InputError& e) {
    return e.where().str() + ": " + e.message();
  }
  return "no error";
}

TEST(SocketOptions, PortsOutsideOneTo65535AreErrorsAtTheNumber) {
  for (const SocketRules* rules : {&kStreamDriver, &kStreamOutput, &kExternalForce}) {
    EXPECT_EQ(error_of("create, yes, port, 70000", *rules),
              "test.mbd:1:23: expected a port number from 1 to 65535, found 70000");
    EXPECT_EQ(error_of("create, yes, port, 0", *rules), "test.mbd:1:23: expected a port number from 1 to 65535, found 0");
  }
  MemoryDeck d("x: create, yes, port, 65535;");
  EXPECT_EQ(read(d, kStreamOutput)->address.port, 65535);
}

TEST(SocketOptions, ALocalSocketHasNeitherPortNorHost) {
  EXPECT_EQ(error_of("local, \"/tmp/a.sock\", port, 9000", kStreamDriver), "test.mbd:1:26: a local socket has no port");
  EXPECT_EQ(error_of("path, \"/tmp/a.sock\", host, \"h\"", kExternalForce), "test.mbd:1:25: a local socket has no host");
}

TEST(SocketOptions, InetDefaultsDifferAsInMBDyn) {
  // The streams have default ports (the driver's is 9012 in MBDyn's source; the manual says 9011)
  // and connect to 127.0.0.1 without a host; the external force needs both.
  MemoryDeck drive("x: create, no;"), output("x: create, no;"), ext("x: create, yes, port, 5500;");
  const SocketOptions a = *read(drive, kStreamDriver), b = *read(output, kStreamOutput), c = *read(ext, kExternalForce);
  EXPECT_EQ(a.address.port, 9012);
  EXPECT_EQ(b.address.port, 9011);
  EXPECT_TRUE(a.address.host.empty());  // SocketChannel connects to 127.0.0.1
  EXPECT_EQ(c.address.port, 5500);
  EXPECT_TRUE(c.create);
  EXPECT_EQ(error_of("create, no, port, 5500", kExternalForce),
            "test.mbd:1:26: expected `host, \"<host>\"` (MBDyn connects to the peer's socket), found ';'");
  EXPECT_EQ(error_of("create, yes", kExternalForce), "test.mbd:1:15: expected `path, \"<path>\"` or `port, <port>`");
}

TEST(SocketOptions, LocalPathsAreFileNames) {
  // A socket we connect to is a file: relative, from the deck's folder when it is there (a peer's
  // socket), else as given. One we create is bound as given (from the working directory, as
  // MBDyn binds it), whatever lies next to the deck. `~/` is the home folder (MBDyn's
  // GetFileName); absolute paths stay.
  const fs::path dir = test::fresh_temp_dir("socket_paths");
  std::ofstream(dir / "peer.sock") << "";
  const std::string deck = (dir / "deck.mbd").string();
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  struct Case {
    std::string create, given, expected;
  };
  for (const Case& k : {Case{"no", "peer.sock", (dir / "peer.sock").string()}, Case{"yes", "peer.sock", "peer.sock"},
                        Case{"no", "new.sock", "new.sock"}, Case{"yes", "~/x.sock", std::string(home) + "/x.sock"},
                        Case{"no", "~/x.sock", std::string(home) + "/x.sock"}, Case{"yes", "/tmp/y.sock", "/tmp/y.sock"}}) {
    for (const SocketRules* rules : {&kStreamDriver, &kStreamOutput, &kExternalForce}) {
      MemoryDeck d("x: create, " + k.create + ", local, \"" + k.given + "\";", deck);
      const SocketOptions s = *read(d, *rules);
      EXPECT_TRUE(s.address.local);
      EXPECT_EQ(s.address.path, k.expected) << "create " << k.create << ", " << k.given;
    }
  }
}

TEST(SocketOptions, UdpSettlesCreateBeforeTheHostIsAskedFor) {
  // Rules under which udp implies `create, yes` and a connecting socket needs a host: a udp
  // socket without `create` is created, so it needs no host (reported not implemented, not an
  // error); without udp the host is still asked for where it is missing.
  const SocketRules rules{.connect_needs_host = true, .udp_creates = true, .udp_create = true, .udp_feature = "udp"};
  MemoryDeck d("x: port, 9000, socket type, udp;");
  EXPECT_EQ(read(d, rules), std::nullopt);
  ASSERT_EQ(d.ctx.diagnostics().size(), 1u);
  EXPECT_EQ(d.ctx.diagnostics()[0].severity, "not implemented");
  EXPECT_EQ(error_of("port, 9000, socket type, tcp", rules),
            "test.mbd:1:16: expected `host, \"<host>\"` (MBDyn connects to the peer's socket), found `socket type`");
  EXPECT_EQ(error_of("port, 9000", rules),
            "test.mbd:1:14: expected `host, \"<host>\"` (MBDyn connects to the peer's socket), found ';'");
}

TEST(SocketOptions, UdpWhereMBDynAllowsItIsNotImplementedElseAnError) {
  // Stream file driver: MBDyn receives datagrams on a socket it creates (udp implies `create, yes`).
  // Stream output: it sends them to the peer's socket (`create, no`, which must be given).
  // External force: on a socket it creates (`create, yes` must be given).
  struct Case {
    const SocketRules* rules;
    std::string args;
    bool accepted;
  };
  for (const Case& k : {Case{&kStreamDriver, "port, 9000, socket type, udp", true},
                        Case{&kStreamDriver, "create, no, socket type, udp", false},
                        Case{&kStreamOutput, "create, no, port, 9000, socket type, udp", true},
                        Case{&kStreamOutput, "port, 9000, socket type, udp", false},
                        Case{&kExternalForce, "create, yes, port, 9000, socket type, udp", true},
                        Case{&kExternalForce, "create, no, port, 9000, host, \"h\", socket type, udp", false}}) {
    SCOPED_TRACE(k.args);
    MemoryDeck d("x: " + k.args + ";");
    const auto at = k.args.find("socket type") + 4;  // column of `socket type`
    if (k.accepted) {
      EXPECT_EQ(read(d, *k.rules), std::nullopt);
      ASSERT_EQ(d.ctx.diagnostics().size(), 1u);
      EXPECT_EQ(d.ctx.diagnostics()[0].severity, "not implemented");
      EXPECT_EQ(d.ctx.diagnostics()[0].where.column, int(at));
    } else {
      EXPECT_EQ(error_of(k.args, *k.rules),
                fmt::format("test.mbd:1:{}: `socket type, udp` needs `create, {}`", at, k.rules->udp_create ? "yes" : "no"));
    }
  }
  MemoryDeck tcp("x: create, no, socket type, tcp;");
  EXPECT_FALSE(read(tcp, kStreamOutput)->udp);
  EXPECT_EQ(error_of("socket type, sctp", kStreamOutput), "test.mbd:1:17: expected `tcp` or `udp`, found \"sctp\"");
}

TEST(TextPrecision, MBDynsRangeForTheEchoAndTheExternalForces) {
  // MBDyn's ReadStreamDriveEcho refuses a precision <= 0, its ReadExtFileParams one < 0 (0: the
  // stream's default); neither has an upper bound.
  for (int p : {1, 17, 100, 2147483647}) {
    MemoryDeck echo("x: \"echo.txt\", precision, " + std::to_string(p) + ";");
    EXPECT_EQ(read_stream_echo(echo.card()).precision, p);
    MemoryDeck ext("x: " + std::to_string(p) + ";");
    EXPECT_EQ(read_text_precision(ext.card(), 0), p);
  }
  MemoryDeck zero("x: 0;");
  EXPECT_EQ(read_text_precision(zero.card(), 0), 0);
  auto error_at = [](const std::string& args, int lowest) {
    MemoryDeck d("x: " + args + ";");
    try {
      read_text_precision(d.card(), lowest);
    } catch (const parser::InputError& e) {
      return e.where().str() + ": " + e.message();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_at("0", 1), "test.mbd:1:4: expected a precision from 1 to 2147483647, found 0");
  EXPECT_EQ(error_at("-1", 0), "test.mbd:1:4: expected a precision from 0 to 2147483647, found -1");
}

}  // namespace
}  // namespace mbl::elements
