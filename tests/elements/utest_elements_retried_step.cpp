// Elements with memory beyond their laws give it back when a step is abandoned
// (save_step_state/restore_step_state, core/element.hpp; docs/adaptive.md): a step that fails at
// its end, after its earlier ESDIRK stages converged and committed their after_convergence()
// state, and is retried as two half steps must give, bit for bit, what a run that took the half
// steps from the start gives. Each deck below fails that check without its element's restore.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/retried_step.hpp"
#include "support/run_program.hpp"

namespace {

// A disc spun by an axial rotation joint (a total joint whose rotation about axis 3 is
// velocity-driven: the free rotation accumulated over the converged points enters the target of
// its position constraints, TotalJoint::theta_target) with modlugre friction (its bristle state
// is an unknown, given back with the others; discrete coulomb, the friction with a memory of its
// own, cannot start here: sticking imposes a zero rate that the joint imposes otherwise). The
// joint's frames are tilted and a couple loads its reactions, so that the constraint's rotation
// (R_rel against the target) is not exactly about axis 3 and the target's rotation shows.
const std::string kAxialRotationDeck = std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
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
const std::string kBeamSliderDeck = std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
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


// Two pressures clamped across a pipe of water, 17 Pa apart (small, so that the residual settles
// to the test's 1e-12), which keeps the flow in the transition band where the pipe's loss depends
// on the side it came from (pipes.cpp: the laminar/turbulent switch, set only below Re 2000 or
// above 4000): Re 3150 coming from laminar flow, 2720 from turbulent. The pressure difference is
// four times larger in a window around 0.6 of the failing step (0.04 .. 0.06 s): one of its
// stages (Bathe at 0.586, mssth3 at 0.609, DIRK54 at 0.611) sees turbulent flow and switches the
// pipe to turbulent; no evaluation of the half steps falls in the window.
const std::string kPipeDeck = std::string(mbl::test::kRetriedStepHeader) + R"deck(begin: control data;
	hydraulic nodes: 2;
	hydraulic elements: 1;
	genels: 2;
end: control data;
begin: nodes;
	hydraulic: 1, 0.;
	hydraulic: 2, 0.;
end: nodes;
hydraulic fluid: 1, linear compressible, density, 1000., 1.5e9, 0., viscosity, 1.e-3;
begin: elements;
	genel: 1, clamp, 1, hydraulic, string, "17.*(1 + 3*(Time > 0.0516 && Time < 0.0524))";
	genel: 2, clamp, 2, hydraulic, const, 0.;
	hydraulic: 3, pipe, 1, 2, 0.02, 1., fluid, reference, 1;
end: elements;
)deck";

// The discrete control of MBDyn's test t/elec/discretecontrol (its A = B = identity): every
// converged point shifts its samples (a measured algebraic abstract node and a drive) and computes
// the control applied to two abstract nodes at the next step.
std::string discrete_control_deck() {
  const auto dir = mbl::test::fresh_temp_dir("retried_step_discrete_control");
  std::ofstream(dir / "control.dat") << "1. 0.\n0. 1.\n1. 0.\n0. 1.\n";
  return std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
	abstract nodes: 3;
	electric elements: 1;
	genels: 3;
	forces: 1;
end: control data;
begin: nodes;
	abstract: 1;
	abstract: 2;
	abstract: 11;
end: nodes;
begin: elements;
	genel: 11, spring support, 11, abstract, algebraic, linear elastic, 1.;
	force: 11, abstract, 11, abstract, sine, 0., 2*pi, 1., forever, 0.;
	genel: 1, spring support, 1, abstract, algebraic, linear elastic, 1.;
	genel: 2, spring support, 2, abstract, algebraic, linear elastic, 1.;
	electric: 1, discrete control, 2, 2, 1, 1, control, ")" +
         (dir / "control.dat").string() + R"(",
		outputs, node dof, 11, abstract, algebraic, scale, 1.,
			drive, sine, .5, 2*pi, 1., forever, 0., scale, 1.,
		inputs, 1, abstract, algebraic, 2, abstract, algebraic;
end: elements;
)";
}

// A rotor hub spinning at 40 rad/s about z, free, carrying a blade (an aerodynamic body tied to the
// rotor): the rotor's uniform inflow, with a delay, keeps the converged mean induced velocity the
// blade sees at the next step (rotor.cpp: u_mean_prev_).
const std::string kRotorDeck = std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
	structural nodes: 2;
	rigid bodies: 1;
	joints: 1;
	air properties;
	aerodynamic elements: 1;
	induced velocity elements: 1;
