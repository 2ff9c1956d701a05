// The table of MBDyn's kinds (mbdyn-like/core/mbdyn_kinds.*): it decides between "not
// implemented" and "unknown ...; did you mean ...?", so every kind a reader registers must be in it
// (a kind we read that MBDyn does not have would be a kind of our own).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"

namespace {

TEST(MbdynKinds, EveryRegisteredKindIsOneOfMbdyns) {
  const std::pair<const char*, const char*> registry_to_table[] = {
      {"node", "node"},   {"element", "element"}, {"unlabelled element", "element"}, {"joint", "joint"},
      {"genel", "genel"}, {"force type", "force"}, {"definition", "definition"},       {"driver", "driver"}};
  for (const auto& [registry, family] : registry_to_table)
    for (const std::string& keyword : mbl::CardRegistry::family(registry).keywords())
      EXPECT_NE(mbl::kinds::find(family, keyword), nullptr) << registry << " \"" << keyword << "\"";
}

TEST(MbdynKinds, FindIgnoresCaseAndBlanks) {
  const mbl::kinds::Kind* k = mbl::kinds::find("joint", "Revolute  PIN");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->section, "8.12.39");
  EXPECT_EQ(mbl::kinds::find("joint", "revolute pinn"), nullptr);
  EXPECT_TRUE(mbl::kinds::of("no such family").empty());
}

// MBDyn 2024's force reader knows `abstract internal` (the manual's "abstract reaction force",
// §8.8.3) and `modal` only: neither "abstract reaction" nor "modal internal" is a kind of MBDyn's.
TEST(MbdynKinds, ForceKindsAreThoseOfMbdynsReader) {
  const mbl::kinds::Kind* k = mbl::kinds::find("force", "abstract internal");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->section, "8.8.3");
  EXPECT_EQ(mbl::kinds::find("force", "abstract reaction"), nullptr);
  EXPECT_EQ(mbl::kinds::find("force", "modal internal"), nullptr);
}

TEST(MbdynKinds, SuggestsTheNearestSpellingOnlyWhenNear) {
  EXPECT_EQ(mbl::kinds::nearest("joint", "revolute pinn"), "revolute pin");
  EXPECT_EQ(mbl::kinds::nearest("drive caller", "cosnt"), "const");  // a swap of neighbours is one edit
  EXPECT_EQ(mbl::kinds::nearest("element", "bodyy"), "body");
  EXPECT_EQ(mbl::kinds::nearest("joint", "teleporter"), "");
  EXPECT_EQ(mbl::kinds::unknown_message("joint", "joint type", "revolute pinn"),
            "unknown joint type \"revolute pinn\"; did you mean \"revolute pin\"?");
  EXPECT_EQ(mbl::kinds::unknown_message("joint", "joint type", "teleporter"), "unknown joint type \"teleporter\"");
}

}  // namespace

namespace {

// Issue #30: the cards of MBDyn's control data block (DataManager::ReadControl) are one family:
// a card MBDyn reads there is known (reported as not implemented if we do not read it), a
// misspelling gets the nearest card, a card of another block is unknown.
TEST(MbdynKinds, ControlDataCardsAreThoseOfMbdynsReader) {
  for (const char* card : {"structural nodes", "rigid bodies", "file drivers", "default output", "read solution array",
                           "skip initial joint assembly", "output elements", "rotors"})
    EXPECT_NE(mbl::kinds::find("control data", card), nullptr) << card;
  for (const char* card : {"body", "joint", "initial time", "method", "all", "accelerations"})
    EXPECT_EQ(mbl::kinds::find("control data", card), nullptr) << card;
  EXPECT_EQ(mbl::kinds::unknown_message("control data", "control data card", "structural nodes2"),
            "unknown control data card \"structural nodes2\"; did you mean \"structural nodes\"?");
}

}  // namespace

namespace {

// Issue #30: the cards of the initial value block (Solver::ReadData) and of the inverse dynamics
// block (InverseSolver::ReadData) are families too: a misspelling is an input error with the
// nearest card, not "not implemented".
TEST(MbdynKinds, InitialValueCardsAreThoseOfMbdynsReaders) {
  for (const char* card : {"initial time", "final time", "time step", "dummy steps number", "fictitious steps ratio",
                           "derivatives coefficient", "eigenanalysis", "real time", "threads", "output meter"})
    EXPECT_NE(mbl::kinds::find("initial value", card), nullptr) << card;
  for (const char* card : {"structural nodes", "body", "default output", "problem type", "full residual test"})
    EXPECT_EQ(mbl::kinds::find("initial value", card), nullptr) << card;
  EXPECT_NE(mbl::kinds::find("inverse dynamics", "problem type"), nullptr);
  EXPECT_EQ(mbl::kinds::find("inverse dynamics", "eigenanalysis"), nullptr);
  EXPECT_EQ(mbl::kinds::unknown_message("initial value", "initial value card", "time stpe"),
            "unknown initial value card \"time stpe\"; did you mean \"time step\"?");
  EXPECT_EQ(mbl::kinds::unknown_message("initial value", "initial value card", "max iteration"),
            "unknown initial value card \"max iteration\"; did you mean \"max iterations\"?");
}

}  // namespace
