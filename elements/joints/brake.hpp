#pragma once
// Brake (input manual §8.12.5; MBDyn's Brake settles what the manual leaves open): no
// constraint, only the friction moment about axis 3 of node 1's hinge frame, e3_a, with the
// normal force N(t) given by a drive (max(N, preload)): sliding velocity (w_1 - w_2) . e3_a r,
// moment -M3 e3_a on node 1 and +M3 e3_a on node 2, the friction state as the only unknown.
// A revolute hinge between the same nodes must provide the kinematics. Output: reaction 0, the
// moment (0, 0, M3) in node 2's hinge frame, then the relative rotation (Euler 123, degrees), the
// relative angular velocity in node 2's hinge frame, the friction coefficient and N.
#include <memory>

#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

class Brake final : public Joint {
 public:
  Brake(unsigned label, const Attachment& a, const Attachment& b, std::unique_ptr<JointFriction> friction,
        DriveCallerPtr normal_force);

  std::string_view type_name() const override { return "brake"; }  // MBDyn's NetCDF type
  std::string log_line() const override;
  int dof_count() const override { return 1; }
  int initial_dof_count() const override { return 10; }  // brake.h
  DofOrder dof_order(int) const override { return friction_->dof_order(); }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override {
    if (friction_) friction_->save_step_state();
  }
  void restore_step_state() override {
    if (friction_) friction_->restore_step_state();
  }

  // Private data: "rz" relative rotation about the brake axis (counting turns), "wz" relative
  // angular velocity about it.
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 2; }  // rz, wz (MBDyn's brake.cc)
  double private_data(unsigned i) const override;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  OutputSink::VarId nc_E_ = -1, nc_Omega_ = -1, nc_fc_ = -1, nc_Fb_ = -1;
  double spin_rate() const { return (a_.w_W() - b_.w_W()).dot(a_.R_WH().col(2)); }
  Mat3 R_rel() const { return a_.R_WH().transpose() * b_.R_WH(); }
  Vec3 w_rel_b() const { return b_.R_WH().transpose() * (b_.w_W() - a_.w_W()); }
  double rz() const;
  Attachment a_, b_;
  std::unique_ptr<JointFriction> friction_;
  DriveCallerPtr normal_force_;
  double N_ = 0.0;             ///< normal force at the last converged point
  double rz_converged_ = 0.0;
};

}  // namespace mbl::elements
