#include "elements/aero/aircraft_instruments.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <string>

#include "elements/aero/air_properties.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::elements::aero {
namespace {

constexpr double kTolerance = 1e-6;  // MBDyn's threshold for the angles (single precision)

double sign_of(double x) { return static_cast<double>((x > 0.0) - (x < 0.0)); }

/// asin of the current value, carried on by pi/2 when it jumps by (about) pi/2 from the previous
/// evaluation (MBDyn's attitude and bank).
double continued_angle(double s, double& previous) {
  const double current = std::asin(s);
  const double shown = std::abs(current - previous) >= M_PI_2 - kTolerance ? current + sign_of(previous) * M_PI_2 : current;
  previous = current;
  return shown;
}

}  // namespace

AircraftInstruments::AircraftInstruments(unsigned label, const Params& p) : Element(label), p_(p) {
  measure_[InitLatitude] = p_.initial_latitude;
  measure_[InitLongitude] = p_.initial_longitude;
  const Vec3& x0 = p_.node->initial().x_W;
  measure_[InitX1] = x0.x();
  measure_[InitX2] = x0.y();
}

void AircraftInstruments::setup(Model& m) {
  air_ = dynamic_cast<const AirProperties*>(m.find_element("air properties", 1));
  if (!air_) throw std::invalid_argument("aerodynamic elements need the air properties card");
}

bool AircraftInstruments::dynamic_node() const {
  return p_.node->type() == StructNode::Type::Dynamic || p_.node->type() == StructNode::Type::Modal;
}

void AircraftInstruments::update(double t) {
  const StructNode& n = *p_.node;
  const Vec3& x = n.x_W();
  const Mat3 R = n.R_WN() * p_.R_NA;
  const Vec3& v = n.v_W();
  const Vec3& w = n.w_W();
  const Vec3 e1 = R.col(0), e2 = R.col(1);
  const Vec3 v_air = v - air_->velocity(x, t);  // relative to the airstream at the node

  const AirProperties::State air = air_->state(x, t);
  measure_[Density] = air.rho;
  measure_[SoundCelerity] = air.sound_celerity;
  measure_[StaticPressure] = air.pressure;
  measure_[Temperature] = air.temperature;

  measure_[Airspeed] = v_air.norm();
  measure_[Groundspeed] = Vec3(v.x(), v.y(), 0.0).norm();
  measure_[Altitude] = x.z();
  measure_[Attitude] = continued_angle(e1.z(), attitude_prev_);
  measure_[Bank] = continued_angle(-e2.z(), bank_prev_);
  measure_[Turn] = 60.0 * w.z();  // rad/min
  measure_[VerticalSpeed] = v_air.z();

  const Vec3 v_body = R.transpose() * v_air;
  const bool still = measure_[Airspeed] < kTolerance;
  measure_[AngleOfAttack] = still ? 0.0 : -std::atan2(v_body.z(), v_body.x());
  measure_[Slip] = still ? 0.0 : -std::atan2(v_body.y(), v_body.x());
  measure_[BodyVx] = v_body.x();
  measure_[BodyVy] = v_body.y();
  measure_[BodyVz] = v_body.z();

  double heading = std::abs(e1.y()) <= kTolerance && std::abs(e1.x()) <= kTolerance ? 0.0 : -std::atan2(e1.y(), e1.x());
  while (heading < 0.0) heading += 2.0 * M_PI;
  measure_[Heading] = heading;

  // The world's y points west: the longitude grows eastward, toward -y.
  measure_[Longitude] = measure_[InitLongitude] - (x.y() - measure_[InitX2]) / p_.earth_radius;
  measure_[Latitude] = measure_[InitLatitude] + (x.x() - measure_[InitX1]) / p_.earth_radius;
  normalise_geo_coordinates();

  const Vec3 rates = R.transpose() * w;
  measure_[RollRate] = rates.x();
  measure_[PitchRate] = rates.y();
  measure_[YawRate] = rates.z();

  if (dynamic_node()) {
    for (int k = 0; k < 3; ++k) {
      measure_[BodyAccX + k] = n.xpp_W()[k];
      measure_[BodyAccP + k] = n.wp_W()[k];
    }
  }
}

void AircraftInstruments::normalise_geo_coordinates() {
  // MBDyn's folding: n counts the half turns of the truncated angle.
  double& lon = measure_[Longitude];
  if (lon > M_PI || lon < -M_PI) {
    const int n = static_cast<int>(static_cast<double>(static_cast<int>(lon)) / M_PI);
    lon -= (n % 2 != 0 ? n + std::abs(n) / n : n) * M_PI;
  }
  double& lat = measure_[Latitude];
  if (lat > M_PI_2 || lat < -M_PI_2) {
    const int n = static_cast<int>(static_cast<double>(static_cast<int>(lat)) / M_PI);
    if (n % 2 != 0) {
      lat = -lat + n * M_PI;
      if (std::abs(lat) > M_PI_2) lat = -lat - sign_of(n) * M_PI;
    } else {
      lat -= n * M_PI;
      if (std::abs(lat) > M_PI_2) lat = -lat + sign_of(n) * M_PI;
    }
  }
}

