#pragma once
// Where the tests find ../shared, the source tree and the program. The paths are compiled into one
// generated source per build folder (tests/CMakeLists.txt), not into every test's compile line, so a
// test's object file does not depend on where the checkout lies and ccache shares it between checkouts.
// MBL_SHARED_DIR, MBL_SOURCE_DIR and MBL_BINARY expand to these calls.
namespace mbl::test_paths {
const char* shared_dir();
const char* source_dir();
const char* binary();
}  // namespace mbl::test_paths
