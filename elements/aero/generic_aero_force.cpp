#include "elements/aero/generic_aero_force.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <cmath>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "elements/aero/air_properties.hpp"
#include "elements/input/file_path.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"
#include "parser/size_limits.hpp"

namespace mbl::elements::aero {
namespace {

constexpr double kPi = std::numbers::pi;

/// Where a value falls on one table axis: two points and their weights, and the fading factor
/// outside the table (1 inside).
struct AxisPosition {
  std::size_t i0 = 0, i1 = 0;
  double w0 = 1., w1 = 0., fade = 1.;
};

/// `limit_below`, `limit_above`: the angles the edge values fade to zero at (MBDyn fades alpha
/// above the table towards -alpha_max, which the cosine makes the same as its mirror image).
AxisPosition locate(const std::vector<double>& x, double v, double limit_below, double limit_above) {
  AxisPosition p;
  const std::size_t n = x.size() - 1;
  if (v < x.front()) {
    p.fade = (std::cos(-limit_below * (v - x.front()) / (limit_below - x.front())) + 1.) / 2.;
  } else if (v > x.back()) {
    p.i0 = p.i1 = n;
    p.fade = (std::cos(limit_above * (v - x.back()) / (limit_above - x.back())) + 1.) / 2.;
  } else if (n > 0) {
    std::size_t i = 0;
    while (i + 1 < n && x[i + 1] <= v) ++i;
    const double d = x[i + 1] - x[i];
    p.i0 = i;
    p.i1 = i + 1;
    p.w0 = (x[i + 1] - v) / d;
    p.w1 = (v - x[i]) / d;
  }
  return p;
}

/// Skips lines starting with '#' or '%'.
void skip_comments(std::istream& in) {
  for (int c = in.peek(); c == '#' || c == '%'; c = in.peek()) {
    std::string line;
    std::getline(in, line);
  }
}

}  // namespace

std::array<double, 6> GenericAeroData::at(double a, double b, double alpha_max, double beta_max) const {
  // The fading angles: below the table -max; above it +max for beta, -max for alpha (genfm.cc).
  const AxisPosition pa = locate(alpha, a, -alpha_max, -alpha_max);
  const AxisPosition pb = locate(beta, b, -beta_max, beta_max);
  std::array<double, 6> c{};
  const std::size_t ia[] = {pa.i0, pa.i1}, ib[] = {pb.i0, pb.i1};
  const double wa[] = {pa.w0, pa.w1}, wb[] = {pb.w0, pb.w1};
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const double w = wb[j] * wa[i] * pa.fade * pb.fade;
      if (w == 0.) continue;
      for (int k = 0; k < 6; ++k) c[k] += w * coef[ib[j]][ia[i]][k];
    }
  return c;
}

GenericAeroData read_generic_aero_data(std::istream& in, double angle_scale, double length_scale) {
  skip_comments(in);
  int n_alpha = 0, n_beta = 0;
  if (!(in >> n_alpha >> n_beta)) throw std::runtime_error("expected the numbers of alpha and beta values");
  if (n_alpha <= 0 || n_beta <= 0)
    throw std::runtime_error(fmt::format("expected positive numbers of alpha and beta values, found {} {}", n_alpha, n_beta));
  // The sizes are the file's own: storage is taken only for records the file can hold.
  if (!parser::text_can_hold(parser::bytes_left(in), std::int64_t{8} * n_alpha * n_beta))
    throw std::runtime_error(fmt::format("{} x {} records of alpha, beta and 6 coefficients are more than the file holds",
                                         n_alpha, n_beta));
  std::string rest;
  std::getline(in, rest);
  skip_comments(in);
  GenericAeroData d;
  d.alpha.resize(n_alpha);
  d.beta.resize(n_beta);
  d.coef.assign(n_beta, std::vector<std::array<double, 6>>(n_alpha));
  const double force_scale = length_scale * length_scale, moment_scale = force_scale * length_scale;
  for (int ib = 0; ib < n_beta; ++ib)
    for (int ia = 0; ia < n_alpha; ++ia) {
      double a = 0., b = 0.;
      if (!(in >> a >> b)) throw std::runtime_error(fmt::format("expected alpha and beta of record {}", ib * n_alpha + ia + 1));
      if (ib == 0) d.alpha[ia] = a;
      else if (a != d.alpha[ia]) throw std::runtime_error(fmt::format("alpha {} differs from that of the first beta ({})", a, d.alpha[ia]));
      if (ia == 0) d.beta[ib] = b;
      else if (b != d.beta[ib]) throw std::runtime_error(fmt::format("beta {} differs from that of the first alpha ({})", b, d.beta[ib]));
      for (int k = 0; k < 6; ++k) {
        if (!(in >> d.coef[ib][ia][k])) throw std::runtime_error(fmt::format("expected 6 coefficients in record {}", ib * n_alpha + ia + 1));
        d.coef[ib][ia][k] *= k < 3 ? force_scale : moment_scale;
      }
    }
  for (auto* axis : {&d.alpha, &d.beta})
    for (std::size_t i = 0; i < axis->size(); ++i) {
      (*axis)[i] *= angle_scale;
      if (i > 0 && (*axis)[i] <= (*axis)[i - 1]) throw std::runtime_error("angles not strictly increasing");
    }
  return d;
}

GenericAeroForce::GenericAeroForce(unsigned label, StructNode& node, GenericAeroForceParams p)
    : Element(label), node_(node), p_(std::move(p)) {}

