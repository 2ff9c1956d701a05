#pragma once
// `<key>, <real>` parameters of the laws that name their arguments (input manual §2.10.31-2.10.35:
// `E, <E>, nu, <nu>`, `E0, <E0>`, ...).
#include <string>

#include <fmt/format.h>

#include "parser/card_reader.hpp"

namespace mbl::laws {

/// `<key>, <real>`, `what` naming the value in the error.
inline double keyed(parser::CardReader& in, const char* key, const char* what) {
  if (!in.keyword_is(key)) in.fail_expected(fmt::format("`{}, <{}>`", key, what));
  return in.real();
}

/// `<key>, <real>` with a value accepted by `ok` (described by `expected`).
template <class Pred>
double keyed(parser::CardReader& in, const char* key, const char* what, Pred ok, const std::string& expected) {
  if (!in.keyword_is(key)) in.fail_expected(fmt::format("`{}, <{}>`", key, what));
  return parser::checked_real(in, ok, expected);
}

/// `<key>, <positive real>`.
inline double keyed_positive(parser::CardReader& in, const char* key, const char* what) {
  return keyed(in, key, what, [](double v) { return v > 0.0; }, std::string("a positive ") + what);
}

}  // namespace mbl::laws
