#pragma once
// Geometrically exact finite-volume beams (input manual §8.3, technical manual §10.1): the
// three-node `beam3` (evaluation points I, II at xi = -1/sqrt(3), +1/sqrt(3)) and the two-node
// `beam2` (evaluation point I at xi = 0).
//
// Each beam point i is node i plus an offset f_i (node frame). At an evaluation point s the
// position p, its arc-length derivative l = dp/ds and the rotation increment g are interpolated
// with the Lagrange shape functions N_i(xi) of the nodes; the section orientation is
// R_s = R(sum N_i g_i) R_ref_s, where g_i is node i's incremental rotation and R_ref_s the
// section orientation at the start of the Newton corrections. Generalised strains, in the section
// frame:
//     eps   = R_s^T l - L0_s                       (L0_s: the same in the reference configuration)
//     kappa = R_s^T G(g_s) g_s' + kappa_ref_s      (g_s' = sum N_i' g_i, curvature accumulated)
// and, for viscous laws, the strain rates
//     eps_dot   = R_s^T (l_dot + l x omega_s),     omega_s = G(g_s) g_s_dot + R(g_s) omega_ref_s
//     kappa_dot = R_s^T (G(g_s) g_s_dot' + G_dot g_s + (G(g_s) g_s') x omega_s) + kappa_dot_ref_s
// (MBDyn's ViscoElasticBeam). The reference configuration is stress free to the last bit: L0_s
// is R_s^T l computed as every residual computes it (MBDyn's shape function values, InterpDeriv's
// order of operations, Beam::DsDxi). The 6D section law gives the internal force and
// moment (F, M) in the section frame; the finite volume of node j is bounded by the evaluation
// points around it, so node j receives +/-(F, M + (p_s - x_j) x F) from each bounding point.
//
// The residual is exact. The Jacobian is MBDyn's updated-updated linearisation (technical manual
// §10.1, "strain linearization"): the strain derivatives and the section law are rotated with the
// Newton reference R_ref_s (not with R_s = R(g_s) R_ref_s), and the derivative of G(g_s) in the
// curvature is dropped. Both are exact at g = 0 and first order in g otherwise; keeping them
// out reproduces MBDyn's Newton iteration counts (lateral buckling, seed 000 §5).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "elements/beams/beam_custom_output.hpp"
#include "mbdyn-like/core/constitutive_law.hpp"
#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements {

/// One beam point: the node, the offset of the reference line in the node frame, and the
/// optional orientation relative to the node (used by `from nodes`).
struct BeamPoint {
  StructNode* node = nullptr;
  Vec3 offset_N = Vec3::Zero();
  Mat3 R_NP = Mat3::Identity();
};

/// One evaluation point: orientation of the section frame in W (or interpolated from the
/// points' orientations when `from_nodes`), and its 6D constitutive law.
struct BeamSection {
  bool from_nodes = false;
  Mat3 R_WS = Mat3::Identity();
  std::unique_ptr<ConstitutiveLaw6D> law;
  /// `piezoelectric actuator` (input manual §8.3.2): 6 x N matrix of the section's (F, M) per
  /// electrode voltage, added to the law's internal forces; empty without electrodes.
  Eigen::Matrix<double, 6, Eigen::Dynamic> piezo;
};

class AbstractNode;

/// Lagrange shape functions of the beam points and their xi-derivatives: points at xi = -1, 0, 1
/// (three nodes) or -1, 1 (two nodes; N[2] = 0).
void beam_shape_functions(int nn, double xi, std::array<double, 3>& N, std::array<double, 3>& dN_dxi);

class Beam : public Element {
 public:
  /// 2 points and 1 section (beam2) or 3 points and 2 sections (beam3).
  /// `electrodes`: the abstract nodes whose values are the voltages of the sections' `piezo`
  /// matrices (one column each).
  Beam(unsigned label, std::vector<BeamPoint> points, std::vector<BeamSection> sections,
       std::vector<const AbstractNode*> electrodes = {});

  std::string_view kind() const override { return "beam"; }
  std::string_view type_name() const override { return viscous_ ? "viscoelastic" : "elastic"; }
  int node_count() const { return nn_; }
  StructNode& node(int i) const { return *pt_[i].node; }
  int section_count() const { return ns_; }
  bool viscous() const { return viscous_; }

  void setup(Model&) override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void after_convergence(const StepContext& c) override;
  /// The sections' converged orientations and curvatures and the nodes' converged orientations
  /// (the reference after_predict() moves the sections from) and the laws' memory.
  void save_step_state() override {
    for (BeamSection& s : sections_) s.law->save_step_state();
    saved_sec_ = sec_;
    saved_R_node_conv_ = R_node_conv_;
  }
  void restore_step_state() override {
    for (BeamSection& s : sections_) s.law->restore_step_state();
    sec_ = saved_sec_;
    R_node_conv_ = saved_R_node_conv_;
    evaluated_valid_ = false;
  }
  void after_predict(const StepContext& c) override;

