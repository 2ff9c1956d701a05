// `include:` (input manual §2.4.5) with temporary files: relative paths, nesting, cycles, missing files.
#include <filesystem>
#include <fstream>

#include "tests/parser/parser_test_util.hpp"
#include "support/run_program.hpp"

namespace mbl::parser::test {
namespace {

namespace fs = std::filesystem;

class IncludeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::mbl::test::fresh_temp_dir(std::string("include_") +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "sub");
  }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  std::optional<InputError> read_all(const std::string& main, std::vector<std::string>* seen = nullptr) {
    try {
      math::MathParser math;
      ReadContext ctx(math);
      DeckReader reader(main, ctx);
      while (CardReader* c = reader.next_card()) {
        if (seen) seen->push_back(std::string(c->description()) + "@" +
                                  fs::path(c->card_location().file->path).filename().string() + ":" +
                                  std::to_string(c->card_location().line));
        c->skip_rest();
      }
    } catch (const InputError& e) {
      return e;
    }
    return std::nullopt;
  }
  fs::path dir_;
};

TEST_F(IncludeTest, RelativeToTheIncludingFileAndNested) {
  write("sub/a.inc", "set: real A = 2.;\ninclude: \"b.inc\";\na;\n");
  write("sub/b.inc", "\nb: 1;\n");
  const std::string main = write("main.mbd", "first;\ninclude: \"sub/a.inc\";\nlast: A;\n");
  std::vector<std::string> seen;
  EXPECT_FALSE(read_all(main, &seen));
  EXPECT_EQ(seen, (std::vector<std::string>{"first@main.mbd:1", "b@b.inc:2", "a@a.inc:3",
                                            "last@main.mbd:3"}));
}

TEST_F(IncludeTest, SameFileMayBeIncludedTwice) {
  write("part.inc", "p;\n");
  const std::string main = write("main.mbd", "include: \"part.inc\"; include: \"part.inc\";");
  std::vector<std::string> seen;
  EXPECT_FALSE(read_all(main, &seen));
  EXPECT_EQ(seen.size(), 2u);
}

TEST_F(IncludeTest, CycleIsReportedWithTheChain) {
  write("c1.inc", "x;\ninclude: \"sub/c2.inc\";\n");
  write("sub/c2.inc", "  include: \"../c1.inc\";\n");
  const std::string main = write("main.mbd", "include: \"c1.inc\";\n");
  auto e = read_all(main);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("include cycle: "), std::string::npos) << e->message();
  EXPECT_NE(e->message().find("c1.inc -> "), std::string::npos) << e->message();
  EXPECT_NE(e->message().find("c2.inc -> "), std::string::npos) << e->message();
  EXPECT_EQ(e->where().line, 1);
  EXPECT_EQ(e->where().column, 12);
  EXPECT_NE(e->where().file->path.find("c2.inc"), std::string::npos);
  // the diagnostic shows where each file was included from
  const std::string f = e->format();
  EXPECT_NE(f.find("included from"), std::string::npos) << f;
  EXPECT_NE(f.find("main.mbd:1:10"), std::string::npos) << f;
}

TEST_F(IncludeTest, SelfInclusionIsACycle) {
  const std::string main = write("main.mbd", "include: \"main.mbd\";\n");
  auto e = read_all(main);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("include cycle"), std::string::npos);
}

TEST_F(IncludeTest, MissingFileIsReportedAtTheIncludeCard) {
  const std::string main = write("main.mbd", "a;\n  include : \"nowhere.inc\" ;\n");
  auto e = read_all(main);
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("cannot include"), std::string::npos) << e->message();
  EXPECT_NE(e->message().find("nowhere.inc"), std::string::npos) << e->message();
  EXPECT_EQ(e->where().line, 2);
  EXPECT_EQ(e->where().column, 13);
}

TEST_F(IncludeTest, ErrorInsideIncludedFileNamesItsFile) {
  write("bad.inc", "ok;\nbad: (1;\n");
  const std::string main = write("main.mbd", "include: \"bad.inc\";\n");
  auto e = read_all(main);
  ASSERT_TRUE(e);
  EXPECT_NE(e->where().file->path.find("bad.inc"), std::string::npos);
  EXPECT_EQ(e->where().line, 2);
  EXPECT_EQ(e->where().column, 6);
}

TEST_F(IncludeTest, MissingMainDeck) {
  try {
    math::MathParser math;
    ReadContext ctx(math);
    DeckReader reader((dir_ / "absent.mbd").string(), ctx);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("cannot read the deck"), std::string::npos);
    EXPECT_EQ(e.where().line, 0);
  }
}

}  // namespace
}  // namespace mbl::parser::test
