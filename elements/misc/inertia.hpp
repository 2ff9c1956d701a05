#pragma once
// Inertia element (input manual §8.20.3): the equivalent inertia of a set of bodies, written to
// the .log (reference position X and orientation R of the card), and with `output, always`
// recomputed at every step and available as private data (X, Phi, V, Omega, J, Jcg, JP, m,
// beta, gamma).
#include <vector>

#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

/// Mass, centre of mass and inertia of one body at the current configuration (all in W).
struct MassProperties {
  double m = 0.0;
  Vec3 x_cm = Vec3::Zero();
  Vec3 v_cm = Vec3::Zero();
  Vec3 w = Vec3::Zero();        ///< angular velocity of the body
  Mat3 J_cm = Mat3::Zero();     ///< inertia about its own centre of mass
};

/// The mass properties of `e` if it is a body (rigid or variable mass), else false.
bool body_mass_properties(const Element& e, MassProperties& out);

/// What the inertia element reports (§8.20.3 "Private Data").
struct InertiaSummary {
  double m = 0.0;
  Vec3 x_cg = Vec3::Zero(), v_cg = Vec3::Zero(), w_cg = Vec3::Zero();
  Vec3 beta = Vec3::Zero();   ///< total momentum
  Vec3 gamma = Vec3::Zero();  ///< total momenta moment about the centre of mass
  Mat3 J_X = Mat3::Zero();    ///< inertia about the reference point, global axes
  Mat3 J_cg = Mat3::Zero();   ///< inertia about the centre of mass, global axes
  Vec3 J_p = Vec3::Zero();    ///< principal moments (ascending)
  Mat3 R_p = Mat3::Identity();///< principal axes (columns), a proper rotation
};
InertiaSummary combine(const std::vector<MassProperties>& parts, const Vec3& x_ref);

class Inertia final : public Element {
 public:
  enum class Log { No, Yes, Log, Both };
  Inertia(unsigned label, std::vector<const Element*> bodies, Vec3 x_ref, Mat3 R_ref, Log log, bool always);

  std::string_view kind() const override { return "inertia"; }
  std::string_view type_name() const override { return "Inertia"; }
  void residual(ResidualSink&, const StepContext&) override {}
  void jacobian(JacobianSink&, const StepContext&) override {}
  std::string log_line() const override;

  InertiaSummary summary() const;

  unsigned private_data_index(std::string_view name) const override;
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return always_ ? 40 : 0; }
  double private_data(unsigned i) const override;

 private:
  std::vector<const Element*> bodies_;
  Vec3 x_ref_;
  Mat3 R_ref_;
  Log log_;
  bool always_;
};

}  // namespace mbl::elements
