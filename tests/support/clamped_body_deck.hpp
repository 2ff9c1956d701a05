#pragma once
// The deck many element tests start from: a static node 1 at the origin held by a clamp (joint 1)
// and a 1 kg body (unit inertia) on a dynamic node 2 at x = 1; the test adds its own element(s).
#include <string>

namespace mbl::test {

/// `initial_value`: the contents of the initial value block; `control`: control data cards after
/// the counters of nodes and bodies (joints and the rest are the test's); `elements`: the test's
/// element cards.
inline std::string clamped_body_deck(const std::string& initial_value, const std::string& control,
                                     const std::string& elements) {
  return "\nbegin: data; problem: initial value; end: data;\n"
         "begin: initial value; " + initial_value + " end: initial value;\n"
         "begin: control data; structural nodes: 2; rigid bodies: 1; " + control + " end: control data;\n"
         "begin: nodes;\n"
         "  structural: 1, static, null, eye, null, null;\n"
         "  structural: 2, dynamic, 1., 0., 0., eye, null, null;\n"
         "end: nodes;\n"
         "begin: elements;\n"
         "  joint: 1, clamp, 1, node, node;\n"
         "  body: 2, 2, 1., null, eye;\n"
         "  " + elements + "\n"
         "end: elements;\n";
}

}  // namespace mbl::test
