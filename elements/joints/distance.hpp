#pragma once
// Distance joint, with or without offsets (technical manual §9.1.3-9.1.4): keeps the distance
// between two attached points equal to l(t) (a drive caller). One multiplier alpha:
//   Phi = |d| - l(t),  d = (x2 + b2) - (x1 + b1),  u = d/|d|;  F1 = alpha u, F2 = -alpha u.
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

class Distance final : public Joint {
 public:
  Distance(unsigned label, const Attachment& a, const Attachment& b, DriveCallerPtr length);
  std::string_view type_name() const override { return offsets_ ? "Distance with offset" : "Distance"; }
  int dof_count() const override { return 1; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  std::string log_line() const override;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Attachment a_, b_;
  DriveCallerPtr length_;
  bool offsets_;
  double l_ = 0.0;
  Vec3 direction_output() const;
  OutputSink::VarId nc_V_ = -1, nc_d_ = -1;
};

}  // namespace mbl::elements
