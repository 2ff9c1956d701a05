// `lua` drive callers and `module load: "lua"` (docs/lua.md): values, identity with `string`
// drives, derivatives, and every error path (syntax, run time, shapes, NaN, sandbox, runaway).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "elements/drives/drive_reader.hpp"
#include "mbdyn-like/model/model_builder.hpp"
#include "scripting_test_util.hpp"

using namespace mbl;
using namespace mbl::test;
namespace fs = std::filesystem;

namespace {

class LuaDrives : public ::testing::Test {
 protected:
  static fs::path dir() {
    static const fs::path d = fresh_temp_dir("lua_drives");
    return d;
  }
};

/// Number of lines of a text file.
std::size_t line_count(const fs::path& p) {
  std::ifstream f(p);
  std::size_t n = 0;
  for (std::string line; std::getline(f, line);) ++n;
  return n;
}

/// The drive caller `label` of a deck read in memory.
DriveCallerPtr defined_drive(BuildResult& b, unsigned label) {
  return b.read_context->find_named<DriveCaller>("drive caller", std::to_string(label));
}

}  // namespace

// The issue's contract: a lua drive and the equivalent string drive write the same bytes.
TEST_F(LuaDrives, ExpressionGivesBitwiseTheSameOutputsAsTheStringDrive) {
  const DeckRun s = run_deck_text(dir(), "string", force_deck(R"(string, "0.1*sin(2*pi*Time) + K*Var")"));
  const DeckRun l = run_deck_text(dir(), "lua", force_deck(R"(lua, "0.1*math.sin(2*math.pi*Time) + K*Var")"));
  ASSERT_EQ(s.exit_code, 0) << s.messages;
  ASSERT_EQ(l.exit_code, 0) << l.messages;
  for (const char* ext : {".mov", ".frc", ".out"}) {
    const std::string a = read_file(s.prefix.string() + ext), b = read_file(l.prefix.string() + ext);
    EXPECT_FALSE(a.empty()) << ext;
    EXPECT_EQ(a, b) << ext;
  }
}

// `lua, function, "<name>"` of a file loaded relative to the deck, between blocks.
TEST_F(LuaDrives, FunctionOfAFileLoadedBetweenBlocksEqualsTheStringDrive) {
  fs::create_directories(dir() / "scripts");
  std::ofstream(dir() / "scripts" / "push.lua") << "-- a force growing linearly\nfunction push(t)\n  return 3*t + K\nend\n";
  const DeckRun s = run_deck_text(dir(), "push_string", force_deck(R"(string, "3*Time + K")"));
  const DeckRun l = run_deck_text(dir(), "push_lua",
                                  force_deck(R"(lua, function, "push")", R"(module load: "lua", file, "scripts/push.lua";)"));
  ASSERT_EQ(s.exit_code, 0) << s.messages;
  ASSERT_EQ(l.exit_code, 0) << l.messages;
  EXPECT_EQ(read_file(s.prefix.string() + ".mov"), read_file(l.prefix.string() + ".mov"));
}

// Value and derivative of both forms; module load is accepted inside the data and control blocks.
TEST(LuaDriveValues, FunctionDerivativeAndExpressionDifferenceQuotient) {
  BuildResult b = read_deck_text("lua.mbd", R"D(
begin: data;
	problem: initial value;
	module load: "lua", chunk, "function f(t) return t^3 end function df(t) return 3*t^2 end";
end: data;
begin: initial value;
	initial time: 0.; final time: 1.; time step: 1.e-2;
end: initial value;
begin: control data;
	module load: "lua", chunk, "g = function(t) return 2*t end";
	drive caller: 1, lua, function, "f", derivative, "df";
	drive caller: 2, lua, function, "g";
	drive caller: 3, lua, "math.sin(Time)";
end: control data;
begin: nodes;
end: nodes;
begin: elements;
end: elements;
)D");
  b.model->set_time(0.7, 1e-2, 70);
  const DriveCallerPtr f = defined_drive(b, 1), g = defined_drive(b, 2), s = defined_drive(b, 3);
  EXPECT_DOUBLE_EQ(f->value(2.0), 8.0);
  EXPECT_DOUBLE_EQ(f->derivative(2.0), 12.0);
  EXPECT_NEAR(g->derivative(5.0), 2.0, 1e-8);
  EXPECT_DOUBLE_EQ(s->value(0.7), std::sin(0.7));
  EXPECT_NEAR(s->derivative(0.7), std::cos(0.7), 1e-8);  // Time shifted with the input
  EXPECT_EQ(s->describe(), "lua, \"math.sin(Time)\"");
}

