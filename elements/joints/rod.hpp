#pragma once
// Rod and rod with offset (input manual §8.12.42-8.12.43, technical manual §9.2.1): an axial force
// between two points attached to two nodes, from a 1D law of the strain eps = l/l0 - 1 and of
// eps' = l'/l0, l = |x2 + f2 - x1 - f1|. With u = (x2 + f2 - x1 - f1)/l and F = f u, node 1
// receives F at its point (tension pulls the points together), node 2 -F.
#include <memory>
#include <vector>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/law_private_data.hpp"

namespace mbl::elements {

class Rod final : public Joint {
 public:
  Rod(unsigned label, bool with_offset, const Attachment& a, const Attachment& b, double l0,
      std::unique_ptr<ConstitutiveLaw1D> law);
  std::string_view type_name() const override { return "Rod"; }  // MBDyn's RodWithOffset inherits Rod's (rodj.cc)
  std::string log_line() const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }

  double reference_length() const { return l0_; }
  double length() const { return l_; }
  double force() const { return f_; }

  // Private data (§8.12.42): "F", "l", "lP", then the law's "constitutiveLaw.<name>".
  unsigned private_data_index(std::string_view name) const override;
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 3 + law_private_data_count(law_.get()); }
  double private_data(unsigned i) const override;

 protected:
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  struct State {
    Vec3 f1, f2, l_vec, l_dot_vec, u;
    double l, l_dot;
  };
  State state() const;

  bool with_offset_;
  Attachment a_, b_;
  double l0_;
  std::unique_ptr<ConstitutiveLaw1D> law_;
  double l_ = 0.0, l_dot_ = 0.0, f_ = 0.0;
  Vec3 u_ = Vec3::UnitX();
  OutputSink::VarId nc_l_ = -1, nc_lP_ = -1, nc_v_ = -1;
  std::vector<OutputSink::VarId> nc_law_;
};

}  // namespace mbl::elements
