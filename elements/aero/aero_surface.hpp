#pragma once
// What the aerodynamic body and beams share (input manual §8.1.1): the surface data after the
// connectivity, the links to the air properties and to an induced velocity element, the
// sectional loads at one integration point and the .aer output.
//
// At an integration point with surface frame R_W0 (axis 1 forward along the chord, 2 up, 3
// along the span, before twist), position x, velocity v and angular velocity w of the surface,
// the section velocity relative to the air is V_r = v - v_air(x) + v_induced(x); the twist (plus
// the control drive) turns the frame about axis 3, nose up; the airfoil (airfoil.hpp) gives the
// load per unit span in that frame, the tip-loss shape scaling its normal force.
#include <utility>
#include <tuple>
#include <vector>

#include "elements/aero/airfoil.hpp"
#include "elements/aero/induced_velocity.hpp"
#include "elements/aero/theodorsen.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements::aero {

class AirProperties;

/// What every aerodynamic element shares (the arguments after the connectivity).
struct AeroSurfaceParams {
  Shape1D chord, force_point, bc_point, twist, tip_loss;
  int points = 1;
  DriveCallerPtr control;  ///< added to the twist; null when absent
  AirfoilData airfoil;     ///< tables at each integration point (of every block)
  bool jacobian = false;
  bool theodorsen = false;  ///< two states per point (theodorsen.hpp)
  bool bielawa = false;     ///< `unsteady, bielawa` (c81 airfoils; airfoil.hpp)
  enum class Output { Std, Gauss, Node } output = Output::Std;
  bool has_induced_velocity = false;
  unsigned induced_velocity_label = 0;
  bool passive = false;  ///< reads the induced velocity but does not send loads to it
};

class AeroSurface : public Element {
 public:
  std::string_view kind() const override { return "aerodynamic"; }
  void setup(Model& m) override;
  const SectionOutput& section(int i) const { return out_[i]; }
  void set_output_style(AeroSurfaceParams::Output o) { p_.output = o; }
  /// Theodorsen: two differential states per integration point.
  int dof_count() const override { return p_.theodorsen ? 2 * static_cast<int>(out_.size()) : 0; }
  DofOrder dof_order(int) const override { return DofOrder::Differential; }
  void after_convergence(const StepContext& c) override;
  /// The unsteady models' histories as the step began (core/element.hpp).
  void save_step_state() override { saved_ = {history_, alpha_history_, converged_steps_, prev_time_}; }
  void restore_step_state() override {
    std::tie(history_, alpha_history_, converged_steps_, prev_time_) = saved_;
  }

 protected:
  /// `blocks` groups of `p.points` Gauss points (one per beam portion; 1 for the body).
  AeroSurface(unsigned label, AeroSurfaceParams p, int blocks);