TEST_F(LuaDrives, SyntaxErrorIsAnInputErrorAtTheCardWithTheLuaLine) {
  const DeckRun e = run_deck_text(dir(), "syntax_expr", force_deck(R"(lua, "math.sin(Time")"));
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_NE(e.messages.find("syntax_expr.mbd:23:58: error: Lua syntax error: lua drive:1:"), std::string::npos)
      << e.messages;
  const DeckRun c = run_deck_text(dir(), "syntax_chunk", force_deck("1.", "module load: \"lua\",\n chunk, \"x = 1\ny = = 2\";"));
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.messages.find("syntax_chunk.mbd:21:9: error: Lua syntax error: chunk:2:"), std::string::npos)
      << c.messages;
}

TEST_F(LuaDrives, RunTimeErrorStopsWithTracebackLocationAndValidOutputs) {
  const DeckRun e = run_deck_text(
      dir(), "runtime", force_deck(R"(lua, function, "f")", R"(module load: "lua", chunk, "
function f(t)
  if t > 0.5 then error('too late') end
  return t
end";)"));
  EXPECT_EQ(e.exit_code, 3);
  EXPECT_NE(e.messages.find("runtime.mbd:27:68: Lua error in drive: chunk:3: too late"), std::string::npos)
      << e.messages;
  EXPECT_NE(e.messages.find("stack traceback:"), std::string::npos);
  EXPECT_NE(e.messages.find("outputs are complete up to time 0.49 (step 49)"), std::string::npos) << e.messages;
  EXPECT_EQ(line_count(e.prefix.string() + ".mov"), 50u);  // the initial record and 49 steps
}

TEST_F(LuaDrives, WrongResultsAreErrorsThatSayWhat) {
  const DeckRun n = run_deck_text(dir(), "nil", force_deck(R"(lua, "nil")"));
  EXPECT_EQ(n.exit_code, 3);
  EXPECT_NE(n.messages.find("Lua drive returned nil instead of a number"), std::string::npos) << n.messages;
  const DeckRun t = run_deck_text(dir(), "table", force_deck(R"(lua, "{1, 2}")"));
  EXPECT_EQ(t.exit_code, 3);
  EXPECT_NE(t.messages.find("returned table instead of a number"), std::string::npos) << t.messages;
  const DeckRun nan = run_deck_text(dir(), "nan", force_deck(R"(lua, "0/0")"));
  EXPECT_EQ(nan.exit_code, 3);
  EXPECT_NE(nan.messages.find("Lua drive returned NaN"), std::string::npos) << nan.messages;
}

// io, os, package, require, dofile, loadfile are absent; load takes text chunks only.
TEST_F(LuaDrives, SandboxHidesFilesAndProcessesUnlessUnsafe) {
  for (const char* name : {"io", "os", "package", "require", "dofile", "loadfile"}) {
    const DeckRun r = run_deck_text(dir(), std::string("sandbox_") + name,
                                    force_deck(std::string("lua, \"") + name + " == nil and 1 or 0\""));
    ASSERT_EQ(r.exit_code, 0) << r.messages;
    EXPECT_NE(read_file(r.prefix.string() + ".frc").find(" 1.000000e+00"), std::string::npos) << name;
  }
  const DeckRun bin = run_deck_text(
      dir(), "sandbox_binary", force_deck("1.", R"D(module load: "lua", chunk, "assert(load(string.dump(function() end)) == nil)";)D"));
  EXPECT_EQ(bin.exit_code, 0) << bin.messages;
  const DeckRun io = run_deck_text(dir(), "sandbox_io", force_deck(R"(lua, "io.write('x') and 1")"));
  EXPECT_EQ(io.exit_code, 3);
  EXPECT_NE(io.messages.find("global 'io'"), std::string::npos) << io.messages;
  // The sandbox says what it withholds and how to allow it (issue #30).
  EXPECT_NE(io.messages.find("(global 'io'): `io` is withheld by the Lua sandbox; run mbdyn-like with --lua-unsafe"),
            std::string::npos)
      << io.messages;
  const DeckRun open = run_deck_text(dir(), "sandbox_open", force_deck("1.", R"D(module load: "lua", chunk, "local f = io.open('x')";)D"));
  EXPECT_EQ(open.exit_code, 2);
  EXPECT_NE(open.messages.find("`io` is withheld by the Lua sandbox; run mbdyn-like with --lua-unsafe to allow it"),
            std::string::npos)
      << open.messages;
  const DeckRun req = run_deck_text(dir(), "sandbox_require", force_deck(R"D(lua, "require('socket') and 1")D"));
  EXPECT_EQ(req.exit_code, 3);
  EXPECT_NE(req.messages.find("`require` is withheld by the Lua sandbox"), std::string::npos) << req.messages;
  const DeckRun os = run_deck_text(dir(), "sandbox_os", force_deck(R"D(lua, "os.clock()")D"));
  EXPECT_EQ(os.exit_code, 3);
  EXPECT_NE(os.messages.find("`os` is withheld by the Lua sandbox"), std::string::npos) << os.messages;
  const DeckRun unsafe = run_deck_text(dir(), "unsafe", force_deck(R"(lua, "os.time() > 0 and 1 or 0")"), "--lua-unsafe");
  EXPECT_EQ(unsafe.exit_code, 0) << unsafe.messages;
}

