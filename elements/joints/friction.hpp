#pragma once
// Friction in joints (input manual §2.8; MBDyn's friction.cc settles what the manual leaves
// open). A joint with friction computes the relative sliding velocity v (times the average
// radius of the friction surface, for rotations) and the norm of its reaction |F|; the friction
// model turns them into a friction coefficient f, with one state of its own among the joint's
// unknowns; the shape function into sh(f); the joint applies Q = sh(f) max(|F|, preload) r
// against the relative motion: -Q e on node 1, +Q e on node 2 (force or moment along e).
//
// - `modlugre, sigma0, sigma1, sigma2, kappa, fs`: bristle deflection z (differential),
//     z' = v - alpha(z, v) sigma0 |v| z / fs(|v|),   f = sigma0 z + sigma1 z' + sigma2 v,
//   alpha rising from 0 (|z| <= kappa z_ss) to 1 (|z| >= z_ss = fs/sigma0) along a half sine.
// - `discrete coulomb, fs [, sigma2, s2] [, velocity ratio, r]`: the state is f itself
//   (algebraic), with the sticking/sliding switching of MBDyn's DiscreteCoulombFriction:
//   sticking imposes v = 0, sliding f = sign fs(v) + s2 v.
#include <cmath>
#include <memory>
#include <ostream>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "elements/drives/scalar_function.hpp"
#include "mbdyn-like/core/assembly.hpp"
#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl::elements {

/// A linear form in the Newton update d, sum c_k d[col_k], with the Jacobian's convention (a
/// differential unknown moves y' by d and y by dCoef d, an algebraic one y by d).
struct LinearForm {
  std::vector<std::pair<int, double>> terms;
  void add(int col, double c) { terms.emplace_back(col, c); }
  void add(int col, const Vec3& c) {
    for (int i = 0; i < 3; ++i) terms.emplace_back(col + i, c[i]);
  }
  void add(const LinearForm& other, double scale) {
    for (const auto& [col, c] : other.terms) terms.emplace_back(col, scale * c);
  }
};

class FrictionModel {
 public:
  virtual ~FrictionModel() = default;
  virtual DofOrder dof_order() const = 0;
  /// MBDyn's class name, in the `print: dof description` listing ("ModLugreFriction state").
  virtual std::string_view mbdyn_name() const = 0;
  /// Adds the state equation at `row` for the state z (rate zp) and the sliding velocity v;
  /// returns the friction coefficient f.
  virtual double residual(ResidualSink& r, int row, double z, double zp, double v) = 0;
  /// The coefficient f at this state (as the last residual computed it, for the Jacobian).
  virtual double coefficient(double z, double zp, double v) const = 0;
  /// -d(state equation)/d: on the state itself and along dv; returns df (same convention).
  virtual LinearForm jacobian(JacobianSink& J, int row, double z, double v, double dCoef, const LinearForm& dv) const = 0;
  virtual void after_convergence(double z, double v) {}
  /// The memory as a step begins, and back to it when the step is abandoned (core/element.hpp).
  virtual void save_step_state() {}
  virtual void restore_step_state() {}
};

/// The `modlugre` model (Dupont et al., modified LuGre, as MBDyn's ModLugreFriction).
class ModLugreFriction final : public FrictionModel {
 public:
  ModLugreFriction(double sigma0, double sigma1, double sigma2, double kappa, drives::ScalarFunctionPtr fs)
      : sigma0_(sigma0), sigma1_(sigma1), sigma2_(sigma2), kappa_(kappa), fs_(std::move(fs)) {}
  DofOrder dof_order() const override { return DofOrder::Differential; }
  std::string_view mbdyn_name() const override { return "ModLugreFriction"; }
  double residual(ResidualSink& r, int row, double z, double zp, double v) override;
  double coefficient(double z, double zp, double v) const override;
  LinearForm jacobian(JacobianSink& J, int row, double z, double v, double dCoef, const LinearForm& dv) const override;

 private:
  double fs(double v) const;   ///< fs(|v|) sign(v), sign(0) = +1
  double fsd(double v) const;  ///< d fs(|v|)/d|v| sign(v)
  double alpha(double z, double v) const;
  double alpha_z(double z, double v) const;
  double alpha_v(double z, double v) const;
  double sigma0_, sigma1_, sigma2_, kappa_;
  drives::ScalarFunctionPtr fs_;
};

/// The `discrete coulomb` model (MBDyn's DiscreteCoulombFriction).
class DiscreteCoulombFriction final : public FrictionModel {
 public:
  DiscreteCoulombFriction(drives::ScalarFunctionPtr fs, double sigma2, double velocity_ratio)
      : fs_(std::move(fs)), sigma2_(sigma2), velocity_ratio_(velocity_ratio) {}
  DofOrder dof_order() const override { return DofOrder::Algebraic; }
  std::string_view mbdyn_name() const override { return "DiscreteCoulombFriction"; }
  double residual(ResidualSink& r, int row, double f, double fp, double v) override;
  double coefficient(double f, double fp, double v) const override;
  LinearForm jacobian(JacobianSink& J, int row, double f, double v, double dCoef, const LinearForm& dv) const override;
  void after_convergence(double f, double v) override;
  void save_step_state() override {
    saved_ = {status_, transition_, first_iteration_, first_switch_, current_velocity_,
              previous_switch_v_, saved_sliding_friction_, sliding_sign_};
  }
  void restore_step_state() override {
    std::tie(status_, transition_, first_iteration_, first_switch_, current_velocity_,
             previous_switch_v_, saved_sliding_friction_, sliding_sign_) = saved_;
  }
  bool sliding() const { return status_ == Status::Sliding; }

