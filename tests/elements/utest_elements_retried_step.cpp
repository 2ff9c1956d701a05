// Elements with memory beyond their laws give it back when a step is abandoned
// (save_step_state/restore_step_state, core/element.hpp; docs/adaptive.md): a step that fails at
// its end, after its earlier ESDIRK stages converged and committed their after_convergence()
// state, and is retried as two half steps must give, bit for bit, what a run that took the half
// steps from the start gives. Each deck below fails that check without its element's restore.
#include <gtest/gtest.h>

#include <string>

#include "support/retried_step.hpp"

namespace {

// A disc spun by an axial rotation joint (a total joint whose rotation about axis 3 is
// velocity-driven: the free rotation accumulated over the converged points enters the target of
// its position constraints, TotalJoint::theta_target) with modlugre friction (its bristle state
// is an unknown, given back with the others; discrete coulomb, the friction with a memory of its
// own, cannot start here: sticking imposes a zero rate that the joint imposes otherwise). The
// joint's frames are tilted and a couple loads its reactions, so that the constraint's rotation
// (R_rel against the target) is not exactly about axis 3 and the target's rotation shows.
constexpr const char* kAxialRotationDeck = R"(begin: data;
	problem: initial value;
end: data;
begin: initial value;
	initial time: 0.;
	final time: 1.;
	time step: 1e-2;
end: initial value;
begin: control data;
	structural nodes: 2;
	rigid bodies: 1;
	joints: 2;
	forces: 1;
end: control data;
reference: 10, null, euler123, 0.3, 0.2, 0.1, null, null;
begin: nodes;
	structural: 1, static, reference, 10, null, reference, 10, eye, null, null;
	structural: 2, dynamic, reference, 10, null, reference, 10, eye, null, reference, 10, 0., 0., 1.;
end: nodes;
begin: elements;
	joint: 1, clamp, 1, node, node;
	body: 2, 2, 1., null, diag, 0.1, 0.1, 0.2;
	joint: 2, axial rotation, 1, null, 2, null, ramp, 10., 0., forever, 1.,
		friction, 0.1, preload, 1., modlugre, 10., 0., 0., 0.5, "mu", const, 0.3, simple;
	couple: 3, absolute, 2, position, null, 1., 0.5, 0., const, 2.;
end: elements;
)";

// A 1 kg slider on a rail (a beam3 on clamped nodes) under gravity, pushed along the rail by a
// force 40 t N: discrete Coulomb friction (0.2 of its weight) holds it until t = 0.049 s, in the
// step from 0.04 to 0.06 s that fails.
constexpr const char* kBeamSliderDeck = R"(begin: data;
	problem: initial value;
end: data;
begin: initial value;
	initial time: 0.;
	final time: 1.;
	time step: 1e-2;
end: initial value;
begin: control data;
	structural nodes: 4;
	rigid bodies: 1;
	beams: 1;
	joints: 4;
	forces: 1;
	gravity;
end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
	structural: 2, static, 0.5, 0., 0., eye, null, null;
	structural: 3, static, 1., 0., 0., eye, null, null;
	structural: 4, dynamic, 0.5, 0., 0., eye, null, null;
end: nodes;
begin: elements;
	joint: 1, clamp, 1, node, node;
	joint: 2, clamp, 2, node, node;
	joint: 3, clamp, 3, node, node;
	beam3: 1, 1, null, 2, null, 3, null, eye, linear elastic generic, diag, 1.e6, 1.e6, 1.e6, 1.e3, 1.e3, 1.e3, same, same;
	body: 4, 4, 1., null, diag, 1.e-3, 1.e-3, 1.e-3;
	joint: 100, beam slider, 4, null, type, spherical, 1, 1, null, null, null,
		initial beam, 1, initial node, 2,
		friction, preload, 1.e-3, discrete coulomb, "mu", const, 0.2, simple;
	force: 1, absolute, 4, position, null, 1., 0., 0., linear, 0., 40.;
	gravity: uniform, 0., 0., -1., const, 9.81;
end: elements;
)";

// The Maxwell spring of kStatefulDeck (its viscous strain advanced at every converged point)
// wrapped in a `driven` element, which must pass the save and the restore on to what it wraps.
std::string driven_maxwell_deck() {
  std::string deck = mbl::test::kStatefulDeck;
  const std::string joint = "joint: 11, deformable displacement joint";
  deck.replace(deck.find(joint), joint.size(), "driven: 11, const, 1., " + joint);
  return deck;
}

class RetriedStepOfElement : public ::testing::TestWithParam<const char*> {};

TEST_P(RetriedStepOfElement, RestoresTheAxialRotationJointsAccumulatedRotation) {
  mbl::test::expect_retry_equals_direct(GetParam(), kAxialRotationDeck, 0.02, 2, 4);
}

// The slider's discrete Coulomb friction (its sticking/sliding memory) and the rail's beam (the
// sections' converged orientations and curvatures its next prediction starts from).
TEST_P(RetriedStepOfElement, RestoresTheBeamSlidersFrictionAndTheBeam) {
  mbl::test::expect_retry_equals_direct(GetParam(), kBeamSliderDeck, 0.02, 2, 4);
}

TEST_P(RetriedStepOfElement, RestoresWhatADrivenElementWraps) {
  mbl::test::expect_retry_equals_direct(GetParam(), driven_maxwell_deck().c_str(), 0.05, 2, 6);
}

INSTANTIATE_TEST_SUITE_P(Esdirk, RetriedStepOfElement, ::testing::Values("Bathe", "mssth3", "DIRK54"));

}  // namespace
