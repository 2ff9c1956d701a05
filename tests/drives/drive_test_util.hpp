#pragma once
// Shared helpers of the drive tests: an in-memory deck, the drive environment, and a central
// finite-difference check of drive derivatives.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "elements/drives/drive_reader.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/read_context.hpp"

namespace mbl::drives::test {

struct DriveDeck {
  math::MathParser math;
  parser::ReadContext ctx{math};
  DriveEnvironment env;
  std::unique_ptr<parser::DeckReader> deck;

  DriveDeck() {
    env.math = &math;
    set_time(0.0, 1e-3, 0);
  }

  /// Starts reading `text` (cards) from memory.
  void open(std::string text) {
    deck = std::make_unique<parser::DeckReader>("test.mbd", std::move(text), ctx);
  }
  parser::CardReader& next() {
    parser::CardReader* c = deck->next_card();
    if (!c) throw std::runtime_error("no more cards");
    return *c;
  }
  /// Reads `<drive_caller>` from the card "x: <text>;".
  DriveCallerPtr drive(const std::string& text) {
    open("x: " + text + ";");
    parser::CardReader& c = next();
    DriveCallerPtr d = read_drive_caller(c, env);
    c.expect_end();
    return d;
  }
  /// Reads a whole deck of definition cards with `handle(card)` deciding what each one is.
  template <class F>
  void read_cards(std::string text, F handle) {
    open(std::move(text));
    while (parser::CardReader* c = deck->next_card()) handle(*c);
  }
  void set_time(double t, double dt, long step) {
    env.time = t;
    env.time_step = dt;
    env.step = step;
    math.set_variable("Time", math::Value(t));
    math.set_variable("TimeStep", math::Value(dt));
    math.set_variable("Step", math::Value(std::int64_t(step)));
  }
};

/// Central difference of d at t against its derivative().
inline void expect_derivative(const DriveCaller& d, double t, double tol = 1e-6,
                              double h = 1e-6) {
  ASSERT_TRUE(d.has_derivative()) << d.describe();
  const double fd = (d.value(t + h) - d.value(t - h)) / (2.0 * h);
  EXPECT_NEAR(d.derivative(t), fd, tol * std::max(1.0, std::abs(fd))) << d.describe() << " at t=" << t;
}

/// Runs `f` and returns the InputError it throws (fails the test if none).
template <class F>
parser::InputError input_error(F f) {
  try {
    f();
  } catch (const parser::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError thrown";
  return parser::InputError({}, "");
}

}  // namespace mbl::drives::test
