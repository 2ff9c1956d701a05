#pragma once
// Aircraft instruments (input manual §8.1.3): the measures a pilot's instruments would show for the
// aircraft represented by a structural node, in a flat "world" with z up and x north; the aircraft
// frame R = R_WN R_h has x tail to nose, y to the right, z top to bottom (`orientation`,
// `flight mechanics` = I, `aeroelasticity` = diag(-1, 1, -1)). No equations: the measures are
// updated with each residual assembly (as MBDyn does) and offered as private data (bind, element
// drives) and as one .aer line per output step. The airspeed subtracts the airstream at the node.
// Formulas as MBDyn 2024 computes them:
//   attitude = asin(e1_z), bank = asin(-e2_z) (a jump of pi/2 from the previous evaluation is
//   carried on), turn = 60 w_z, angle of attack = -atan2(v_b3, v_b1), sideslip = -atan2(v_b2, v_b1)
//   (v_b = R^T (v - v_air); both 0 below 1e-6 airspeed), heading = -atan2(e1_y, e1_x) in
//   [0, 2 pi), longitude = lon0 - (y - y0) / R_e, latitude = lat0 + (x - x0) / R_e (folded back
//   into [-pi, pi] and [-pi/2, pi/2]), rates = R^T w; body accelerations (dynamic nodes) are the
//   node's accelerations in the global frame, as MBDyn 2024 stores them.
#include <array>
#include <string_view>

#include "mbdyn-like/core/element.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl::elements::aero {

class AirProperties;

class AircraftInstruments final : public Element {
 public:
  /// MBDyn's measures, numbered as its private data (1-based) and in the order of the .aer line.
  enum Measure {
    Airspeed = 1, Groundspeed, Altitude, Attitude, Bank, Turn, Slip, VerticalSpeed, AngleOfAttack, Heading,
    InitX1, InitX2, InitLongitude, Longitude, InitLatitude, Latitude, RollRate, PitchRate, YawRate,
    BodyAccX, BodyAccY, BodyAccZ, BodyAccP, BodyAccQ, BodyAccR, BodyVx, BodyVy, BodyVz,
    Density, SoundCelerity, StaticPressure, Temperature, MeasureEnd
  };

  struct Params {
    const StructNode* node = nullptr;
    Mat3 R_NA = Mat3::Identity();  ///< the aircraft frame in the node's
    double initial_latitude = 0., initial_longitude = 0.;
    double earth_radius = 6371005.;
  };

  AircraftInstruments(unsigned label, const Params& p);

  std::string_view kind() const override { return "aerodynamic"; }
  std::string_view type_name() const override { return "AircraftInstruments"; }
  bool netcdf_listed() const override { return false; }  // MBDyn writes no NetCDF for it
  void setup(Model& m) override;
  void residual(ResidualSink&, const StepContext& c) override { update(c.t); }
  void jacobian(JacobianSink&, const StepContext&) override {}
  void output(OutputSink& out) const override;

  unsigned private_data_index(std::string_view name) const override;
  /// instruments.cc AircraftInstruments: one name per measure (the lookup also takes
  /// "sideslip", "aoa" and any letter case).
  DatumInfo private_data_info(unsigned i) const override;
  unsigned private_data_count() const override { return MeasureEnd - 1; }
  double private_data(unsigned i) const override { return i >= 1 && i < MeasureEnd ? measure_[i] : 0.0; }

 private:
  void update(double t);
  /// Folds longitude and latitude back into their ranges as MBDyn does.
  void normalise_geo_coordinates();
  bool dynamic_node() const;

  Params p_;
  const AirProperties* air_ = nullptr;
  std::array<double, MeasureEnd> measure_{};
  double attitude_prev_ = 0., bank_prev_ = 0.;  ///< the previous evaluation's asin values
};

}  // namespace mbl::elements::aero