 private:
  enum class Status { Stuck, Sticking, Sliding };
  enum class Transition { None, StuckToSliding, StickingToSliding, SlidingToSticking };
  drives::ScalarFunctionPtr fs_;
  double sigma2_, velocity_ratio_;
  Status status_ = Status::Stuck;
  Transition transition_ = Transition::None;
  bool first_iteration_ = true, first_switch_ = true;
  double current_velocity_ = 0.0, previous_switch_v_ = 0.0;
  double saved_sliding_friction_ = 0.0;
  double sliding_sign_ = 1.0;  ///< sliding: f = sliding_sign_ fs(v) + sigma2 v
  std::tuple<Status, Transition, bool, bool, double, double, double, double> saved_{};
};

enum class FrictionShape { Simple, SimplePlaneHinge, ScrewJoint };

/// The thread of the `screw joint` shape function (§2.8.2): mean radius and half thread angle.
struct ScrewThread {
  double radius = 0.0, half_thread_angle = 0.0;
};

/// The friction of one joint: model, shape function, preload and radius.
class JointFriction {
 public:
  JointFriction(std::unique_ptr<FrictionModel> model, FrictionShape shape, double preload, double radius,
                ScrewThread thread = {})
      : model_(std::move(model)), shape_(shape), preload_(preload), radius_(radius),
        sec_half_thread_angle_(1.0 / std::cos(thread.half_thread_angle)), shape_scale_(thread.radius), thread_(thread) {}
  /// The screw joint with pitch p (advance per turn) sets the thread's lead: tan(pitch angle) =
  /// p / (2 pi r); the contact point slides at r / cos(pitch angle) times the relative spin
  /// (MBDyn's ComputePitchAngle), and Q = sh(f) |F| r / cos(pitch angle) is then the thread's
  /// friction moment r f sec(hta) (1 + tan^2) / (f sec(hta) tan - 1) |F|.
  void set_screw_pitch(double pitch);
  DofOrder dof_order() const { return model_->dof_order(); }
  double radius() const { return radius_; }
  /// Adds the state equation at `row` and returns Q = sh(f) max(|F|, preload) r, for the
  /// relative rate `rate` (v = rate r) and the reaction norm |F|.
  double residual(ResidualSink& r, const StepContext& c, int row, double rate, double F_norm);
  /// The state rows' Jacobian; returns dQ given d(rate) and d|F|, and Q at this state.
  LinearForm jacobian(JacobianSink& J, const StepContext& c, int row, double rate, const LinearForm& drate,
                      double F_norm, const LinearForm& dF_norm, double& Q) const;
  void after_convergence(const StepContext& c, int row, double rate);
  void save_step_state() { model_->save_step_state(); }
  /// MBDyn's lines for the friction state (the joints' DescribeDof/DescribeEq, friction.cc):
  /// "<prefix><index+1>: friction dof(s)" and the model's own line below it; `as_range`:
  /// "<index+1>-><index+1>", as BeamSliderJoint::DescribeEq writes its one friction equation.
  void describe(std::ostream& os, std::string_view prefix, int index, bool equations, bool as_range = false) const {
    os << prefix << index + 1;
    if (as_range) os << "->" << index + 1;
    os << (equations ? ": friction equation(s)\n" : ": friction dof(s)\n") << "        " << prefix
       << "[1]: " << model_->mbdyn_name() << (equations ? " equation\n" : " state\n");
  }
  void restore_step_state() { model_->restore_step_state(); }
  /// Q and f at the last residual (the .jnt columns "F3"/"M3" and "fc").
  double Q() const { return Q_; }
  double coefficient() const { return f_; }

 private:
  double shape(double f) const;
  double shape_derivative(double f) const;
  std::unique_ptr<FrictionModel> model_;
  FrictionShape shape_;
  double preload_, radius_;
  // The screw joint shape: sh(f) = k f sec (1 + t^2) / (f sec t - 1), t the tangent of the pitch
  // angle (0 until set_screw_pitch), k the thread radius over radius_ in the screw; in any other
  // joint (no pitch) MBDyn's ScrewJointSh_c gives sh = -r_thread f sec, which the joint multiplies
  // by its own radius as any shape: k = r_thread.
  double sec_half_thread_angle_, tan_pitch_ = 0.0, shape_scale_;
  ScrewThread thread_;
  double Q_ = 0.0, f_ = 0.0;
};

/// d((w_a - w_b) . e) along the update, e attached to node a: d w = (I - dCoef [w_ref x]) d g'
/// (technical manual §5.1) and d e = dCoef d g_a x e (revolute hinge, brake).
LinearForm spin_rate_form(const StructNode& a, const StructNode& b, const Vec3& e, double dCoef);

/// Adds -Q e at rows_a and +Q e at rows_b (force or moment rows of nodes 1 and 2).
void add_friction_load(ResidualSink& r, int rows_a, int rows_b, const Vec3& e, double Q);
/// Its Jacobian: -d(-Q e)/d on rows_a and the opposite on rows_b, with e attached to node 1
/// (d e = dCoef d g_1 x e at its rotation columns `theta_a`).
void add_friction_load_jacobian(JacobianSink& J, int rows_a, int rows_b, const Vec3& e, double Q, const LinearForm& dQ,
                                int theta_a, double dCoef);

}  // namespace mbl::elements
