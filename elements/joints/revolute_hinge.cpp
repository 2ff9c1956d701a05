#include "elements/joints/revolute_hinge.hpp"

#include <fmt/format.h>

#include "elements/joints/spherical_hinge.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

RevoluteHinge::RevoluteHinge(unsigned label, Variant v, const Attachment& a, const Attachment& b)
    : Joint(label), variant_(v), a_(a), b_(b), position_(v != Variant::Rotation) {
  R_WJ_ = a_.R_WH();
}

std::string_view RevoluteHinge::type_name() const {
  switch (variant_) {
    case Variant::Pin: return "Revolute pin";
    case Variant::Rotation: return "Revolute rotation";
    default: return "Revolute hinge";
  }
}

std::string RevoluteHinge::log_line() const {
  // Appendix E.2.21-22: "revolutehinge: <label> <node 1> <f1> <R1h> <node 2> <f2> <R2h>", the same
  // for "revoluterotation". The pin (no appendix entry) writes its node side twice in MBDyn's
  // files (t.forces.force.pendulum-drag, web.rigidpendulum), not the ground side.
  switch (variant_) {
    case Variant::Pin: return fmt::format("revolutepin: {} {} {}", label(), log_text(a_), log_text(a_));
    case Variant::Rotation: return fmt::format("revoluterotation: {} {} {}", label(), log_text(a_), log_text(b_));
    default: return fmt::format("revolutehinge: {} {} {}", label(), log_text(a_), log_text(b_));
  }
}

void RevoluteHinge::residual(ResidualSink& r, const StepContext& c) {
  const Mat3 Ra = a_.R_WH(), Rb = b_.R_WH();
  const Vec3 e3a = Ra.col(2), e1b = Rb.col(0), e2b = Rb.col(1);
  const int k = position_ ? 3 : 0;  // index of the first moment multiplier
  if (position_) add_coincidence_residual(r, c, a_, b_, first_index(), lambda3(c, 0));
  const Vec3 m_a = e3a.cross(e2b) * lambda(c, k) + e3a.cross(e1b) * lambda(c, k + 1);
  r.add(first_index() + k, e3a.dot(e2b) / c.dCoef);
  r.add(first_index() + k + 1, e3a.dot(e1b) / c.dCoef);
  if (!a_.grounded()) r.add(a_.node->eq_index() + 3, Vec3(-m_a));
  if (!b_.grounded()) r.add(b_.node->eq_index() + 3, m_a);
}

void RevoluteHinge::jacobian(JacobianSink& J, const StepContext& c) {
  const Mat3 Ra = a_.R_WH(), Rb = b_.R_WH();
  const Vec3 e3a = Ra.col(2), e1b = Rb.col(0), e2b = Rb.col(1);
  const Vec3 a1 = e3a.cross(e2b), a2 = e3a.cross(e1b);
  const int k = position_ ? 3 : 0;
  const int row_m = first_index() + k;
  const double M1 = lambda(c, k), M2 = lambda(c, k + 1);
  if (position_) add_coincidence_jacobian(J, c, a_, b_, first_index(), lambda3(c, 0));
  // Geometric stiffness of m_a = a1 M1 + a2 M2 with respect to each node's rotation.
  const Mat3 dm_dth_a = c.dCoef * (M1 * skew(e2b) * skew(e3a) + M2 * skew(e1b) * skew(e3a));
  const Mat3 dm_dth_b = -c.dCoef * (M1 * skew(e3a) * skew(e2b) + M2 * skew(e3a) * skew(e1b));
  // Node a gets +m_a in f (= -r), node b gets -m_a; the constraint rows are -dc/dtheta.
  for (const auto& [att, sign] : {std::pair{&a_, 1.0}, std::pair{&b_, -1.0}}) {
    if (att->grounded()) continue;
    const int eq = att->node->eq_index() + 3, col = att->node->dof_index() + 3;
    J.add(eq, row_m, Vec3(sign * a1));
    J.add(eq, row_m + 1, Vec3(sign * a2));
    if (!a_.grounded()) J.add(eq, a_.node->dof_index() + 3, Mat3(sign * dm_dth_a));
    if (!b_.grounded()) J.add(eq, b_.node->dof_index() + 3, Mat3(sign * dm_dth_b));
    J.add(row_m, col, Eigen::RowVector3d(-sign * a1.transpose()));
    J.add(row_m + 1, col, Eigen::RowVector3d(-sign * a2.transpose()));
  }
}

void RevoluteHinge::after_convergence(const StepContext& c) {
  const Mat3 Ra = a_.R_WH(), Rb = b_.R_WH();
  const int k = position_ ? 3 : 0;
  F_W_ = position_ ? lambda3(c, 0) : Vec3::Zero();
  M_W_ = Ra.col(2).cross(Rb.col(1)) * lambda(c, k) + Ra.col(2).cross(Rb.col(0)) * lambda(c, k + 1);
  R_WJ_ = Ra;
  rz_converged_ = rz();
}

// The relative rotation about axis 3 keeps counting turns (energy balances integrate it), so
// it is the angle of R_rel closest to the last converged one.
double RevoluteHinge::rz() const {
  const Mat3 R = R_rel();
  const double a = std::atan2(R(1, 0), R(0, 0));
  return a + 2.0 * M_PI * std::round((rz_converged_ - a) / (2.0 * M_PI));
}

// MBDyn reports node 2 relative to node 1; the pin's node plays node 2 against the ground.
Mat3 RevoluteHinge::R_rel() const {
  return variant_ == Variant::Pin ? Mat3(b_.R_WH().transpose() * a_.R_WH()) : Mat3(a_.R_WH().transpose() * b_.R_WH());
}

Vec3 RevoluteHinge::w_rel_J() const {
  const Vec3 w = variant_ == Variant::Pin ? Vec3(a_.w_W() - b_.w_W()) : Vec3(b_.w_W() - a_.w_W());
  return a_.R_WH().transpose() * w;
}

Vec3 RevoluteHinge::E_rel_deg() const { return rot::R_to_euler123(R_rel()) * (180.0 / M_PI); }

void RevoluteHinge::output_extra(OutputSink& out, std::ostream& os) const {
  // §8.12.38: relative rotation (Euler 123, degrees) and relative angular velocity, joint frame.
  out.write(os, E_rel_deg());
  out.write(os, w_rel_J());
}

// Appendix C "Revolute hinge" / "Revolute rotation": E and Omega, as the .jnt extra columns.
void RevoluteHinge::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_E_ = output::nc_declare(out, base, output::nc::joint_E_global);
  nc_Omega_ = output::nc_declare(out, base, output::nc::joint_Omega);
}

void RevoluteHinge::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_E_, E_rel_deg());
  out.put(nc_Omega_, w_rel_J());
}

unsigned RevoluteHinge::private_data_index(std::string_view name) const {
  if (name == "rz") return 7;
  if (name == "wz") return 8;
  return Joint::private_data_index(name);
}

double RevoluteHinge::private_data(unsigned i) const {
  if (i == 7) return rz();
  if (i == 8) return w_rel_J()[2];
  return Joint::private_data(i);
}

}  // namespace mbl::elements
