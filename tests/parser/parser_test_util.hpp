#pragma once
// Helpers shared by the deck front-end tests.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/read_context.hpp"

namespace mbl::parser::test {

/// A deck in memory with its own math environment and read context.
struct MemoryDeck {
  explicit MemoryDeck(std::string text, std::string name = "test.mbd")
      : ctx(math), reader(std::move(name), std::move(text), ctx) {}
  CardReader& card() {
    CardReader* c = reader.next_card();
    if (!c) throw std::runtime_error("no more cards");
    return *c;
  }
  math::MathParser math;
  ReadContext ctx;
  DeckReader reader;
};

/// Descriptions of all cards (arguments skipped).
inline std::vector<std::string> descriptions(const std::string& text) {
  MemoryDeck d(text);
  std::vector<std::string> out;
  while (CardReader* c = d.reader.next_card()) {
    out.emplace_back(c->description());
    c->skip_rest();
  }
  return out;
}

/// The error thrown while reading `text` card by card with `read` (default: skip every card).
template <class Read>
std::optional<InputError> error_of(const std::string& text, Read read) {
  try {
    MemoryDeck d(text);
    while (CardReader* c = d.reader.next_card()) read(*c);
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}
inline std::optional<InputError> error_of(const std::string& text) {
  return error_of(text, [](CardReader& c) { c.skip_rest(); });
}

/// Matrices (any size) equal within `tol`; each side is evaluated once.
#define EXPECT_MAT_NEAR(a, b, tol)                                            \
  do {                                                                        \
    const Eigen::MatrixXd a_ = (a), b_ = (b);                                 \
    EXPECT_LT((a_ - b_).cwiseAbs().maxCoeff(), tol) << a_ << "\n!=\n" << b_; \
  } while (0)

#define EXPECT_INPUT_ERROR(err_opt, substring, line_, column_)                     \
  do {                                                                             \
    const auto& e_ = (err_opt);                                                    \
    ASSERT_TRUE(e_.has_value()) << "no error";                                     \
    EXPECT_NE(e_->message().find(substring), std::string::npos) << e_->message();  \
    EXPECT_EQ(e_->where().line, line_) << e_->format();                            \
    EXPECT_EQ(e_->where().column, column_) << e_->format();                        \
  } while (0)

}  // namespace mbl::parser::test
