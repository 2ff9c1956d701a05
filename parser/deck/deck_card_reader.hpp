#pragma once
// The CardReader of a deck card: the lexed arguments of one card with their locations, read in
// order. Scalars are evaluated by the math parser; vectors, matrices, orientations and relative
// (`reference, ...`) specifications are built on top (deck_structures.cpp, deck_frames.cpp).
#include <memory>
#include <string>
#include <vector>

#include "parser/card_reader.hpp"
#include "parser/deck/card_lexer.hpp"
#include "parser/read_context.hpp"

namespace mbl::parser::deck {

/// Byte offset -> line:column for one source file (columns count UTF-8 characters).
class LineTable {
 public:
  explicit LineTable(std::shared_ptr<const SourceFile> file);
  SourceLocation at(std::size_t offset) const;
  const std::shared_ptr<const SourceFile>& file() const { return file_; }

 private:
  std::shared_ptr<const SourceFile> file_;
  std::vector<std::size_t> line_starts_;
  mutable std::size_t cached_line_ = 0, cached_offset_ = 0;
  mutable int cached_column_ = 1;
};

class DeckCardReader final : public CardReader {
 public:
  DeckCardReader(ReadContext& ctx, const LineTable& lines, const RawCard& raw);

  // the card
  std::string_view description() const override { return description_; }
  bool card_is(std::string_view words) const override;
  const SourceLocation& card_location() const override { return card_where_; }
  ReadContext& context() override { return ctx_; }

  // cursor
  bool at_end() const override { return next_ >= args_.size(); }
  std::size_t arguments_left() const override { return at_end() ? 0 : args_.size() - next_; }
  const SourceLocation& location() const override;
  std::string_view peek_text() const override;
  void expect_end() override;
  void skip_rest() override;

  // scalars
  bool keyword_is(std::string_view words) override;
  bool peek_keyword_is(std::string_view words) const override;
  std::string keyword() override;
  math::Value value() override;
  double real() override;
  std::int64_t integer() override;
  bool boolean() override;
  std::string string() override;
  unsigned label() override;
  std::shared_ptr<const math::Expression> expression() override;

  // vectors and matrices
  Vec3 vec3() override;
  Vec6 vec6() override;
  Mat3 mat3() override;
  Mat6 mat6() override;
  Eigen::MatrixXd mat6xn(int n) override;
  Mat3 orientation_matrix() override;

  // relative specifications
  Vec3 position(const RigidFrame& frame, const OtherSide* other = nullptr) override;
  Vec3 direction(const RigidFrame& frame, const OtherSide* other = nullptr) override;
  Vec3 direction_abs(const RigidFrame& node) override;
  Mat3 tensor(const RigidFrame& frame) override;
  Mat3 orientation(const RigidFrame& frame, const OtherSide* other = nullptr) override;
  Vec3 velocity(const RigidFrame& frame, const Vec3& x_point_W) override;
  Vec3 angular_velocity(const RigidFrame& frame) override;

  // diagnostics
  [[noreturn]] void fail_expected(std::string_view what) override;
  [[noreturn]] void fail(std::string_view message) override;
  void not_implemented(std::string_view what) override;
  void not_implemented(std::string_view what, const SourceLocation& at) override;

  // ---- for DeckReader ----
  /// True once every argument was read or the rest was skipped.
  bool finished() const { return skipped_ || at_end(); }
  /// Whole argument text after ':' (comments blanked) and where it starts (for `set:`).
  const std::string& args_text() const { return args_text_; }
  const SourceLocation& args_location() const { return args_where_; }
  /// The frame of a `reference:` card after its label (and name): position, orientation,
  /// velocity, angular velocity (each optionally relative to another reference), or the
  /// Denavit-Hartenberg form; resolved to global (§2.4.8).
  RigidFrame reference_frame();

 private:
  struct Arg {
    std::string text;
    SourceLocation where;
    char separator_after = ';';
  };
  /// Where the numbers of a relative specification are given: `frame` (no prefix, `node`,
  /// `local`), the global frame, a named reference, or the other node.
  struct GivenIn {
    RigidFrame frame;
    bool is_target = false;  ///< same frame as the caller's: numbers are returned unchanged
  };

  const Arg* peek() const { return at_end() ? nullptr : &args_[next_]; }
  const Arg& require(std::string_view what);  ///< the next argument or fail_expected(what)
  std::string found_text() const;              ///< "found ..." part of messages
  math::Value evaluate_current(std::string_view what);
  template <class M>
  M scaled(M m);
  int axis_index(std::string_view what);
  Vec3 three_reals();
  /// What is being read decides which `other ...` forms are meaningful (MBDyn's mbpar.cc).
  enum class Quantity { Position, Orientation, Other };
  GivenIn given_in(const RigidFrame& frame, const OtherSide* other, Quantity what = Quantity::Other);

  ReadContext& ctx_;
  std::string description_;
  SourceLocation card_where_, end_where_, args_where_;
  std::string args_text_;
  std::vector<Arg> args_;
  std::size_t next_ = 0;
  bool skipped_ = false;
  bool node_allowed_ = true;
};

}  // namespace mbl::parser::deck
