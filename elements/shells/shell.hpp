#pragma once
// Four-node shells `shell4eas` and `shell4easans` (input manual §8.15.1, technical manual ch. 11):
// a 6-field shell (membrane/shear strains eps_k and curvatures kappa_k along the two arc-length
// coordinates s_1, s_2 of the surface, each a 3-vector in the local frame) with EAS enhancement of
// the four membrane strains by 7 internal parameters beta (the element's own algebraic unknowns)
// and assumed natural shear strains sampled at the mid-sides (ANS, §11.5.5). The manual reserves
// ANS for `shell4easans`, but the real MBDyn's `shell4eas` results are those of the ANS shear
// (the fully integrated shear locks: a 1x5 cantilever strip comes out 300 times stiffer), so both
// cards build the same element and differ only in their name.
//
// Kinematics (technical manual §11.5): node n carries a triad T_n = R_n iTa_n, with iTa_n fixed in
// the node frame from the surface tangents of the initial geometry. The reference orientation
// T = Rot(VecRot(mean T_n)) gives nodal rotation vectors phi_n = VecRot(T^T T_n), interpolated with
// the bilinear shape functions L_n; at a point xi the orientation is T(xi) = T Rot(phi(xi)), and
//     eps_k   = T(xi)^T y_,k - e_k,                     y_,k = sum L_n,k y_n
//     kappa_k = Rot(phi)^T Gamma(phi) phi_,k - (the same in the initial configuration).
// Variations are taken with T held fixed (eq. 11.43), as the technical manual does.
// The generalised forces sigma = D (eps + P beta) + prestress (fluxes n_1, n_2, m_1, m_2) are
// integrated with 2x2 Gauss points; the residual is -sum B^T sigma alpha w for the nodes and
// -sum P^T sigma alpha w for beta (eqs. 11.89, 11.90).
//
// The strain derivatives B are computed exactly (closed-form derivatives of the strain
// evaluation, shell.cpp). The Jacobian is the exact tangent of these forces: with T held fixed,
// sum alpha B^T D B plus the geometric term (second derivatives of the strains at fixed stresses),
// in closed form; the variation of T with the nodal spins from the forces' invariance under a
// rigid rotation of the element, with T's derivative w.r.t. each spin in closed form
// (reference_frame_derivative); the beta blocks analytical (eqs. 11.81-11.83).
// (MBDyn's own shell Jacobian is analytical too, eqs. 11.81-11.83 with its geometric terms.)
#include <array>
#include <string>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Vec7 = Eigen::Matrix<double, 7, 1>;
using Vec24 = Eigen::Matrix<double, 24, 1>;

namespace shell_kinematics {
/// Rot(phi) = exp(phi x) = I + a phi x + b (phi x)^2 and Gamma(phi) = I + b phi x + c (phi x)^2
/// (d Rot Rot^T = (Gamma d phi) x), with a = sin(p)/p, b = (1 - cos p)/p^2, c = (p - sin p)/p^3
/// as functions of t2 = |phi|^2 (series near zero), and db/dt2, dc/dt2 for the derivative of
/// Gamma^T v (the curvature's).
struct RotationTerms {
  Mat3 R, Gamma;
  double t2 = 0.0, b = 0.0, c = 0.0, db = 0.0, dc = 0.0;
};


/// The interpolated kinematics at a point: rotation vector phi and its arc-length derivatives
/// phi_,k, position derivatives y_,k, Rt = Rot(phi), Gamma(phi), T(xi) = T Rt, w_k = T^T y_,k.
struct PointState {
  Vec3 phi;
  std::array<Vec3, 2> phi_s, y_s, w;
  RotationTerms rt;
  Mat3 T_xi;
};
}  // namespace shell_kinematics

/// The shell's linear elastic law (input manual eq. 8.80): fluxes = D strains + prestress, in the
/// order (n_11, n_12, n_13, n_21, n_22, n_23, m_11, ..., m_23).
struct ShellLaw {
  Mat12 D = Mat12::Zero();
  Vec12 prestress = Vec12::Zero();
};

class Shell4 : public Element {
 public:
  /// Nodes in the order of figure 8.12 (counterclockwise from xi = (+1, +1)); `ans` names the
  /// card (shell4easans), the formulation is the same.
  Shell4(unsigned label, std::array<StructNode*, 4> nodes, ShellLaw law, bool ans);

  std::string_view kind() const override { return "plate"; }
  std::string_view type_name() const override { return ans_ ? "Shell4EASANS" : "Shell4EAS"; }
  bool ans() const { return ans_; }