  /// Section frame at point i: R_W0 turned by the twist at span coordinate xi (plus control).
  Mat3 section_frame(const Mat3& R_W0, double xi, double t) const;
  /// Section velocity (airfoil frame) at point i.
  Vec6d section_velocity(const Mat3& R_WS, const Vec3& Vr_W, const Vec3& w_W) const;
  /// Airstream and induced velocity at x_W: v_induced - v_air.
  Vec3 air_relative(const Vec3& x_W, double t) const;
  /// Load per unit span (airfoil frame) at point i for section velocity W at time t; xi: span
  /// coordinate of the shapes, xi_tip: that of the tip-loss shape; records the .aer data of the
  /// point (and, under `unsteady, bielawa`, its angle of attack at t).
  Vec6d section_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, double t,
                      bool record);
  /// The same with Theodorsen states q at point i (time t, not recorded unless `record`); g
  /// receives the states' rates.
  Vec6d theodorsen_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, double t,
                         const std::array<double, 2>& q, std::array<double, 2>& g, bool record);
  /// The states of point i in y.
  std::array<double, 2> states(const Vector& y, int i) const {
    return {y[first_index() + 2 * i], y[first_index() + 2 * i + 1]};
  }
  void send_to_induced_velocity(const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) const;
  /// The load of one integration point, at the point, to an induced velocity that takes sectional
  /// loads (aeroelem.cc AddSectionalForce_int); send_to_induced_velocity sends to the others.
  void send_section_to_induced_velocity(const Vec3& F_W, const Vec3& M_W, const Vec3& x_W) const;

  /// `jacobian, yes` (steady airfoils): MBDyn's sectional Jacobian (aerodata.cc
  /// GetForcesJacForwardDiff_int): the loads T0 at W and forward differences dT/dW with steps
  /// 1e-3 |v| + 1e-9 (velocity columns) and 1e-3 |w| + 1e-9 (angular velocity columns); neither
  /// has the tip loss (MBDyn's AssVec applies it, its AssJac does not).
  void section_loads_jacobian(int i, double xi, const Vec6d& W, double rho, double c, double t, Vec6d& T0,
                              Mat6& JT);
  /// A node's share of an integration point in MBDyn's linearisation of the surface loads
  /// (aeroelem.cc AerodynamicBeam::AssJac, AerodynamicBeam2::AssJac, AerodynamicBody::AssJac).
  struct JacobianNode {
    Vec3 f_W;     ///< offset of the surface from the node (world)
    Vec3 w_W;     ///< angular velocity of the node
    double N;     ///< shape function at the point
    Mat3 Theta;   ///< d(section frame rotation)/d(node rotation): beam3 R_2 Gamma(g) Gamma(g_k)^-1 R_2^T N_k, else N_k I
  };
  /// Adds the point's dF/dy' + dCoef dF/dy and dM/dy' + dCoef dM/dy (MBDyn's WM_F, WM_M; the
  /// Jacobian receives them negated) of the force and of the moment about the node `own` (arm d
  /// from it) to dF[2k], dM[2k] (node k's position) and dF[2k+1], dM[2k+1] (node k's rotation);
  /// R_WS, Vr, wr, weight: the point's frame, relative velocity, angular velocity and weight.
  static void add_point_jacobian(const Mat3& R_WS, const Vec6d& T0, const Mat6& JT, double weight, const Vec3& Vr,
                                 const Vec3& wr, const Vec3& d, int own, const JacobianNode* nodes, int count,
                                 double dCoef, Mat3* dF, Mat3* dM);
  /// The std / Gauss columns of the .aer line (node output is the element's own).
  void write_points(OutputSink& out, std::ostream& os) const;

  AeroSurfaceParams p_;
  std::vector<double> xi_, w_;  ///< Gauss points and weights on [-1, 1]
  const AirProperties* air_ = nullptr;
  InducedVelocity* induced_ = nullptr;

 private:
  /// What section_loads and theodorsen_loads share: the section data at xi, the airfoil's load
  /// forces(s, out) (out: point i's .aer data when recording), the tip loss at xi_tip and, when
  /// recording, point i's Gauss output.
  template <class Forces>
  Vec6d airfoil_loads(int i, double xi, double xi_tip, const Vec6d& W, double rho, double c, bool record,
                      Forces&& forces);

  std::vector<SectionOutput> out_;
  bool tip_loss_on_ = true;  ///< off while section_loads_jacobian evaluates
  /// Per point: wind angle (deg) and (T2, T1, M3) of the section loads per unit span.
  std::vector<std::pair<double, Vec3>> gauss_out_;
  std::vector<TheodorsenHistory> history_;
  /// `unsteady, bielawa`: per point the angles of attack (rad) at the last two converged times
  /// and at the latest evaluation, and those times (MBDyn's AeroMemory).
  struct AlphaHistory {
    std::array<double, 3> alpha{}, time{};
  };
  std::vector<AlphaHistory> alpha_history_;
  int converged_steps_ = 0;
  /// The rates of the quadratic through the history, the last point replaced by (t, alpha);
  /// zero until three steps have converged.
  AlphaRates alpha_rates(int i, double alpha, double t) const;
  double prev_time_ = 0.;
  std::tuple<std::vector<TheodorsenHistory>, std::vector<AlphaHistory>, int, double> saved_;
};

}  // namespace mbl::elements::aero
