#include "elements/joints/cardano.hpp"

#include <fmt/format.h>

#include "elements/joints/axis_constraints.hpp"
#include "elements/joints/spherical_hinge.hpp"

namespace mbl::elements {
namespace {
// Axis 3 of a orthogonal to axis 2 of b, signed so that node a gets -(e2_b x e3_a) dM.
const std::vector<AxisPair> kCardanoAxes{{2, 1, -1.0}};
}  // namespace

Cardano::Cardano(unsigned label, Variant v, const Attachment& a, const Attachment& b,
                 OrientationOutput orientation)
    : Joint(label), variant_(v), a_(a), b_(b), position_(v != Variant::Rotation),
      orientation_(orientation) {
  R_WJ_ = v == Variant::Pin ? b_.R_WH() : a_.R_WH();
}

std::string_view Cardano::type_name() const {
  switch (variant_) {
    // MBDyn's NetCDF types (univj.cc OutputPrepare_int)
    case Variant::Pin: return "Cardano pin";
    case Variant::Rotation: return "Cardano rotation";
    default: return "Cardano hinge";
  }
}

std::string Cardano::log_line() const {
  // Appendix E.2.30-32 under the names MBDyn writes now ("cardanohinge" in the real files; the
  // pin and rotation have no reference file). Pin: the ground point and orientation (global),
  // then the node with the joint's offset and orientation in its frame.
  switch (variant_) {
    case Variant::Pin:
      return fmt::format("cardanopin: {} {} {} {} {}", label(), b_.node->label(), log_text(a_.offset_N),
                         log_text(a_.R_NH), log_text(b_));
    case Variant::Rotation: return fmt::format("cardanorotation: {} {} {}", label(), log_text(a_), log_text(b_));
    default: return fmt::format("cardanohinge: {} {} {}", label(), log_text(a_), log_text(b_));
  }
}

void Cardano::residual(ResidualSink& r, const StepContext& c) {
  const int k = position_ ? 3 : 0;
  if (position_) add_coincidence_residual(r, c, a_, b_, first_index(), lambda3(c, 0));
  add_axis_pairs_residual(r, c, a_, b_, kCardanoAxes, first_index() + k, lambdas(c, k));
}

void Cardano::jacobian(JacobianSink& J, const StepContext& c) {
  const int k = position_ ? 3 : 0;
  if (position_) add_coincidence_jacobian(J, c, a_, b_, first_index(), lambda3(c, 0));
  add_axis_pairs_jacobian(J, c, a_, b_, kCardanoAxes, first_index() + k, lambdas(c, k));
}

void Cardano::after_convergence(const StepContext& c) {
  const int k = position_ ? 3 : 0;
  dM_ = lambda(c, k);
  F_W_ = position_ ? lambda3(c, 0) : Vec3::Zero();
  M_W_ = axis_pairs_moment(a_, b_, kCardanoAxes, &dM_);
  R_WJ_ = variant_ == Variant::Pin ? b_.R_WH() : a_.R_WH();
}

Mat3 Cardano::R_relative() const {
  return variant_ == Variant::Pin ? Mat3(a_.R_WH().transpose() * b_.R_WH())
                                  : Mat3(b_.R_WH().transpose() * a_.R_WH());
}

// MBDyn's univj.cc: the hinge and the pin write the orientation vector to NetCDF whatever the
// text shows; the rotation writes its `orientation description`.
OrientationOutput Cardano::netcdf_orientation() const {
  return variant_ == Variant::Rotation ? orientation_ : OrientationOutput::OrientationVector;
}

void Cardano::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_E_ = declare_orientation(out, base, netcdf_orientation(),
                              variant_ == Variant::Rotation ? "Relative orientation"
                                                            : "Orientation vector of node in relative frame (x, y, z)");
}

void Cardano::output_netcdf_extra(OutputSink& out) const {
  put_orientation(out, nc_E_, R_relative(), netcdf_orientation());
}

void Cardano::output_extra(OutputSink& out, std::ostream& os) const {
  write_orientation(out, os, R_relative(), orientation_);
}

}  // namespace mbl::elements