  int dof_count() const override { return 7; }
  int initial_dof_count() const override { return 0; }  // MBDyn's EAS shells and membranes (shelleas.h, membraneeas.h)

  void setup(Model&) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;
  /// The .pla line (MBDyn's Shell4EAS(ANS)::Output): label, then the 12 generalised forces of
  /// each of the 4 Gauss points.
  void output(OutputSink& out) const override;

  /// Generalised strains (with enhancement) and forces at Gauss point g (after the last evaluation).
  const ShellLaw& law() const { return law_; }
  const Vec12& gauss_strain(int g) const { return eps_t_[g]; }
  const Vec12& gauss_force(int g) const { return sigma_[g]; }

 private:
  /// Node positions and orientations the element is evaluated at.
  struct NodeStates {
    std::array<Vec3, 4> x;
    std::array<Mat3, 4> R;
  };
  /// A sampling point: natural coordinates, shape functions and arc-length derivatives,
  /// area ratio alpha = det S, initial curvatures.
  struct Point {
    double xi1 = 0.0, xi2 = 0.0;
    std::array<double, 4> L{};
    std::array<std::array<double, 2>, 4> dL_ds{};
    double alpha = 0.0;
    std::array<Vec3, 2> kappa0{Vec3::Zero(), Vec3::Zero()};
    Eigen::Matrix<double, 12, 7> P = Eigen::Matrix<double, 12, 7>::Zero();  ///< EAS (Gauss points)
  };
  /// Strains at the Gauss points and their derivatives w.r.t. the 24 nodal variations
  /// (delta y_n, spin phi_n) at the given states.
  struct Strains {
    std::array<Vec12, 4> eps;
    std::array<Eigen::Matrix<double, 12, 24>, 4> B;
  };

  /// The reference frame T (eqs. 11.35, 11.36; held fixed in the variations), the nodal rotation
  /// vectors phi_n = VecRot(T^T T_n) and the maps from the nodes' spins to their variations,
  /// d phi_n = Gamma(phi_n)^-1 T^T spin_n (eq. 11.43).
  struct Frame {
    Mat3 T;
    std::array<Vec3, 4> phi;
    std::array<Mat3, 4> dphi_dspin;
  };

  /// The kinematics at the Gauss points and at the mid-sides.
  struct PointStates {
    std::array<shell_kinematics::PointState, 4> gauss, mid;
  };

  /// One evaluation of the internal forces: the state it was made at, the frame, the point
  /// kinematics and the forces. residual() and jacobian() of one iterate share it.
  struct Evaluation {
    NodeStates s;
    Vec7 beta;
    Frame f;
    PointStates ps;
    Vec24 f_q;
    Vec7 f_b;
    bool valid = false;
  };
  /// The evaluation at the current state (kept: the output's strains and forces are its own).
  const Evaluation& evaluate(const StepContext& c);

  NodeStates current_states() const;
  PointStates point_states(const NodeStates& s, const Frame& f) const;
  /// The nodal triads T_n = R_n iTa_n.
  std::array<Mat3, 4> triads(const NodeStates& s) const;
  Frame frame(const NodeStates& s) const;
  Vec7 beta(const StepContext& c) const;
  Strains strains(const PointStates& ps, const Frame& f) const;
  /// Derivative of the internal forces (24 nodal, 7 beta) w.r.t. the nodal positions and spins
  /// with T held fixed: sum alpha B^T D B plus the geometric term (the Hessian of the virtual work
  /// sum alpha sigma . eps at fixed sigma); `f_q` are the internal forces at this state.
  void fixed_frame_tangent(const PointStates& ps, const Frame& f, const Strains& st, const Vec24& f_q,
                           Eigen::Matrix<double, 24, 24>& K_qq, Eigen::Matrix<double, 7, 24>& K_bq) const;
  /// Internal nodal forces (24) and beta forces (7); keeps the strains and forces for output.
  void internal_forces(const PointStates& st, const Frame& f, const Vec7& beta, Vec24& f_q, Vec7& f_b);

  std::array<StructNode*, 4> nodes_;
  ShellLaw law_;
  bool ans_;
  std::array<Mat3, 4> iTa_;
  std::array<Point, 4> gauss_;
  std::array<Point, 4> mid_;  ///< ANS shear sampling points a, b, c, d
  std::array<Vec12, 4> eps_t_{}, sigma_{};
  Evaluation last_;
};

}  // namespace mbl::elements