void AircraftInstruments::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Aer)) {
    out.write_label(*os, label());
    for (int k = Airspeed; k < MeasureEnd; ++k) out.write(*os, measure_[k]);
    *os << '\n';
  }
}

parser::PrivateDataOwner::DatumInfo AircraftInstruments::private_data_info(unsigned i) const {
  static constexpr std::pair<const char*, const char*> listing[MeasureEnd - 1] = {
      {"airspeed", "airspeed (relative to the airstream)"},
      {"groundspeed", "ground speed (horizontal)"},
      {"altitude", "altitude (z)"},
      {"attitude", "pitch attitude"},
      {"bank", "bank angle"},
      {"turn", "turn rate (rad/min)"},
      {"slip", "sideslip angle (also \"sideslip\")"},
      {"verticalspeed", "vertical speed"},
      {"angleofattack", "angle of attack (also \"aoa\")"},
      {"heading", "heading, [0, 2 pi)"},
      {"init_x1", "initial x (north)"},
      {"init_x2", "initial y"},
      {"init_longitude", "initial longitude"},
      {"longitude", "longitude"},
      {"init_latitude", "initial latitude"},
      {"latitude", "latitude"},
      {"rollrate", "roll rate, aircraft frame"},
      {"pitchrate", "pitch rate, aircraft frame"},
      {"yawrate", "yaw rate, aircraft frame"},
      {"body_axb", "acceleration x (dynamic nodes; global, as MBDyn 2024 stores it)"},
      {"body_ayb", "acceleration y (dynamic nodes)"},
      {"body_azb", "acceleration z (dynamic nodes)"},
      {"body_pd", "angular acceleration x (dynamic nodes)"},
      {"body_qd", "angular acceleration y (dynamic nodes)"},
      {"body_rd", "angular acceleration z (dynamic nodes)"},
      {"body_vx", "airspeed x, aircraft frame"},
      {"body_vy", "airspeed y, aircraft frame"},
      {"body_vz", "airspeed z, aircraft frame"},
      {"density", "air density"},
      {"soundcelerity", "speed of sound"},
      {"staticpressure", "static pressure"},
      {"temperature", "temperature"}};
  if (i < 1 || i >= MeasureEnd) return {};
  return {listing[i - 1].first, listing[i - 1].second};
}

unsigned AircraftInstruments::private_data_index(std::string_view name) const {
  struct Name {
    const char* name;
    Measure measure;
  };
  static constexpr Name names[] = {
      {"airspeed", Airspeed}, {"groundspeed", Groundspeed}, {"altitude", Altitude}, {"attitude", Attitude},
      {"bank", Bank}, {"turn", Turn}, {"slip", Slip}, {"sideslip", Slip}, {"verticalspeed", VerticalSpeed},
      {"angleofattack", AngleOfAttack}, {"aoa", AngleOfAttack}, {"heading", Heading}, {"init_x1", InitX1},
      {"init_x2", InitX2}, {"init_longitude", InitLongitude}, {"longitude", Longitude},
      {"init_latitude", InitLatitude}, {"latitude", Latitude}, {"rollrate", RollRate}, {"pitchrate", PitchRate},
      {"yawrate", YawRate}, {"body_axb", BodyAccX}, {"body_ayb", BodyAccY}, {"body_azb", BodyAccZ},
      {"body_pd", BodyAccP}, {"body_qd", BodyAccQ}, {"body_rd", BodyAccR}, {"body_vx", BodyVx},
      {"body_vy", BodyVy}, {"body_vz", BodyVz}, {"density", Density}, {"soundcelerity", SoundCelerity},
      {"staticpressure", StaticPressure}, {"temperature", Temperature}};
  std::string lower(name);
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const Name& n : names) {
    if (lower != n.name) continue;
    // The body accelerations exist on dynamic nodes only (MBDyn refuses them otherwise).
    if (n.measure >= BodyAccX && n.measure <= BodyAccR && !dynamic_node()) return 0;
    return n.measure;
  }
  return 0;
}

namespace {

using parser::CardReader;

// aircraft instruments: <label>, <node> [, orientation, {flight mechanics | aeroelasticity |
//   <orientation>}] [, initial latitude, <r>] [, initial longitude, <r>] [, earth radius, <r>];
void read_aircraft_instruments(CardReader& in, BuildContext& ctx, unsigned label) {
  AircraftInstruments::Params p;
  p.node = &ctx.struct_node(in);
  if (in.keyword_is("orientation")) {
    if (in.keyword_is("flight mechanics")) {
      p.R_NA = Mat3::Identity();
    } else if (in.keyword_is("aeroelasticity")) {
      p.R_NA = Vec3(-1.0, 1.0, -1.0).asDiagonal();  // x nose to tail, z bottom to top
    } else {
      p.R_NA = in.orientation(p.node->frame());
    }
  }
  if (in.keyword_is("initial latitude")) p.initial_latitude = in.real();
  if (in.keyword_is("initial longitude")) p.initial_longitude = in.real();
  if (in.keyword_is("earth radius")) p.earth_radius = in.real();
  auto e = std::make_unique<AircraftInstruments>(label, p);
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "aerodynamic elements");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("aircraft instruments", read_aircraft_instruments);

}  // namespace
}  // namespace mbl::elements::aero
