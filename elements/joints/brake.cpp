#include "elements/joints/brake.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "elements/joints/friction_output.hpp"
#include "elements/joints/friction_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {
namespace {
// NetCDF variables of elem.joint.<label> (MBDyn's Brake).
constexpr output::NcVarSpec kNcOmega{"Omega", NcShape::Vec3, "Angular velocity",
                                     "local relative angular velocity, node 2 RF (x, y, z)"};
constexpr output::NcVarSpec kNcFb{"Fb", NcShape::Scalar, "Force", "normal force the brake is activated with"};
}  // namespace

Brake::Brake(unsigned label, const Attachment& a, const Attachment& b, std::unique_ptr<JointFriction> friction,
             DriveCallerPtr normal_force)
    : Joint(label), a_(a), b_(b), friction_(std::move(friction)), normal_force_(std::move(normal_force)) {
  R_WJ_ = b_.R_WH();
}

// Appendix E.2.10: "brake: <label> <node 1> <position 1> <orientation 1> <node 2> ...".
std::string Brake::log_line() const { return fmt::format("brake: {} {} {}", label(), log_text(a_), log_text(b_)); }

void Brake::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;
  const double M3 = friction_->residual(r, c, first_index(), spin_rate(), normal_force_->value(c.t));
  add_friction_load(r, a_.node->eq_index() + 3, b_.node->eq_index() + 3, a_.R_WH().col(2), M3);
}

void Brake::jacobian(JacobianSink& J, const StepContext& c) {
  if (c.initial_assembly) {
    J.add(first_index(), first_index(), 1.0);
    return;
  }
  const StructNode& na = *a_.node;
  const StructNode& nb = *b_.node;
  const Vec3 e3 = a_.R_WH().col(2);
  double M3 = 0.0;
  const LinearForm dM3 = friction_->jacobian(J, c, first_index(), spin_rate(), spin_rate_form(na, nb, e3, c.dCoef),
                                             normal_force_->value(c.t), LinearForm{}, M3);
  add_friction_load_jacobian(J, na.eq_index() + 3, nb.eq_index() + 3, e3, M3, dM3, na.dof_index() + 3, c.dCoef);
}

void Brake::after_convergence(const StepContext& c) {
  if (c.initial_assembly) return;
  friction_->after_convergence(c, first_index(), spin_rate());
  N_ = normal_force_->value(c.t);
  R_WJ_ = b_.R_WH();
  F_W_.setZero();
  M_W_ = R_WJ_ * Vec3(0.0, 0.0, friction_->Q());
  rz_converged_ = rz();
}

double Brake::rz() const {
  const Mat3 R = R_rel();
  return rot::unwrap_angle(std::atan2(R(1, 0), R(0, 0)), rz_converged_);
}

void Brake::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, Vec3(rot::R_to_euler123(R_rel()) * (180.0 / M_PI)));
  out.write(os, w_rel_b());
  out.write(os, friction_->coefficient());
  out.write(os, N_);
}

void Brake::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_E_ = output::nc_declare(out, base, output::nc::joint_brake_Phi);
  nc_Omega_ = output::nc_declare(out, base, kNcOmega);
  nc_fc_ = output::nc_declare(out, base, nc_friction_coefficient);
  nc_Fb_ = output::nc_declare(out, base, kNcFb);
}

void Brake::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_E_, rot::R_to_rotvec(R_rel()));
  out.put(nc_Omega_, w_rel_b());
  out.put(nc_fc_, friction_->coefficient());
  out.put(nc_Fb_, N_);
}

// MBDyn's brake.cc: rz 1, wz 2 only.
parser::PrivateDataOwner::DatumInfo Brake::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_datum(l, "rz", "relative rotation about the brake axis");
    return add_datum(l, "wz", "relative angular velocity about the brake axis");
  }();
  return listed(listing, i);
}

double Brake::private_data(unsigned i) const {
  if (i == 1) return rz();
  if (i == 2) return w_rel_b()[2];
  return 0.0;
}

namespace {

using parser::CardReader;

// §8.12.5: node 1, offset [, orientation, R1], node 2, offset [, orientation, R2],
// friction, radius [, preload, p], model, shape, (DriveCaller) normal force.
void read_brake(CardReader& in, BuildContext& ctx, unsigned label) {
  const Attachment a = read_attachment(in, ctx);
  const parser::OtherSide f1 = a.other_side();
  const Attachment b = read_attachment(in, ctx, true, &f1);
  std::unique_ptr<JointFriction> friction;
  if (!read_friction(in, ctx, "brake", FrictionRadius::Required, friction)) return;
  if (!friction) in.fail_expected("\"friction\" (the brake's friction model)");
  DriveCallerPtr normal_force = read_drive(in, ctx);
  add_joint(in, ctx, std::make_unique<Brake>(label, a, b, std::move(friction), std::move(normal_force)));
}

const bool registered = CardRegistry::family("joint").add("brake", read_brake);

}  // namespace
}  // namespace mbl::elements
