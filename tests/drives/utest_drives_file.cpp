// File drivers (manual chapter 7.1) reading small temporary files, and the `file` drive caller.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "drive_test_util.hpp"
#include "elements/drives/file_driver.hpp"
#include "parser/math/math_parser.hpp"
#include "support/run_program.hpp"

namespace mbl::drives::test {
namespace {

namespace fs = std::filesystem;

class DrivesFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::mbl::test::fresh_temp_dir(std::string("drives_") +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  void drivers(DriveDeck& k, const std::string& cards) {
    k.read_cards(cards, [&](parser::CardReader& c) {
      if (c.card_is("file")) read_file_driver_card(c, k.env);
      else c.skip_rest();
    });
  }
  fs::path dir_;
};

TEST_F(DrivesFile, FixedStepLinearAndPadding) {
  const auto path = write("input.dat",
                          "# two channels\n"
                          "# initial time: 1.\n"
                          "# time step: 0.5\n"
                          "  1.  10.\n"
                          "  2.  20.\n"
                          "  4.  40.\n");
  DriveDeck k;
  drivers(k, "begin: drivers;\n"
             "file: 100, fixed step, 3, 2, 0., 0.5, \"" + path + "\";\n"
             "file: 200, fixed step, count, 2, initial time, from file, time step, from file,\n"
             "  interpolation, const, pad zeroes, no, \"" + path + "\";\n"
             "end: drivers;");
  auto c1 = k.drive("file, 100");
  auto c2 = k.drive("file, 100, 2, amplitude, 0.1");
  EXPECT_DOUBLE_EQ(c1->value(0.0), 1.0);
  EXPECT_DOUBLE_EQ(c1->value(0.25), 1.5);
  EXPECT_DOUBLE_EQ(c1->value(0.75), 3.0);
  EXPECT_DOUBLE_EQ(c1->value(1.0), 4.0);
  EXPECT_DOUBLE_EQ(c1->value(1.5), 0.0);  // out of range: zeroes by default
  EXPECT_DOUBLE_EQ(c1->value(-0.1), 0.0);
  EXPECT_DOUBLE_EQ(c1->derivative(0.25), 2.0);
  EXPECT_DOUBLE_EQ(c2->value(0.75), 3.0);
  // from file: t0 = 1, dt = 0.5; const interpolation; ends held
  auto h = k.drive("file, 200, 1");
  EXPECT_DOUBLE_EQ(h->value(1.4), 1.0);
  EXPECT_DOUBLE_EQ(h->value(1.6), 2.0);
  EXPECT_DOUBLE_EQ(h->value(0.0), 1.0);
  EXPECT_DOUBLE_EQ(h->value(9.0), 4.0);
  EXPECT_DOUBLE_EQ(h->derivative(1.6), 0.0);
}

TEST_F(DrivesFile, VariableStepAndBailout) {
  write("vs.dat",
        "# time ch1\n"
        "0.   0.\n"
        "0.1  1.\n"
        "0.4  -2.\n");
  DriveDeck k;
  // relative names are looked up next to the deck (here the deck has no directory: absolute)
  drivers(k, "file: 1, variable step, 1, bailout, upper, \"" + (dir_ / "vs.dat").string() + "\";");
  auto d = k.drive("file, 1");
  EXPECT_DOUBLE_EQ(d->value(0.05), 0.5);
  EXPECT_NEAR(d->value(0.3), -1.0, 1e-14);
  EXPECT_DOUBLE_EQ(d->derivative(0.3), -10.0);
  EXPECT_DOUBLE_EQ(d->value(-1.0), 0.0);  // lower: padded
  // upper: bailout halts the simulation successfully, as MBDyn's does
  try {
    d->value(0.5);
    ADD_FAILURE() << "no bailout";
  } catch (const mbl::math::StopRequest& stop) {
    EXPECT_EQ(stop.exit_code, 0);
    EXPECT_NE(std::string(stop.what()).find("bailout"), std::string::npos) << stop.what();
  }
}

TEST_F(DrivesFile, RelativePathFromDeckFile) {
  write("data.dat", "5.\n6.\n");
  const auto deck = write("model.mbd", "file: 3, fixed step, 2, 1, 0., 1., \"data.dat\";\n");
  DriveDeck k;
  parser::DeckReader reader(deck, k.ctx);
  read_file_driver_card(*reader.next_card(), k.env);
  EXPECT_DOUBLE_EQ(k.drive("file, 3")->value(0.5), 5.5);
}

TEST_F(DrivesFile, Errors) {
  const auto path = write("bad.dat", "1. 2.\n3. x\n");
  DriveDeck k;
  auto e = input_error([&] { drivers(k, "file: 1, variable step, 1, \"" + path + "\";"); });
  EXPECT_NE(e.message().find("bad.dat:2: expected a number, found \"x\""), std::string::npos);
  EXPECT_EQ(e.where().column, 28);
  auto missing = input_error([&] { drivers(k, "file: 2, fixed step, 2, 1, 0., 1., \"nope.dat\";"); });
  EXPECT_NE(missing.message().find("cannot open"), std::string::npos);
  const auto short_path = write("short.dat", "1.\n2.\n");
  auto count = input_error(
      [&] { drivers(k, "file: 3, fixed step, 5, 1, 0., 1., \"" + short_path + "\";"); });
  EXPECT_NE(count.message().find("has 2 records, 5 were declared"), std::string::npos);
  auto undefined = input_error([&] { k.drive("file, 42"); });
  EXPECT_NE(undefined.message().find("file driver 42 is not defined"), std::string::npos);
  drivers(k, "file: 4, fixed step, 2, 1, 0., 1., \"" + short_path + "\";");
  auto column = input_error([&] { k.drive("file, 4, 2"); });
  EXPECT_NE(column.message().find("expected a column in [1, 1]"), std::string::npos);
  auto from_file = input_error([&] {
    drivers(k, "file: 5, fixed step, 2, 1, from file, 1., \"" + short_path + "\";");
  });
  EXPECT_NE(from_file.message().find("no `# initial time: ...` comment"), std::string::npos);
}

}  // namespace
}  // namespace mbl::drives::test
