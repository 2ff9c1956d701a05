#pragma once
// MBDyn's inverse dynamics problem (`problem: inverse dynamics`, input manual §5.1.1; technical
// manual §6.3; MBDyn's invsolver.cc, the inverse dynamics step solver of stepsol.cc and
// invdataman.cc). At each time t0, t0 + h, ... the structural nodes' motion is found from the
// constraints, then the multipliers of the `torque` joints from equilibrium:
//
//   position (Newton):  W (q - q_prev) - K_e(q) + Phi_q^T lambda = 0,   Phi(q, t) = 0  (linearised; as
//                       MBDyn's, the iterations stop once Phi is within the tolerance)
//   velocity:           W (u - (q - q_prev)/h)   + Phi_q^T mu = 0,      Phi_q u + Phi_t = 0
//   acceleration:       W (a - (u - u_prev)/h)   + Phi_q^T mu = 0,      Phi_q a + (Phi_q u)_q u + 2 Phi_qt u + Phi_tt = 0
//   dynamics:           Theta_q^T c = f(q, u, a),                        Theta_q x = 0
//
// Phi stacks the `prescribed motion` joints (a joint without an `inverse dynamics` card is both a
// passive constraint and a torque), K_e the elastic forces of the `ergonomy` elements, W = w1 I
// the weight of the underdetermined problem (0 for the fully actuated, collocated one), Theta
// the `torque` joints and f the loads of the `right hand side` elements plus the inertia forces
// of the bodies. Everything is read off the elements' regular residual and Jacobian at dCoef = 1
// (constraint rows hold Phi, node rows -Phi_q^T lambda, see core/assembly.hpp); Phi_t and the
// acceleration terms are differences of Phi along the motion, in time. The position iterations
// reproduce MBDyn's iterates, quirks included, since where they stop is the answer: each solve
// gives the whole multipliers (no reaction in the node rows, no geometric stiffness), the total
// joints keep their frames at the step's start (their inverse-dynamics Jacobian), and the
// orientation parameters MBDyn leaves in its solution vector are applied once more at the next
// step's first update.
#include <iosfwd>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/model/settings.hpp"
#include "mbdyn-like/phases/run_output.hpp"
#include "mbdyn-like/phases/simulation.hpp"

namespace mbl {

/// Runs the inverse dynamics problem from s.initial_time to s.final_time with step s.time_step,
/// writing each solved time (the first at the initial time, as MBDyn's "Step 0"). The joints'
/// multipliers hold the torques and reactions after each step (their .jnt output).
RunReport run_inverse_dynamics(Model& model, const RunSettings& s, RunOutput& output, std::ostream& log);

}  // namespace mbl
