#pragma once
// Spherical hinge (technical manual §9.1.5) and spherical pin: the points of two attachments
// coincide, Phi = (x1 + b1) - (x2 + b2) = 0 (scaled by 1/dCoef); node 1 gets -F, node 2 +F.
// The .jnt line has the relative orientation after the reactions, in the card's `orientation
// description` (default: `default orientation`): the hinge's R_1h^T R_2h (the orientations given on
// the card are only for this output, §8.12.45), the pin's node orientation (MBDyn's PinJoint,
// spherj.cc); NetCDF "E"/"Phi"/"R", "relative orientation, in joint reference frame".
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

class SphericalHinge final : public Joint {
 public:
  SphericalHinge(unsigned label, bool pin, const Attachment& a, const Attachment& b,
                 StructNode::OrientationOutput orientation = StructNode::OrientationOutput::Euler123);
  std::string_view type_name() const override { return pin_ ? "Spherical pin" : "Spherical hinge"; }
  std::string log_line() const override;
  int dof_count() const override { return 3; }
  int initial_dof_count() const override { return 6; }  // spherj.h
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  bool concurrent_jacobian() const override { return true; }
  void after_convergence(const StepContext& c) override;
 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Mat3 R_reported() const;  ///< the orientation written: R_1h^T R_2h (hinge), R_WN (pin)
  OutputSink::VarId nc_E_ = -1;
  StructNode::OrientationOutput orientation_;
  bool pin_;
  Attachment a_, b_;
};

/// Position constraint shared by spherical, revolute and similar joints: adds
/// r_a -= F, r_a_rot -= b_a x F, r_b += F, r_b_rot += b_b x F, r_c = (x_a - x_b)/dCoef.
void add_coincidence_residual(ResidualSink& r, const StepContext& c, const Attachment& a,
                              const Attachment& b, int row_c, const Vec3& F);
void add_coincidence_jacobian(JacobianSink& J, const StepContext& c, const Attachment& a,
                              const Attachment& b, int row_c, const Vec3& F);

}  // namespace mbl::elements
