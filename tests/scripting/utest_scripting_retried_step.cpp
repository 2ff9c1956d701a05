// A Lua element's state table (docs/lua.md: f(t, nodes, state), `after convergence` commits into
// it) is given back when a step is abandoned (LuaUserElement::save_step_state/restore_step_state):
// a step that fails at its end, after its earlier ESDIRK stages converged and committed, retried
// as two half steps, must give bit for bit what a run that took the half steps from the start
// gives (tests/support/retried_step.hpp). It fails without the restore.
#include <gtest/gtest.h>

#include "support/retried_step.hpp"

namespace {

// A 1 kg body on a spring whose anchor follows the body's position through a first-order filter
// kept in the state table (a number, and a nested table of the last two converged times changed
// in place: a shallow copy would share it); a force along x keeps it moving.
const std::string kLuaStateDeck = std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
	structural nodes: 1;
	rigid bodies: 1;
	forces: 1;
	user defined elements: 1;
end: control data;
module load: "lua", chunk, "
  function spring(t, n, state)
    local anchor = state.anchor or 0
    local F = {-40*(n[1].X[1] - anchor), -40*n[1].X[2], -40*n[1].X[3]}
    if state.times then F[2] = F[2] + 0.1*(state.times[1] - state.times[2]) end
    return {{F = F}}
  end
  function commit(t, n, state)
    state.anchor = 0.7*(state.anchor or 0) + 0.3*n[1].X[1]
    state.times = state.times or {0, 0}
    state.times[2], state.times[1] = state.times[1], t
  end
";
begin: nodes;
	structural: 1, dynamic, 0.1, 0., 0., eye, 0., 0.2, 0., null;
end: nodes;
begin: elements;
	body: 1, 1, 1., null, diag, 0.01, 0.01, 0.01;
	force: 2, absolute, 1, position, null, 1., 0., 0., sine, 0., 10., 2., forever, 0.;
	user defined: 3, lua, 1, 1, function, "spring", after convergence, "commit";
end: elements;
)";

class RetriedStepOfLuaElement : public ::testing::TestWithParam<const char*> {};

TEST_P(RetriedStepOfLuaElement, RestoresItsStateTable) {
  mbl::test::expect_retry_equals_direct(GetParam(), kLuaStateDeck, 0.02, 2, 4);
}

INSTANTIATE_TEST_SUITE_P(Esdirk, RetriedStepOfLuaElement, ::testing::Values("Bathe", "mssth3", "DIRK54"));

}  // namespace