end: control data;
begin: nodes;
	structural: 1, static, null, eye, null, null;
	structural: 2, dynamic, null, eye, null, 0., 0., 40.;
end: nodes;
begin: elements;
	joint: 1, clamp, 1, node, node;
	body: 2, 2, 10., null, diag, 1., 1., 2.;
	air properties: 1.225, 340., 1., 0., 0., const, 0.;
	induced velocity: 3, rotor, 1, 2, induced velocity, uniform, 40., 3., delay, const, 0.5;
	aerodynamic body: 4, 2, rotor, 3, 2.5, 0., 0., 2, 0., -1., 0., 3, 1., 0., 0., 1.,
		const, .02, const, 0., const, 0., const, 0.1, 2, naca 0012;
end: elements;
)";

// A free body in a 30 m/s wind with two aerodynamic bodies of a flat plate: one pitched by a
// control drive with Bielawa's unsteady corrections (the rates from the angles of attack of the
// last converged points), one with Theodorsen's unsteady aerodynamics (the pivot angle and rate of
// the last converged point): the histories AeroSurface::after_convergence commits.
std::string aerodynamic_surface_deck() {
  const auto dir = mbl::test::fresh_temp_dir("retried_step_aero");
  // A flat plate: cl = 2 pi alpha within 10 degrees, a constant cd, no moment.
  std::ofstream(dir / "flat.c81") << "# FREE FORMAT\nflat plate; 2 5 2 5 2 5\n"
                                     "0. 1.\n-180. 0. 0.\n-10. -1.0966 -1.0966\n0. 0. 0.\n10. 1.0966 1.0966\n180. 0. 0.\n"
                                     "0. 1.\n-180. .01 .01\n-10. .013 .013\n0. .01 .01\n10. .013 .013\n180. .01 .01\n"
                                     "0. 1.\n-180. 0. 0.\n-10. 0. 0.\n0. 0. 0.\n10. 0. 0.\n180. 0. 0.\n";
  return std::string(mbl::test::kRetriedStepHeader) + R"(begin: control data;
	structural nodes: 1;
	rigid bodies: 1;
	air properties;
	aerodynamic elements: 2;
end: control data;
begin: nodes;
	structural: 1, dynamic, null, eye, null, null;
end: nodes;
set: const integer FLAT = 1;
c81 data: FLAT, ")" + (dir / "flat.c81").string() + R"(", free format;
begin: elements;
	body: 1, 1, 5., null, diag, 0.5, 0.5, 0.5;
	air properties: 1.225, 340., -1., 0., 0., const, 30.;
	aerodynamic body: 2, 1, 0., 0., 0.5, eye, 1.,
		const, .2, const, 0., const, 0., const, 0., 1,
		control, string, ".05 + .2*Time + .5*Time^2",
		c81, FLAT, unsteady, bielawa;
	aerodynamic body: 3, 1, 0., 0., -0.5, eye, 1.,
		const, .2, const, 0., const, .05, const, .05, 1,
		theodorsen, FLAT;
end: elements;
)";
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
  mbl::test::expect_retry_equals_direct(GetParam(), driven_maxwell_deck(), 0.05, 2, 6);
}

// The pipe's laminar/turbulent switch.
TEST_P(RetriedStepOfElement, RestoresThePipesFlowRegime) {
  mbl::test::expect_retry_equals_direct(GetParam(), kPipeDeck, 0.02, 2, 4);
}

// The discrete control's samples and the control computed from them.
TEST_P(RetriedStepOfElement, RestoresTheDiscreteControlsSamples) {
  mbl::test::expect_retry_equals_direct(GetParam(), discrete_control_deck(), 0.02, 2, 4);
}

// The rotor's mean induced velocity.
TEST_P(RetriedStepOfElement, RestoresTheRotorsInducedVelocity) {
  mbl::test::expect_retry_equals_direct(GetParam(), kRotorDeck, 0.02, 2, 4);
}

// The aerodynamic surfaces' unsteady histories (Bielawa's angles, Theodorsen's pivot).
TEST_P(RetriedStepOfElement, RestoresTheAerodynamicSurfacesHistories) {
  mbl::test::expect_retry_equals_direct(GetParam(), aerodynamic_surface_deck(), 0.02, 2, 4);
}

INSTANTIATE_TEST_SUITE_P(Esdirk, RetriedStepOfElement, ::testing::Values("Bathe", "mssth3", "DIRK54"));

}  // namespace
