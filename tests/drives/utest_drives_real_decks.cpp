// The drive-related cards of the real decks (/work/shared/decks): every `drive caller:`,
// `template drive caller:` and `scalar function:` card reads; the drives of the drive-caller
// test decks reproduce the forces MBDyn wrote to their .frc files.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "drive_test_util.hpp"
#include "elements/drives/scalar_function.hpp"

namespace mbl::drives::test {
namespace {

namespace fs = std::filesystem;

const fs::path kDecks = fs::path(MBL_SHARED_DIR) / "decks";

bool is_drive_card(const parser::CardReader& c) {
  return c.card_is("drive caller") || c.card_is("template drive caller") ||
         c.card_is("scalar function");
}

void read_drive_card(parser::CardReader& c, DriveEnvironment& env) {
  if (c.card_is("drive caller"))
    read_drive_caller_card(c, env);
  else if (c.card_is("template drive caller"))
    read_template_drive_caller_card(c, env);
  else
    read_scalar_function_card(c);
}

/// Reads `force: L, absolute, N, position, <vec3>, <vec3>, <drive>;` and returns the drive.
DriveCallerPtr force_drive(parser::CardReader& c, DriveEnvironment& env) {
  c.label();
  EXPECT_TRUE(c.keyword_is("absolute"));
  c.label();
  EXPECT_TRUE(c.keyword_is("position"));
  c.vec3();
  c.vec3();
  auto d = read_drive_caller(c, env);
  c.expect_end();
  return d;
}

/// Reads `deck` card by card; force cards go to `on_force`, drive cards to our readers.
void read_deck(DriveDeck& k, const fs::path& deck,
               const std::function<void(parser::CardReader&)>& on_force = {}) {
  parser::DeckReader reader(deck.string(), k.ctx);
  while (parser::CardReader* c = reader.next_card()) {
    if (is_drive_card(*c))
      read_drive_card(*c, k.env);
    else if (on_force && c->card_is("force"))
      on_force(*c);
    else
      c->skip_rest();
  }
}

/// model:: functions of the model builder that decks call while being read (stubs here).
void add_model_stubs(DriveDeck& k) {
  k.math.register_function("model", "distance",
                           [](std::span<const math::Value>) { return math::Value(1.0); });
}

/// Column 5 (the z force) of element `label` in an .frc file, one entry per output step.
std::vector<double> frc_z(const fs::path& frc, unsigned label) {
  std::ifstream is(frc);
  std::vector<double> z;
  std::string line;
  while (std::getline(is, line)) {
    std::istringstream ls(line);
    unsigned l = 0, n = 0;
    double fx = 0, fy = 0, fz = 0;
    ls >> l >> n >> fx >> fy >> fz;
    if (l == label) z.push_back(fz);
  }
  return z;
}

TEST(DrivesRealDecks, EveryDriveCardReads) {
  int decks = 0, cards = 0;
  for (const auto& entry : fs::directory_iterator(kDecks)) {
    const fs::path dir = entry.path() / "deck";
    if (!fs::is_directory(dir)) continue;
    for (const auto& f : fs::directory_iterator(dir)) {
      std::ifstream is(f.path());
      std::stringstream ss;
      ss << is.rdbuf();
      const std::string text = ss.str();
      if (text.find("drive caller:") == std::string::npos &&
          text.find("scalar function:") == std::string::npos)
        continue;
      DriveDeck k;
      install_drive_math_functions(k.ctx, k.env);
      add_model_stubs(k);
      ++decks;
      try {
        parser::DeckReader reader(f.path().string(), k.ctx);
        while (parser::CardReader* c = reader.next_card()) {
          if (!is_drive_card(*c)) {
            c->skip_rest();
            continue;
          }
          const parser::SourceLocation at = c->card_location();
          try {
            read_drive_card(*c, k.env);
            ++cards;
          } catch (const parser::InputError& e) {
            ADD_FAILURE() << "drive card at " << at.str() << ": " << e.format();
          }
        }
      } catch (const parser::InputError& e) {
        // Cards that are not ours may still be unsupported by the deck reader; ours must not be
        // the cause.
        std::cerr << "note: " << f.path() << ": " << e.message() << "\n";
      }
    }
  }
  EXPECT_GE(decks, 7);  // 7 decks, 15 cards in the March 2024 set
  EXPECT_GE(cards, 15);
}

TEST(DrivesRealDecks, DiscreteFilterForce) {
  const fs::path dir = kDecks / "t.drives.drivecallers.discretefilter";
  DriveDeck k;
  std::vector<DriveCallerPtr> forces;
  read_deck(k, dir / "deck" / "discretefilter",
            [&](parser::CardReader& c) { forces.push_back(force_drive(c, k.env)); });
  ASSERT_EQ(forces.size(), 2u);
  const auto f1 = frc_z(dir / "mbdyn" / "discretefilter.frc", 1);
  const auto f2 = frc_z(dir / "mbdyn" / "discretefilter.frc", 2);
  ASSERT_GE(f2.size(), 1001u);
  const auto stateful = stateful_drives(k.ctx);
  double max_err = 0.0;
  for (int s = 0; s <= 1000; ++s) {
    const double t = s * 1e-3;
    k.set_time(t, 1e-3, s);
    max_err = std::max(max_err, std::abs(-forces[0]->value(t) - f1[s]));
    max_err = std::max(max_err, std::abs(-forces[1]->value(t) - f2[s]));
    for (auto& d : stateful) d->after_convergence(t);
  }
  EXPECT_LT(max_err, 1e-5);  // .frc has 7 significant digits, |f| <= 10
}

TEST(DrivesRealDecks, PeriodicForce) {
  const fs::path dir = kDecks / "t.drives.drivecallers.periodic";
  DriveDeck k;
  std::vector<DriveCallerPtr> forces;
  read_deck(k, dir / "deck" / "periodic",
            [&](parser::CardReader& c) { forces.push_back(force_drive(c, k.env)); });
  ASSERT_EQ(forces.size(), 1u);
  const auto f = frc_z(dir / "mbdyn" / "periodic.frc", 1);
  ASSERT_GE(f.size(), 2001u);
  double max_err = 0.0;
  for (int s = 0; s <= 2000; ++s) {
    const double t = s * 1e-2;
    k.set_time(t, 1e-2, s);
    max_err = std::max(max_err, std::abs(-forces[0]->value(t) - f[s]));
  }
  EXPECT_LT(max_err, 1e-6);
}

TEST(DrivesRealDecks, ScalarFunctionDeck) {
  // t.joints.rod.rodprestrain: `scalar function:` card, `scalar function, "name"` drive and
  // model::sf::name() in a string drive
  DriveDeck k;
  add_model_stubs(k);
  read_deck(k, kDecks / "t.joints.rod.rodprestrain" / "deck" / "rodprestrain");
  auto f = k.ctx.find_named<ScalarFunction>("scalar function", "scalar_drive");
  ASSERT_TRUE(f);
  auto d = k.drive("scalar function, \"scalar_drive\"");
  EXPECT_DOUBLE_EQ(d->value(-1.5), f->value(-1.5));
  EXPECT_DOUBLE_EQ(k.math.evaluate("model::sf::scalar_drive(-1.5)", {}).to_real(),
                   f->value(-1.5));
}

}  // namespace
}  // namespace mbl::drives::test
