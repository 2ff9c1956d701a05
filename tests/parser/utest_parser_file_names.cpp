// File names expanded as MBDyn's GetFileName (resolve_filename, libmbutil/parsinc.cc): $NAME,
// ${NAME}, $$ and a leading ~, with the variables a `setenv:` card set earlier in the deck.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "parser/file_name.hpp"
#include "support/run_program.hpp"

using mbl::parser::expand_file_name;

TEST(FileNames, EnvironmentVariablesAsMBDynExpandsThem) {
  ::setenv("MBL_FN_A", "alpha", 1);
  ::setenv("MBL_FN_B", "/tmp/b dir", 1);
  EXPECT_EQ(expand_file_name("$MBL_FN_A.dat").name, "alpha.dat");  // '.' ends the name
  EXPECT_EQ(expand_file_name("${MBL_FN_A}x/y").name, "alphax/y");
  EXPECT_EQ(expand_file_name("$MBL_FN_B/$MBL_FN_A").name, "/tmp/b dir/alpha");
  EXPECT_EQ(expand_file_name("cost$$5").name, "cost$5");  // "$$" is one '$'
  EXPECT_EQ(expand_file_name("no/variables").name, "no/variables");
  EXPECT_EQ(expand_file_name("$MBL_FN_A_2").error, "environment variable \"MBL_FN_A_2\" is not set");
  EXPECT_FALSE(expand_file_name("${MBL_FN_A").error.empty());  // missing '}'
  EXPECT_FALSE(expand_file_name("a$1b").error.empty());        // a name starts with a letter or '_'
  EXPECT_FALSE(expand_file_name("end$").error.empty());
  ::unsetenv("MBL_FN_A");
  ::unsetenv("MBL_FN_B");
}

TEST(FileNames, HomeAfterTheVariables) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(expand_file_name("~/x.fem").name, std::string(home) + "/x.fem");
  ::setenv("MBL_FN_T", "~", 1);  // MBDyn expands the variables first, then the leading ~
  EXPECT_EQ(expand_file_name("$MBL_FN_T/y").name, std::string(home) + "/y");
  ::unsetenv("MBL_FN_T");
  EXPECT_EQ(expand_file_name("~root/z").name, "/root/z");
  EXPECT_EQ(expand_file_name("~no_such_user_mbl/z").name, "~no_such_user_mbl/z");  // left as given
  EXPECT_EQ(expand_file_name("a~/b").name, "a~/b");
}

TEST(FileNames, SetenvThenIncludeAndFileDriver) {
  namespace fs = std::filesystem;
  const fs::path dir = mbl::test::fresh_temp_dir("file_names");
  fs::create_directories(dir / "parts");
  std::ofstream(dir / "parts" / "nodes.inc") << "structural: 1, static, null, eye, null, null;\n";
  std::ofstream(dir / "parts" / "values.dat") << "0. 1.\n1. 2.\n2. 3.\n3. 4.\n";
  const std::string deck = R"(
setenv: "MBL_FN_PARTS=)" + (dir / "parts").string() + R"(";
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 2.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; joints: 1; file drivers: 1; end: control data;
begin: nodes;
  include: "$MBL_FN_PARTS/nodes.inc";
end: nodes;
begin: drivers;
  file: 1, fixed step, 4, 2, 0., 1., "${MBL_FN_PARTS}/values.dat";
end: drivers;
begin: elements;
  joint: 1, clamp, 1, node, node;
end: elements;
)";
  std::ofstream(dir / "deck") << deck;
  EXPECT_EQ(mbl::test::run_deck(dir / "deck", dir / "run", dir / "log"), 0) << mbl::test::read_file(dir / "log");

  // An unset variable is an input error at the name (MBDyn refuses the name too).
  std::ofstream(dir / "bad") << R"(
begin: data; problem: initial value; end: data;
begin: initial value; initial time: 0.; final time: 1.e-3; time step: 1.e-3; end: initial value;
begin: control data; structural nodes: 1; end: control data;
begin: nodes;
  include: "$MBL_FN_NOT_SET_ANYWHERE/nodes.inc";
end: nodes;
)";
  EXPECT_EQ(mbl::test::run_deck(dir / "bad", dir / "run2", dir / "log2"), 2);
  const std::string log = mbl::test::read_file(dir / "log2");
  EXPECT_NE(log.find("bad:6:12: error: expected a file name, found \"$MBL_FN_NOT_SET_ANYWHERE/nodes.inc\" "
                     "(environment variable \"MBL_FN_NOT_SET_ANYWHERE\" is not set)"),
            std::string::npos)
      << log;
  fs::remove_all(dir);
}