TEST_F(LuaDrives, RunawayLoopIsStoppedByTheInstructionLimit) {
  const DeckRun r = run_deck_text(dir(), "runaway", force_deck(R"(lua, function, "spin")",
                                                               R"(module load: "lua", max instructions, 100000,
	chunk, "function spin(t) while true do end end";)"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.messages.find("instruction limit exceeded"), std::string::npos) << r.messages;
  const DeckRun load = run_deck_text(dir(), "runaway_load", force_deck("1.", R"(module load: "lua", max instructions, 100000, chunk, "while true do end";)"));
  EXPECT_EQ(load.exit_code, 2);
  EXPECT_NE(load.messages.find("instruction limit exceeded"), std::string::npos) << load.messages;
}

// A loop of library calls runs few Lua instructions: the wall-time budget stops it (issue #30).
TEST_F(LuaDrives, LibraryCallsInALoopAreStoppedByTheTimeLimit) {
  const DeckRun r = run_deck_text(dir(), "runaway_rep", force_deck(R"(lua, function, "grow")",
                                                                   R"(module load: "lua", max seconds, 0.3,
	chunk, "function grow(t) while true do local s = string.rep('x', 100000) end end";)"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.messages.find("time limit of 0.3 s exceeded"), std::string::npos) << r.messages;
  EXPECT_NE(r.messages.find("max seconds"), std::string::npos) << r.messages;
  const DeckRun bad = run_deck_text(dir(), "bad_seconds", force_deck("1.", R"(module load: "lua", max seconds, 0.;)"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.messages.find("error: expected a positive time"), std::string::npos) << bad.messages;
}

// The state's allocator refuses blocks past the memory budget; Lua's "not enough memory" names it.
TEST_F(LuaDrives, MemoryBeyondTheBudgetIsRefused) {
  const DeckRun r = run_deck_text(dir(), "hog", force_deck(R"(lua, function, "hog")",
                                                           R"(module load: "lua", max memory, 16,
	chunk, "function hog(t) local keep = {} for i = 1, 1e9 do keep[i] = string.rep('x', 4096) .. i end end";)"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.messages.find("not enough memory"), std::string::npos) << r.messages;
  EXPECT_NE(r.messages.find("the Lua memory budget of 16 MB is used up"), std::string::npos) << r.messages;
  // One block larger than the budget, while the chunk is loaded.
  const DeckRun big = run_deck_text(dir(), "hog_load", force_deck("1.", R"D(module load: "lua", max memory, 8, chunk, "local s = string.rep('x', 1e8)";)D"));
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.messages.find("the Lua memory budget of 8 MB is used up"), std::string::npos) << big.messages;
}

TEST_F(LuaDrives, OtherModulesAreNotImplementedAtTheirName) {
  const DeckRun r = run_deck_text(dir(), "module", force_deck("1.", R"(module load: "libmodule-foo";)"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.messages.find("module.mbd:20:14: not implemented: run-time module \"libmodule-foo\""), std::string::npos)
      << r.messages;
}

TEST_F(LuaDrives, UnknownFunctionIsAnInputError) {
  const DeckRun r = run_deck_text(dir(), "nofunction", force_deck(R"(lua, function, "nothere")"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.messages.find("nofunction.mbd:23:68: error: expected the name of a Lua function"), std::string::npos)
      << r.messages;
}
