// Boost's assertions in the sanitized build (build-fuzz/, tests/fuzz/targets/run_fuzz.sh): that build
// keeps NDEBUG as the program does, but compiles the parser with BOOST_ENABLE_ASSERT_HANDLER, so
// Boost.Spirit's own checks (a character class given a byte it cannot classify, ...) still stop
// the unit suite and the fuzzers there. Empty in every other build.
#ifdef BOOST_ENABLE_ASSERT_HANDLER
#include <cstdio>
#include <cstdlib>

namespace boost {

[[noreturn]] void assertion_failed_msg(char const* expr, char const* msg, char const* function, char const* file,
                                       long line) {
  std::fprintf(stderr, "%s:%ld: %s: Boost assertion '%s' failed%s%s\n", file, line, function, expr, msg ? ": " : "",
               msg ? msg : "");
  std::abort();
}

[[noreturn]] void assertion_failed(char const* expr, char const* function, char const* file, long line) {
  assertion_failed_msg(expr, nullptr, function, file, line);
}

}  // namespace boost
#endif