  void output_setup(OutputSink&) override;
  void output(OutputSink&) const override;
  std::string log_line() const override;
  /// `custom output` (beam_custom_output.hpp): beam_output::k* bits and the orientation format.
  void set_custom_output(unsigned flags, StructNode::OrientationOutput orientation) {
    custom_output_ = flags;
    orientation_output_ = orientation;
  }

  // Private data (input manual §8.3.2): "pI.ex" ... numbered 1..27 for point I, 28..54 for II;
  // beam2 also accepts the names without prefix.
  unsigned private_data_index(std::string_view name) const override;
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 27u * static_cast<unsigned>(ns_); }
  double private_data(unsigned index) const override;

  /// Internal force and moment at section s in the section frame (after the last evaluation).
  Vec6 section_force(int s) const { return sec_[s].az_S; }
  /// Generalised strains (eps, kappa) at section s.
  Vec6 section_strain(int s) const { return sec_[s].def; }

 private:
  static constexpr int kMaxNodes = 3;
  static constexpr int kMaxSections = 2;

  struct SectionState {
    std::array<double, kMaxNodes> N{}, dN{};  ///< shape functions and d/ds at this point
    std::array<double, kMaxNodes> dN_dxi{};    ///< d/dxi of the shape functions
    double ds_dxi_inv = 1.0;                   ///< dxi/ds in the reference configuration
    Mat3 R_ref = Mat3::Identity();           ///< section orientation at the Newton reference
    Mat3 R_conv = Mat3::Identity();          ///< ... at the last converged point
    Vec3 L0 = Vec3::Zero();                  ///< R^T l in the reference configuration
    Vec3 kappa_ref = Vec3::Zero(), kappa_conv = Vec3::Zero();
    Vec3 w_ref = Vec3::Zero();               ///< section angular velocity at the reference
    Vec3 kappa_dot_ref = Vec3::Zero();
    // ---- last evaluation -----------------------------------------------------------------------
    Vec3 p = Vec3::Zero(), l = Vec3::Zero(), l_dot = Vec3::Zero();
    Vec3 g = Vec3::Zero(), g_s = Vec3::Zero(), gd = Vec3::Zero(), gd_s = Vec3::Zero();
    Mat3 R = Mat3::Identity();
    Vec3 w = Vec3::Zero();
    Vec6 def = Vec6::Zero(), def_dot = Vec6::Zero();
    Vec6 az_S = Vec6::Zero();  ///< (F, M) in the section frame
    Vec3 F_W = Vec3::Zero(), M_W = Vec3::Zero();
  };

  /// MBDyn's shape functions and their d/dxi at evaluation point s (shapefnc.cc).
  static void section_shape_functions(int nn, int s, std::array<double, 3>& N, std::array<double, 3>& dN_dxi);
  /// sum_i N_i v_i and (sum_i N_i,xi v_i) dxi/ds at a section, in MBDyn's order of operations
  /// (InterpState, InterpDeriv), so that the reference strains are exactly zero.
  Vec3 interpolate(const SectionState& S, const std::array<Vec3, kMaxNodes>& v) const;
  Vec3 interpolate_derivative(const SectionState& S, const std::array<Vec3, kMaxNodes>& v) const;
  /// Node kinematics used by the beam: g and g' of node i (zero for nodes without unknowns).
  void node_increments(const StepContext& c, int i, Vec3& g, Vec3& gd) const;
  /// Evaluates positions, strains, rates and the law at every section; nothing when its inputs
  /// are bit for bit those of the last evaluation (the Jacobian and the converged state follow a
  /// residual at the same iterate).
  void evaluate(const StepContext& c);
  /// Values of the piezoelectric electrodes (voltages).
  Eigen::VectorXd electrode_voltages() const;
  /// Sign of section s's force on node j (finite volume boundaries), 0 if unrelated.
  int side(int j, int s) const;

  int nn_, ns_;
  bool viscous_ = false;
  std::array<BeamPoint, kMaxNodes> pt_;
  std::vector<BeamSection> sections_;
  std::vector<const AbstractNode*> electrodes_;
  std::array<SectionState, kMaxSections> sec_;
  std::array<Mat3, kMaxNodes> R_node_conv_;  ///< node orientations at the last converged point
  std::array<SectionState, kMaxSections> saved_sec_;  ///< sec_ and R_node_conv_ as the step began
  std::array<Mat3, kMaxNodes> saved_R_node_conv_;
  double t_ = 0.0;
  unsigned custom_output_ = beam_output::kDefault;
  StructNode::OrientationOutput orientation_output_ = StructNode::OrientationOutput::Euler123;
  /// NetCDF ids per section: X, orientation, F, M, nu, k, nuP, kP (-1: not written).
  std::array<std::array<int, 8>, kMaxSections> nc_{};
  /// What the last evaluation read (the points' positions and velocities, the nodes' increments,
  /// the time); invalid after a change of the sections' references or of the laws' memory.
  struct EvaluationInputs {
    std::array<Vec3, kMaxNodes> p, u, g, gd;
    double t;
  };
  EvaluationInputs evaluated_{};
  bool evaluated_valid_ = false;
};

}  // namespace mbl::elements
