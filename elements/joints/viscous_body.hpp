#pragma once
// Viscous body (input manual §8.12.54): a force and moment on one node from a 6D viscous
// constitutive law of the absolute velocity of an attached point and of the node's angular
// velocity, both projected in the attachment frame R_h = R R_h~:
//   k' = (R_h^T (v + w x f), R_h^T w),  f = R f~;   (F_h, M_h) = law(0, k');
// the node gets -R_h F_h at the point and -R_h M_h. Output: f = F_h, m = M_h, F, M global,
// then k' (6 columns); NetCDF (manual appendix C, "Viscous body"): V = k'(1:3), Omega = k'(4:6).
#include <memory>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/law_private_data.hpp"

namespace mbl::elements {

class ViscousBody final : public Joint {
 public:
  ViscousBody(unsigned label, const Attachment& a, std::unique_ptr<ConstitutiveLaw6D> law);
  std::string_view type_name() const override { return "viscous body"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override { law_->save_step_state(); }
  // vb.cc ViscousBody: rx..rz, vx..vz, wx..wz, Fx..Fz, Mx..Mz, then the law's
  // constitutiveLaw.* data.
  unsigned private_data_count() const override { return 15 + law_private_data_count(law_.get()); }
  DatumInfo private_data_info(unsigned i) const override;
  double private_data(unsigned i) const override;
  void restore_step_state() override { law_->restore_step_state(); }

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  Vec6 strain_rate() const;
  Attachment a_;
  std::unique_ptr<ConstitutiveLaw6D> law_;
  Vec6 k_prime_ = Vec6::Zero();
  OutputSink::VarId nc_V_ = -1, nc_Omega_ = -1;
};

}  // namespace mbl::elements
