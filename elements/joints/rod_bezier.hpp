#pragma once
// Rod bezier (MBDyn's `rod bezier` joint, struct/rodbezj.cc RodBezier): a rod whose length l is
// measured along the cubic Bezier curve of the control points b1 = x1 + R1 fO, b2 = x1 + R1 fA,
// b3 = x2 + R2 fB, b4 = x2 + R2 fI, l = int_0^1 |p(u)| du with p = sum_k b_k A_k'(u) (derivatives
// of the Bernstein polynomials), by Gauss-Legendre rules of `order` points on `segments` equal
// segments. A 1D law gives f(eps, eps'), eps = l/l0 - 1; node 1 receives f l1 at fO, node 2 f l2
// at fI. As in MBDyn: l1 = R1 (fA - fO), l2 = R2 (fB - fI) (unit) are fixed in the global frame
// when the card is read, and the length rate l' is half the derivative of l (RodBezier::AssVec).
#include <memory>
#include <vector>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/law_private_data.hpp"

namespace mbl::elements {

class RodBezier final : public Joint {
 public:
  struct Geometry {
    StructNode* node1 = nullptr;
    StructNode* node2 = nullptr;
    Vec3 fO_N1, fA_N1, fB_N2, fI_N2;  ///< control points' offsets in their node's frame
    int order = 2;                    ///< Gauss points per segment (MBDyn: 1 to 10)
    int segments = 3;
  };
  /// `l0 <= 0`: the length of the curve at the nodes' current configuration (`from nodes`).
  RodBezier(unsigned label, const Geometry& g, double l0, std::unique_ptr<ConstitutiveLaw1D> law);
  std::string_view type_name() const override { return "rod bezier"; }  // OutputPrepare_int("rod bezier")
  // RodBezier is not deformable to MBDyn (no Elem::bIsDeformable): it joins the initial assembly.
  bool assembles_as_constraint() const override { return true; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }

  /// Length of the curve and MBDyn's length rate at the current state.
  double length() const { return curve().l; }
  double reference_length() const { return l0_; }

  // rodbezj.cc: "f", "l", "lP", then the law's data after "constitutiveLaw.".
  unsigned private_data_index(std::string_view name) const override;
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 3 + law_private_data_count(law_.get()); }
  double private_data(unsigned i) const override;

 protected:
  // .jnt (RodBezier::Output): f = (f, 0, 0), m = 0, F = f l1, M = 0, then f l2, l, l1, l2, l', the law's items.
  Vec3 f_local() const override { return Vec3(f_, 0.0, 0.0); }
  Vec3 m_local() const override { return Vec3::Zero(); }
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  struct Curve {
    double l = 0.0, l_dot = 0.0;
  };
  Curve curve() const;
  void update_law(const StepContext& c);

  Geometry g_;
  std::vector<std::pair<double, double>> points_;  ///< (u, weight) over [0, 1], all segments
  Vec3 l1_W_, l2_W_;
  double l0_;
  std::unique_ptr<ConstitutiveLaw1D> law_;
  double l_ = 0.0, l_dot_ = 0.0, f_ = 0.0;
  OutputSink::VarId nc_F2_ = -1, nc_l_ = -1, nc_l1_ = -1, nc_l2_ = -1, nc_v_ = -1;
};

}  // namespace mbl::elements
