#pragma once
// Air properties (input manual §8.1.4): the airstream of the aerodynamic elements. Density and
// sound celerity are either given (a density drive and a constant celerity) or those of the
// standard atmosphere at the altitude z + z0 of the point (troposphere with a linear temperature
// gradient up to z1, isothermal above); the air speed is a TplDriveCaller<Vec3> in W, plus the
// gusts (MBDyn's aero/gust.cc and windprof.cc): front 1D, v = n g(V t - f.x), and the wind
// profiles, v = e1 f(z) with z = e3.(x - X0) in the reference frame (X0, R0): scalar function,
// power law and logarithmic. MBDyn keeps a single such element, label 1.
#include <functional>
#include <memory>
#include <vector>

#include "elements/drives/scalar_function.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {
class RigidBodyKinematics;
}

namespace mbl::elements::aero {

struct StandardAtmosphere {
  double p0 = 101325., T0 = 288.16, dT_dz = -6.5e-3, R = 287., g0 = 9.81, z1 = 11000., z2 = 25000.;
  DriveCallerPtr rho0;  ///< reference density
  double z0 = 0.;       ///< reference altitude added to the point's z
};

/// A velocity added to the airstream (MBDyn's Gust::GetVelocity): false where the gust adds
/// nothing (the wind profiles at or below their reference elevation's origin, z <= 0).
class Gust {
 public:
  virtual ~Gust() = default;
  virtual bool velocity(const Vec3& x_W, double t, Vec3& v_W) const = 0;
};
using GustPtr = std::shared_ptr<const Gust>;

/// `front 1D` (input manual §8.1.4): v = n g(V t - f.x).
struct FrontGust final : Gust {
  Vec3 front_W = Vec3::UnitX();        ///< f, direction the front moves along
  Vec3 perturbation_W = Vec3::UnitZ();  ///< n, direction of the velocity perturbation
  double front_speed = 0.;             ///< V
  DriveCallerPtr profile;              ///< g(V t - f.x)
  bool velocity(const Vec3& x_W, double t, Vec3& v_W) const override;
};

/// The wind profiles (windprof.cc): along axis 1 of R0, a function of the elevation z = e3.(x -
/// X0) along its axis 3 (eq. 8.2-8.7).
struct WindProfile : Gust {
  Vec3 x0_W = Vec3::Zero();     ///< `reference position` X0
  Mat3 R0_W = Mat3::Identity();  ///< `reference orientation` R0
  double elevation(const Vec3& x_W) const { return R0_W.col(2).dot(x_W - x0_W); }
};

/// `scalar function`: v = e1 sf(z), at any z.
struct ScalarFunctionWindProfile final : WindProfile {
  drives::ScalarFunctionPtr f;
  bool velocity(const Vec3& x_W, double t, Vec3& v_W) const override;
};

/// `power law`: v = e1 v_ref (z / z_ref)^exponent for z > 0.
struct PowerLawWindProfile final : WindProfile {
  double z_ref = 0., exponent = 0.;
  DriveCallerPtr v_ref;
  bool velocity(const Vec3& x_W, double t, Vec3& v_W) const override;
};

/// `logarithmic`: v = e1 v_ref log(z / z0) / log(z_ref / z0) for z > 0 (MBDyn's psi_m = 0).
struct LogarithmicWindProfile final : WindProfile {
  double z_ref = 0., roughness = 0.;  ///< z_ref and the surface roughness length z0
  DriveCallerPtr v_ref;
  bool velocity(const Vec3& x_W, double t, Vec3& v_W) const override;
};

class AirProperties final : public Element {
 public:
  /// Given density drive and sound celerity.
  AirProperties(DriveCallerPtr density, double sound_celerity, std::function<Vec3(double)> air_speed_W);
  /// Standard atmosphere.
  AirProperties(StandardAtmosphere atmosphere, std::function<Vec3(double)> air_speed_W);

  std::string_view kind() const override { return "air properties"; }
  std::string_view type_name() const override { return "AirProperties"; }
  /// Evaluates the air speed drive once per residual assembly (what the private data show; the
  /// drive may itself read them through a bound parameter, as MBDyn's Dryden gust deck does).
  void residual(ResidualSink&, const StepContext& c) override;
  void jacobian(JacobianSink&, const StepContext&) override {}

  /// .air line: label 1, density and sound celerity at the origin, air speed (without gusts).
  void output(OutputSink& out) const override;

  void add_gust(GustPtr g) { gusts_.push_back(std::move(g)); }
  /// Density and sound celerity at x_W, time t.
  void properties(const Vec3& x_W, double t, double& rho, double& sound_celerity) const;
  /// The air's state at x_W, time t: with the given density, pressure and temperature are -1
  /// (MBDyn's BasicAirProperties knows neither).
  struct State {
    double rho, sound_celerity, pressure, temperature;
  };
  State state(const Vec3& x_W, double t) const;
  /// Airstream velocity at x_W, time t (gusts included); under `rigid body kinematics` as seen
  /// from the moving frame (its velocity at the point subtracted, as MBDyn's AirProperties).
  Vec3 velocity(const Vec3& x_W, double t) const;
  void setup(Model& m) override;

  /// "vxinf", "vyinf", "vzinf", "vinf": the air speed drive without gusts.
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return 4; }
  double private_data(unsigned i) const override;

 private:
  bool standard_ = false;
  DriveCallerPtr density_;
  double sound_celerity_ = 0.;
  StandardAtmosphere atmosphere_;
  std::function<Vec3(double)> air_speed_W_;
  std::vector<GustPtr> gusts_;
  double t_ = 0.;
  Vec3 speed_W_ = Vec3::Zero();  ///< the air speed drive at the last residual assembly
  const RigidBodyKinematics* moving_frame_ = nullptr;
};

}  // namespace mbl::elements::aero
