#pragma once
// Beam slider (input manual §8.12.4; MBDyn's BeamSliderJoint settles what the manual leaves
// open): a point of the slider node, x_c = x_b + R_b f, slides along a string of three-node
// beams. On the current beam the line is x(s) = sum N_i(s) (x_i + R_i f_i), s in [-1, 1] with
// the beam's Lagrange shape functions; its tangent l = dx/ds. Unknowns: the abscissa along the
// string s_ref (= 2 k + s on beam k, counted from 0), the force F and, `classic`, the moments
// m2, m3 about the slider's axes 2 and 3. Equations, scaled by 1/dCoef like every constraint:
//   F . l = 0,  x_c - x(s) = 0,  classic: e_b2 . l = 0,  e_b3 . l = 0,
// with M = m2 e_b2 x l + m3 e_b3 x l. `spline` is MBDyn 2024's: the unknowns m1 (about the
// tangent), m2, m3 and classic's two equations; the spline constraint itself is a FIXME there, so
// m1 and the third equation stay empty, the Jacobian is singular and the run stops in the
// derivatives phase, as MBDyn's does (M from m2, m3 as MBDyn's residual has it; MBDyn's Jacobian
// puts them one column early, ours differentiates the residual as written). The slider node gets F, M + R_b f x F; the beam node of
// the finite volume containing s gets -F and -(M + (x_c - x_node) x F), split between two
// nodes with weights dW (smearing) within +/- smearing of the volume boundary s = +/-1/sqrt(3).
// Past the ends of a beam (|s| > 1) the slider moves on to the next one (s -= 2) or the previous.
// The abscissa unknown starts at 0 (MBDyn sets no initial value for it); `initial beam` picks the
// current beam, `initial node` nothing the solution sees.
// The joint takes no part in the initial assembly (as MBDyn's).
// Friction (§2.8, as MBDyn 2023's BeamSliderJoint): sliding velocity v = v_rel . l/|l| with
// v_rel the velocity of the sliding point minus that of the line's material point, normal force
// |F|; the friction force -F3 l/|l| joins F in the loads of both sides (F_res = F - F3 l/|l|);
// .jnt columns F3, the friction coefficient and v after the standard ones.
#include <memory>
#include <tuple>
#include <vector>

#include "elements/beams/beam.hpp"
#include "elements/joints/friction.hpp"
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class BeamSlider final : public Joint {
 public:
  enum class Type { Spherical, Classic, Spline };
  /// One beam of the string with the offsets of the slider line from its three nodes.
  struct Segment {
    const Beam* beam = nullptr;
    std::array<Vec3, 3> f_N{};
    std::array<Mat3, 3> R_N{Mat3::Identity(), Mat3::Identity(), Mat3::Identity()};  ///< (.log only)
  };
  struct Params {
    Attachment slider;  ///< slider node, offset f and orientation R
    Type type = Type::Spherical;
    std::vector<Segment> beams;
    int initial_beam = 0;  ///< index in beams
    int initial_node = 2;  ///< 1, 2 or 3
    double smearing = 0.0;
    std::unique_ptr<JointFriction> friction;
  };
  BeamSlider(unsigned label, Params p);

  std::string_view type_name() const override { return "Beam slider"; }  // MBDyn's NetCDF type
  std::string log_line() const override;
  int dof_count() const override { return 4 + rotation_multipliers() + (p_.friction ? 1 : 0); }
  int initial_dof_count() const override { return 0; }  // beamslider.h
  DofOrder dof_order(int i) const override;
  void initial_state(Vector& y, Vector& yp) const override;
  /// beamslider.cc BeamSliderJoint::DescribeDof/DescribeEq.
  void describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  /// The current beam (moved on by the iterations), the converged values output and private data
  /// read, and the friction's memory, given back when a step is abandoned (core/element.hpp).
  void save_step_state() override;
  void restore_step_state() override;

 protected:
  Vec3 f_local() const override { return R_WJ_.transpose() * F_W_; }
  /// MBDyn writes the moment itself (global) as the "local" one and R_b M as the "global".
  Vec3 m_local() const override { return M_; }
  void output_extra(OutputSink& out, std::ostream& os) const override;
  void output_setup_extra(OutputSink& out, const std::string& base) override;
  void output_netcdf_extra(OutputSink& out) const override;

 private:
  OutputSink::VarId nc_beam_ = -1, nc_s_ref_ = -1, nc_l_ = -1, nc_FF_ = -1, nc_fc_ = -1, nc_v_ = -1;
  /// Everything the equations need at the current beam and abscissa.
  struct Geometry {
    std::array<StructNode*, 3> node{};
    std::array<Vec3, 3> f_W{}, xT{};  ///< R_i f_i and x_i + R_i f_i
    std::array<double, 3> N{}, dN{}, ddN{};
    Vec3 x, l, lp;                    ///< line point, tangent, d tangent / ds
    Mat3 R_b;                         ///< slider frame R_node R
    Vec3 f_b, x_c;                    ///< R_node f, the sliding point
    int active = 0;                   ///< 0-based first node receiving the reaction
    double dW[2] = {1.0, 0.0}, dW_s[2] = {0.0, 0.0};  ///< weights and their d/ds
  };
  /// Classic m2, m3; spline m1, m2, m3 (MBDyn's layout, m1 without equation).
  int rotation_multipliers() const { return p_.type == Type::Classic ? 2 : p_.type == Type::Spline ? 3 : 0; }
  /// Offset of m2 among the joint's unknowns (m3 follows).
  int m2_offset() const { return p_.type == Type::Spline ? 5 : 4; }
  Geometry geometry(const StepContext& c) const;
  Vec3 moment(const StepContext& c, const Geometry& g) const;
  /// Velocity of the sliding point minus that of the line's material point at s (friction).
  Vec3 relative_velocity(const Geometry& g) const;
  int friction_row() const { return first_index() + 4 + rotation_multipliers(); }

  Params p_;
  int current_ = 0;        ///< current beam
  double s_ref_ = 0.0;     ///< abscissa at the last converged point (output)
  Vec3 l_ = Vec3::Zero();  ///< tangent at the last converged point (output)
  Vec3 M_ = Vec3::Zero();
  double v_slide_ = 0.0;   ///< friction: sliding velocity at the last converged point
  /// What the iterations and after_convergence() change, as one assignable whole.
  auto step_memory() { return std::tie(current_, s_ref_, v_slide_, l_, M_, F_W_, M_W_, R_WJ_); }
  std::tuple<int, double, double, Vec3, Vec3, Vec3, Vec3, Mat3> saved_{};
};

}  // namespace mbl::elements