void GenericAeroForce::setup(Model& m) {
  air_ = dynamic_cast<const AirProperties*>(m.find_element("air properties", 1));
  if (!air_) throw std::invalid_argument("aerodynamic elements need the air properties card");
}

void GenericAeroForce::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;
  const Mat3& R_n = node_.R_WN();
  const Vec3 o_W = R_n * p_.o_N;
  const Mat3 R = R_n * p_.R_h;
  const Vec3 x_W = node_.x_W() + o_W;
  // MBDyn adds o x w (not w x o) for the velocity of the reference point.
  const Vec3 v_W = node_.v_W() + o_W.cross(node_.w_W()) - air_->velocity(x_W, c.t);
  const Vec3 v = R.transpose() * v_W;
  const double v12 = std::hypot(v.x(), v.y());
  if (p_.alpha_first) {
    alpha_ = std::atan2(v.z(), std::copysign(v12, v.x()));
    beta_ = -std::atan2(v.y(), std::abs(v.x()));
  } else {
    alpha_ = std::atan2(v.z(), std::abs(v.x()));
    beta_ = -std::atan2(v.y(), std::copysign(v12, v.x()));
  }
  double rho = 0., sound = 0.;
  air_->properties(x_W, c.t, rho, sound);
  const double q = rho * v_W.squaredNorm() / 2.;
  const std::array<double, 6> k =
      p_.data.at(alpha_, beta_, p_.alpha_first ? kPi : kPi / 2., p_.alpha_first ? kPi / 2. : kPi);
  f_a_ = Vec3(k[0], k[1], k[2]) * (q * p_.surface);
  m_a_ = Vec3(k[3], k[4], k[5]) * (q * p_.surface * p_.length);
  F_W_ = R * f_a_;
  M_W_ = R * m_a_ + o_W.cross(F_W_);
  r.add(node_.eq_index(), F_W_);
  r.add(node_.eq_index() + 3, M_W_);
}

void GenericAeroForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Aer);
  if (!os) return;
  out.write_label(*os, label());
  out.write(*os, alpha_ * 180. / kPi);
  out.write(*os, beta_ * 180. / kPi);
  for (const Vec3* v : {&f_a_, &m_a_, &F_W_, &M_W_}) out.write(*os, *v);
  *os << '\n';
}


// genfm.cc GenericAerodynamicForce: Fx..Mz global, fx..mz in the aerodynamic frame, alpha, beta.
parser::PrivateDataOwner::DatumInfo GenericAeroForce::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "F", "force, global frame");
    add_xyz(l, "M", "moment, global frame");
    add_xyz(l, "f", "force, aerodynamic frame");
    add_xyz(l, "m", "moment, aerodynamic frame");
    add_datum(l, "alpha", "angle of attack");
    return add_datum(l, "beta", "sideslip angle");
  }();
  return listed(listing, i);
}

double GenericAeroForce::private_data(unsigned i) const {
  if (i == 13) return alpha_;
  if (i == 14) return beta_;
  if (i < 1 || i > 12) return 0.;
  const Vec3* v[] = {&F_W_, &M_W_, &f_a_, &m_a_};
  return (*v[(i - 1) / 3])[(i - 1) % 3];
}

namespace {

void read_generic_aero_force(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& node = ctx.struct_node(in);
  const parser::RigidFrame frame = node.frame();
  GenericAeroForceParams p;
  if (in.keyword_is("position")) p.o_N = in.position(frame);
  if (in.keyword_is("orientation")) p.R_h = in.orientation(frame);
  if (in.keyword_is("reference surface")) p.surface = in.real();
  if (in.keyword_is("reference length")) p.length = in.real();
  if (in.keyword_is("alpha first")) p.alpha_first = in.boolean();
  // MBDyn 2024 names `reference` too but refuses it as an input error (genfm.cc,
  // ReadGenericAerodynamicForce: "references to generic aerodynamic data not implemented yet").
  if (in.peek_keyword_is("reference")) in.fail_expected("\"file\" (MBDyn 2024 has no generic aerodynamic data by reference)");
  if (!in.keyword_is("file")) in.fail_expected("\"file\"");
  double angle_scale = 1., length_scale = 1.;
  if (in.keyword_is("angle units")) {
    if (in.keyword_is("degrees")) angle_scale = kPi / 180.;
    else if (!in.keyword_is("radians")) in.fail_expected("an angle unit (radians, degrees)");
  } else if (in.keyword_is("scale angles")) {
    angle_scale = parser::checked_real(in, [](double v) { return v > 0; }, "a positive angle scale factor");
  }
  if (in.keyword_is("scale lengths"))
    length_scale = parser::checked_real(in, [](double v) { return v > 0; }, "a positive length scale factor");
  const parser::SourceLocation file_at = in.location();
  const std::string file = resolve_path(file_at, parser::read_file_name(in));
  std::ifstream f(file);
  if (!f) throw parser::InputError(file_at, fmt::format("expected a readable generic aerodynamic data file, found \"{}\"", file));
  try {
    p.data = read_generic_aero_data(f, angle_scale, length_scale);
  } catch (const std::runtime_error& e) {
    throw parser::InputError(file_at, fmt::format("expected generic aerodynamic data in \"{}\", found: {}", file, e.what()));
  }
  auto e = std::make_unique<GenericAeroForce>(label, node, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "aerodynamic elements");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("element").add("generic aerodynamic force", read_generic_aero_force);

}  // namespace
}  // namespace mbl::elements::aero
