// Readers of the aerodynamic cards: `air properties` (input manual §8.1.4), `c81 data` (§2.4.2)
// and `aerodynamic body` (§8.1.1).
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "elements/aero/aerodynamic_beam.hpp"
#include "elements/aero/aerodynamic_body.hpp"
#include "elements/aero/air_properties.hpp"
#include "elements/aero/rotor.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/input/file_path.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements::aero {
namespace {

using parser::CardReader;

constexpr const char* kC81Family = "c81 data";

// ---- air properties ----------------------------------------------------------------------------

/// The wind profiles' keywords in any order (windprof.cc PowerLawGR::Read, LogarithmicGR::Read,
/// ScalarFuncGR::Read): `reference position` and `reference orientation` (absolute, default the
/// origin and the identity; given twice, the last counts, as MBDyn's; the position is read with
/// GetVecAbs, so a `reference, <label>` turns it and does not move it), and for power law and
/// logarithmic `reference elevation`, `reference velocity` (a drive) and `exponent` or `surface
/// roughness length`, each once and all required.
void read_wind_profile_frame(CardReader& in, WindProfile& p, const char* kind, double* z_ref,
                             DriveCallerPtr* v_ref, const char* last_keyword, double* last,
                             BuildContext& ctx) {
  bool got_z = false, got_last = false;
  for (;;) {
    if (in.keyword_is("reference position")) {
      p.x0_W = in.direction_abs(parser::RigidFrame{});
    } else if (in.keyword_is("reference orientation")) {
      p.R0_W = in.orientation(parser::RigidFrame{});
    } else if (z_ref && in.peek_keyword_is("reference elevation")) {
      if (got_z) in.fail(fmt::format("{}: reference elevation given twice", kind));
      in.keyword();
      *z_ref = parser::checked_real(in, [](double v) { return v > 0; }, "a positive reference elevation");
      got_z = true;
    } else if (v_ref && in.peek_keyword_is("reference velocity")) {
      if (*v_ref) in.fail(fmt::format("{}: reference velocity given twice", kind));
      in.keyword();
      *v_ref = read_drive(in, ctx);
    } else if (last && in.peek_keyword_is(last_keyword)) {
      if (got_last) in.fail(fmt::format("{}: {} given twice", kind, last_keyword));
      in.keyword();
      *last = std::string_view(last_keyword) == "exponent"
                  ? in.real()
                  : parser::checked_real(in, [](double v) { return v > 0; }, "a positive surface roughness length");
      got_last = true;
    } else {
      break;
    }
  }
  if (z_ref && !got_z) in.fail_expected(fmt::format("`reference elevation` of the {} wind profile", kind));
  if (v_ref && !*v_ref) in.fail_expected(fmt::format("`reference velocity` of the {} wind profile", kind));
  if (last && !got_last) in.fail_expected(fmt::format("`{}` of the {} wind profile", last_keyword, kind));
}

/// `<gust model>` (gust.cc InitGustData): front 1D, scalar function, power law, logarithmic.
GustPtr read_gust(CardReader& in, BuildContext& ctx) {
  if (in.keyword_is("front 1D")) {
    auto g = std::make_shared<FrontGust>();
    // Read as MBDyn's Gust1DGR (GetVecAbs) and used as given: the manual asks for unit vectors,
    // MBDyn does not normalize them.
    g->front_W = in.direction_abs(parser::RigidFrame{});
    g->perturbation_W = in.direction_abs(parser::RigidFrame{});
    g->front_speed = in.real();
    g->profile = read_drive(in, ctx);
    return g;
  }
  if (in.keyword_is("scalar function")) {
    auto g = std::make_shared<ScalarFunctionWindProfile>();
    read_wind_profile_frame(in, *g, "scalar function", nullptr, nullptr, nullptr, nullptr, ctx);
    g->f = drives::read_scalar_function(in);
    return g;
  }
  if (in.keyword_is("power law")) {
    auto g = std::make_shared<PowerLawWindProfile>();
    read_wind_profile_frame(in, *g, "power law", &g->z_ref, &g->v_ref, "exponent", &g->exponent, ctx);
    return g;
  }
  if (in.keyword_is("logarithmic")) {
    auto g = std::make_shared<LogarithmicWindProfile>();
    read_wind_profile_frame(in, *g, "logarithmic", &g->z_ref, &g->v_ref, "surface roughness length", &g->roughness, ctx);
    return g;
  }
  in.fail_expected("a gust model (front 1D, scalar function, power law, logarithmic)");
  return nullptr;  // not reached
}

void read_air_properties(CardReader& in, BuildContext& ctx, unsigned) {
  std::unique_ptr<AirProperties> air;
  if (in.keyword_is("std")) {
    StandardAtmosphere A;
    bool standard = true;
    double rho0 = 1.2250;
    if (in.keyword_is("SI")) {
    } else if (in.keyword_is("British")) {
      A.p0 = 2116.2, rho0 = 0.002377, A.T0 = 518.69, A.dT_dz = -3.566e-3, A.R = 1716, A.g0 = 32.17;
      A.z1 = 36089, A.z2 = 82021;
    } else {
      standard = false;
      A.p0 = parser::checked_real(in, [](double v) { return v > 0; }, "a positive reference pressure");
      A.rho0 = read_drive(in, ctx);
      A.T0 = parser::checked_real(in, [](double v) { return v > 0; }, "a positive reference temperature");
      A.dT_dz = parser::checked_real(in, [](double v) { return v < 0; }, "a negative temperature gradient");
      A.R = parser::checked_real(in, [](double v) { return v > 0; }, "a positive gas constant");
      A.g0 = parser::checked_real(in, [](double v) { return v > 0; }, "a positive gravity acceleration");
      A.z1 = parser::checked_real(in, [](double v) { return v > 0; }, "a positive troposphere altitude");
      const double z1 = A.z1;
      A.z2 = parser::checked_real(in, [z1](double v) { return v > z1; }, "a stratosphere altitude above z1");
    }
    if (standard) {
      if (in.keyword_is("temperature deviation")) {
        const double T0 = A.T0;
        const double dT = parser::checked_real(in, [T0](double v) { return T0 + v > 0; }, "a temperature deviation above -T0");
        // Isobaric change of the reference state: rho T = const.
        rho0 *= A.T0 / (A.T0 + dT);
        A.T0 += dT;
      }
      A.rho0 = std::make_shared<ConstDrive>(rho0);
    }
    if (in.keyword_is("reference altitude")) A.z0 = in.real();
    air = std::make_unique<AirProperties>(std::move(A), read_vec3_drive(in, ctx));
  } else {
    DriveCallerPtr rho = read_drive(in, ctx);
    const double c = parser::checked_real(in, [](double v) { return v > 0; }, "a positive sound celerity");
    air = std::make_unique<AirProperties>(std::move(rho), c, read_vec3_drive(in, ctx));
  }
  while (in.keyword_is("gust")) air->add_gust(read_gust(in, ctx));
  air->where = in.card_location();
  ctx.read_output_flag(in, *air, "air properties");
  if (ctx.model().find_element("air properties", 1))
    throw parser::InputError(in.card_location(), "air properties are already defined");
  ctx.model().add_element(std::move(air));
}

/// `gust: <gust data>;` adds a gust to the air properties read before (dataman4.cc, ReadElems).
void read_gust_card(CardReader& in, BuildContext& ctx, unsigned) {
  auto* air = dynamic_cast<AirProperties*>(ctx.model().find_element("air properties", 1));
  if (!air) throw parser::InputError(in.card_location(), "expected the air properties card before `gust`");
  air->add_gust(read_gust(in, ctx));
}

// ---- c81 data ----------------------------------------------------------------------------------

void read_c81_card(CardReader& in, BuildContext& ctx, unsigned) {
  const parser::SourceLocation label_at = in.location();
  const unsigned label = in.label();
  if (in.keyword_is("name")) in.string();
  const parser::SourceLocation file_at = in.location();
  const std::string file = resolve_path(file_at, parser::read_file_name(in));
  double tolerance = 1e-6;
  if (in.keyword_is("tolerance"))
    tolerance = parser::checked_real(in, [](double v) { return v > 0; }, "a positive tolerance");
  bool free_format = false;
  if (in.keyword_is("fc511") || in.keyword_is("nrel")) {
    ctx.skip(kC81Family, label);
    return in.not_implemented("c81 data in fc511 or NREL format (input manual §2.4.2)");
  }
  if (in.keyword_is("free format")) free_format = true;
  const bool flip = in.keyword_is("flip");
  if (in.keyword_is("echo")) {
    (void)parser::read_file_name(in);
    in.keyword_is("free format");
  }
  std::ifstream f(file);
  if (!f) throw parser::InputError(file_at, fmt::format("expected a readable c81 file, found \"{}\"", file));
  auto data = std::make_shared<C81Data>();
  try {
    *data = read_c81(f, tolerance, free_format);
  } catch (const std::runtime_error& e) {
    throw parser::InputError(file_at, fmt::format("expected c81 airfoil data in \"{}\", found: {}", file, e.what()));
  }
  if (flip) data->flip();
  const std::string key = std::to_string(label);
  if (ctx.read().find_named<C81Data>(kC81Family, key))
    throw parser::InputError(label_at, fmt::format("c81 data {} is already defined", label));
  ctx.read().add_named(kC81Family, key, data);
}

std::shared_ptr<const C81Data> find_c81(CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  ctx.skip_if_depends_on_skipped(in, kC81Family, label);
  auto d = ctx.read().find_named<C81Data>(kC81Family, std::to_string(label));
  if (!d) throw parser::InputError(at, fmt::format("expected a c81 data label, found {} (not defined)", label));
  return d;
}

// ---- aerodynamic elements -------------------------------------------------------------------------

Shape1D read_shape(CardReader& in) {
  Shape1D s;
  if (in.keyword_is("const")) {
    s.coef = {in.real()};
  } else if (in.keyword_is("linear")) {
    // Input manual eq. 2.59: the values at xi = -1 and 1, or (MBDyn's source) `coefficients, a0, a1`.
    s.kind = Shape1D::Kind::Linear;
    if (in.keyword_is("coefficients")) {
      s.coef = {in.real(), in.real()};
    } else {
      const double at_m1 = in.real(), at_p1 = in.real();
      s.coef = {(at_p1 + at_m1) / 2., (at_p1 - at_m1) / 2.};
    }
  } else if (in.keyword_is("parabolic")) {
    // Input manual eq. 2.61: the values at xi = -1, 0 and 1.
    s.kind = Shape1D::Kind::Parabolic;
    const double at_m1 = in.real(), at_0 = in.real(), at_p1 = in.real();
    s.coef = {at_0, (at_p1 - at_m1) / 2., (at_p1 + at_m1) / 2. - at_0};
  } else if (const bool steps = in.keyword_is("piecewise const"); steps || in.keyword_is("piecewise linear")) {
    s.kind = steps ? Shape1D::Kind::PiecewiseConst : Shape1D::Kind::PiecewiseLinear;
    const int n = static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, "at least one point"));
    for (int i = 0; i < n; ++i) {
      const double x = i == 0 ? in.real()
                              : parser::checked_real(in, [&](double v) { return v > s.xi.back(); }, "increasing abscissae");
      s.xi.push_back(x);
      s.value.push_back(in.real());
    }
  } else {
    in.fail_expected("a 1D shape (const, piecewise const, linear, piecewise linear, parabolic)");
  }
  return s;
}

/// The airfoil tables at each of the element's integration points (xi: their span coordinates,
/// the Gauss points of each of the `blocks` portions).
bool read_airfoil(CardReader& in, BuildContext& ctx, const std::vector<double>& xi, int blocks, AirfoilData& a,
                  bool& theodorsen) {
  // `theodorsen` wraps the c81 forms (the keyword `c81` is optional there).
  theodorsen = in.keyword_is("theodorsen");
  if (theodorsen) {
    in.keyword_is("c81");
  } else if (in.keyword_is("rae 9671")) {
    // MBDyn's built-in semi-analytical airfoils; NACA 0012 is the default.
    a.builtin = BuiltinAirfoil::Rae9671;
    return true;
  } else if (!in.keyword_is("c81")) {
    // Any other word is taken (and dropped) as an unknown airfoil name, as MBDyn does.
    if (!in.at_end() && !in.keyword_is("naca 0012")) in.keyword();
    a.builtin = BuiltinAirfoil::Naca0012;
    return true;
  }
  const bool multiple = in.keyword_is("multiple");
  const bool interpolated = !multiple && in.keyword_is("interpolated");
  if (!multiple && !interpolated) {
    auto d = find_c81(in, ctx);
    a.at_point.assign(xi.size(), d);
    return true;
  }
  // aerodata.cc ReadC81MultipleAeroData: `interpolated` takes a stall tolerance, and its first
  // airfoil may sit at -1.
  double tolerance = 1e-6;
  if (interpolated && in.keyword_is("tolerance"))
    tolerance = parser::checked_real(in, [](double v) { return v > 0; }, "a positive c81 data tolerance");
  const int n = static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, "at least one airfoil"));
  std::vector<std::shared_ptr<const C81Data>> tables;
  std::vector<double> upper;
  for (int i = 0; i < n; ++i) {
    tables.push_back(find_c81(in, ctx));
    if (upper.empty() && interpolated) {
      upper.push_back(parser::checked_real(in, [](double v) { return v >= -1. && v <= 1.; }, "an airfoil position in [-1, 1]"));
      continue;
    }
    const double prev = upper.empty() ? -1. : upper.back();
    upper.push_back(parser::checked_real(in, [prev](double v) { return v > prev && v <= 1.; }, "an increasing end point in (-1, 1]"));
  }
  if (interpolated) {
    // aerodata_impl.cc C81InterpolatedAeroData: each Gauss point of portion b is taken to its
    // place in the element's span (the portions' bounds -1, 1; -1, 0, 1; -1, -1/sqrt 3, 1/sqrt 3,
    // 1), and its airfoil interpolated linearly between the two about it (c81_data_merge).
    const std::vector<double> bounds = blocks == 1   ? std::vector<double>{-1., 1.}
                                       : blocks == 2 ? std::vector<double>{-1., 0., 1.}
                                                     : std::vector<double>{-1., -1. / std::sqrt(3.), 1. / std::sqrt(3.), 1.};
    const std::size_t per_block = xi.size() / static_cast<std::size_t>(blocks);
    for (std::size_t i = 0; i < xi.size(); ++i) {
      const std::size_t b = i / per_block;
      const double csi = (bounds[b + 1] + bounds[b] + xi[i] * (bounds[b + 1] - bounds[b])) / 2.;
      std::size_t to = 0;
      for (std::size_t k = 1; k < upper.size() && to == 0; ++k)
        if (upper[k] > csi) to = k;
      if (csi < upper[0] || to == 0)
        in.fail(fmt::format("expected c81 airfoils on both sides of the integration point at xi = {}", csi));
      const std::size_t from = to - 1;
      const double w = upper[to] - upper[from];
      try {
        a.at_point.push_back(std::make_shared<C81Data>(
            interpolate_c81(*tables[from], *tables[to], (upper[to] - csi) / w, (csi - upper[from]) / w, tolerance)));
      } catch (const std::runtime_error& e) {
        in.fail(fmt::format("expected c81 airfoils {} and {} with the same tables: {}", from + 1, to + 1, e.what()));
      }
    }
    return true;
  }
  // Sharp transitions: the first airfoil whose end point lies beyond the point.
  for (double x : xi) {
    std::size_t k = 0;
    while (k + 1 < upper.size() && upper[k] <= x) ++k;
    a.at_point.push_back(tables[k]);
  }
  return true;
}

/// Everything after the connectivity; false if something is not implemented (reported).
bool read_surface(CardReader& in, BuildContext& ctx, AeroSurfaceParams& p, int blocks) {
  p.chord = read_shape(in);
  p.force_point = read_shape(in);
  p.bc_point = read_shape(in);
  p.twist = read_shape(in);
  p.tip_loss.coef = {1.};
  if (in.keyword_is("tip loss")) p.tip_loss = read_shape(in);
  p.points = static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, "at least 1 integration point"));
  if (in.keyword_is("control")) p.control = read_drive(in, ctx);
  std::vector<double> xi, w;
  gauss_legendre(p.points, xi, w);
  std::vector<double> all;
  for (int b = 0; b < blocks; ++b) all.insert(all.end(), xi.begin(), xi.end());
  if (!read_airfoil(in, ctx, all, blocks, p.airfoil, p.theodorsen)) return false;
  if (p.theodorsen && blocks > 1) {
    in.not_implemented("theodorsen unsteady aerodynamics on aerodynamic beams (input manual §8.1.1)");
    return false;
  }
  // The states need distinct aerodynamic centre and boundary-condition point (MBDyn's check).
  if (p.theodorsen)
    for (double x : xi)
      if (std::abs(p.bc_point.at(x) - p.force_point.at(x)) < std::numeric_limits<double>::epsilon())
        in.fail("theodorsen aerodynamics need the force point and the velocity point apart");
  if (in.keyword_is("unsteady")) {
    // steady | bielawa, or MBDyn's numbers 0, 2 (MBDyn refuses Harris's model, 1, too).
    if (in.peek_keyword_is("harris")) in.fail_expected("steady or bielawa (Harris's model is not available)");
    int model = 0;
    if (in.keyword_is("bielawa")) model = 2;
    else if (!in.keyword_is("steady"))
      model = static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v == 0 || v == 2; },
                                                       "steady, bielawa, 0 or 2"));
    p.bielawa = model == 2;
    if (p.bielawa && (p.airfoil.at_point.empty() || p.theodorsen)) {
      in.not_implemented(p.theodorsen ? "unsteady, bielawa with theodorsen (input manual §8.1.1)"
                                   : "unsteady, bielawa on the built-in airfoils (input manual §8.1.1)");
      return false;
    }
  }
  if (in.keyword_is("jacobian")) p.jacobian = in.boolean();
  if (in.keyword_is("custom output")) {
    // NetCDF-only per-point output selection (position, orientation, velocity, ...).
    while (!in.at_end() && !in.peek_keyword_is("output") && !in.peek_keyword_is("std") &&
           !in.peek_keyword_is("gauss") && !in.peek_keyword_is("node"))
      in.keyword();
  }
  return true;
}

/// `output, <bool>` then the .aer style (`std`, `Gauss`, `node`).
void read_output_options(CardReader& in, BuildContext& ctx, AeroSurface& e) {
  ctx.read_output_flag(in, e, "aerodynamic elements");
  if (in.keyword_is("std")) e.set_output_style(AeroSurfaceParams::Output::Std);
  else if (in.keyword_is("gauss")) e.set_output_style(AeroSurfaceParams::Output::Gauss);
  else if (in.keyword_is("node")) e.set_output_style(AeroSurfaceParams::Output::Node);
}

void read_induced_velocity_link(CardReader& in, BuildContext& ctx, AeroSurfaceParams& p) {
  if (in.keyword_is("user defined induced velocity")) {
    in.not_implemented("user defined induced velocity (input manual §8.1.1, §8.1.6)");
    throw CardSkipped{};
  }
  if (!in.keyword_is("induced velocity") && !in.keyword_is("rotor")) return;
  p.has_induced_velocity = true;
  p.induced_velocity_label = in.label();
  ctx.skip_if_depends_on_skipped(in, "induced velocity", p.induced_velocity_label);
  ctx.skip_if_depends_on_skipped(in, "rotor", p.induced_velocity_label);
  p.passive = in.keyword_is("passive");
}

void read_aerodynamic_body(CardReader& in, BuildContext& ctx, unsigned label) {
  StructNode& node = ctx.struct_node(in);
  AeroSurfaceParams p;
  read_induced_velocity_link(in, ctx, p);
  const parser::RigidFrame frame = node.frame();
  const Vec3 f_N = in.position(frame);
  const Mat3 R_NA = in.orientation(frame);
  const double span = in.real();
  if (!read_surface(in, ctx, p, 1)) return;
  auto e = std::make_unique<AerodynamicBody>(label, node, f_N, R_NA, span, p);
  e->where = in.card_location();
  read_output_options(in, ctx, *e);
  ctx.model().add_element(std::move(e));
}

void read_aerodynamic_beam(CardReader& in, BuildContext& ctx, unsigned label, int nodes) {
  const parser::SourceLocation beam_at = in.location();
  const unsigned beam_label = in.label();
  for (const char* kind : {"beam", "beam2", "beam3"}) ctx.skip_if_depends_on_skipped(in, kind, beam_label);
  const auto* beam = dynamic_cast<const Beam*>(ctx.model().find_element("beam", beam_label));
  if (!beam || beam->node_count() != nodes)
    throw parser::InputError(beam_at, fmt::format("expected a beam{} label, found {}", nodes, beam_label));
  AeroSurfaceParams p;
  read_induced_velocity_link(in, ctx, p);
  std::array<Vec3, 3> f_N{};
  std::array<Mat3, 3> R_NA{Mat3::Identity(), Mat3::Identity(), Mat3::Identity()};
  for (int k = 0; k < nodes; ++k) {
    const parser::RigidFrame frame = beam->node(k).frame();
    f_N[k] = in.position(frame);
    R_NA[k] = in.orientation(frame);
  }
  if (!read_surface(in, ctx, p, nodes)) return;
  auto e = std::make_unique<AerodynamicBeam>(label, *beam, f_N, R_NA, p);
  e->where = in.card_location();
  read_output_options(in, ctx, *e);
  ctx.model().add_element(std::move(e));
}

// ---- induced velocity ----------------------------------------------------------------------------

/// After `set`: `<n>, { external | node, <node> [, local] }, <count>, <element label> ...` n
/// times (MBDyn's ReadResSets and ReadResSet, resforces.cc; resultant_set.hpp).
std::vector<ResultantSet> read_resultant_sets(CardReader& in, BuildContext& ctx) {
  const auto n = parser::checked_integer(in, [](std::int64_t v) { return v >= 1; }, "at least 1 set");
  std::vector<ResultantSet> sets(static_cast<std::size_t>(n));
  for (ResultantSet& set : sets) {
    if (in.keyword_is("node")) {
      set.node = &ctx.struct_node(in);
      set.pole = in.keyword_is("local") ? ResultantSet::Pole::NodeLocal : ResultantSet::Pole::Node;
    } else if (!in.keyword_is("external")) {
      in.fail_expected("a force set type (external or node)");
    }
    const auto count = parser::checked_integer(in, [](std::int64_t v) { return v >= 1; }, "at least 1 item");
    for (std::int64_t k = 0; k < count; ++k) {
      const parser::SourceLocation at = in.location();
      const unsigned element = in.label();
      // MBDyn refuses an element listed twice in a set ("unable to insert item").
      if (!set.elements.insert(element).second)
        throw parser::InputError(at, fmt::format("expected an element label not yet in the set, found {}", element));
    }
  }
  return sets;
}

/// `<craft node> [, orientation, <R>], <rotor node> [, induced velocity, <model>, ...]`.
void read_rotor_body(CardReader& in, BuildContext& ctx, unsigned label) {
  RotorParams p;
  p.craft = &ctx.struct_node(in);
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) p.R_craft_rotor = in.orientation(p.craft->frame());
  p.rotor = &ctx.struct_node(in);
  if (in.keyword_is("induced velocity")) {
    if (in.keyword_is("no")) {
      p.model = RotorParams::Model::None;
      if (in.keyword_is("radius")) p.radius = parser::checked_real(in, [](double v) { return v > 0; }, "a positive radius");
    } else {
      if (in.keyword_is("uniform sectional")) {
        p.model = RotorParams::Model::Uniform;
        p.sectional_loads = true;
      } else if (in.keyword_is("uniform")) {
        p.model = RotorParams::Model::Uniform;
      } else if (in.keyword_is("mangler")) {
        p.model = RotorParams::Model::Mangler;
      } else if (in.keyword_is("dynamic inflow")) {
        p.model = RotorParams::Model::DynamicInflow;
      } else if (in.keyword_is("glauert")) {
        p.model = RotorParams::Model::Glauert;
        if (in.keyword_is("type")) {
          using G = RotorParams::GlauertType;
          static const std::pair<const char*, G> types[] = {
              {"glauert", G::Glauert}, {"coleman", G::Coleman}, {"drees", G::Drees}, {"payne", G::Payne},
              {"white and blake", G::WhiteAndBlake}, {"pitt and peters", G::PittAndPeters}, {"howlett", G::Howlett},
              // MBDyn 2024's `drees 2` computes as `drees` (rotor.cc GlauertRotor, its own variant disabled).
              {"drees 2", G::Drees}};
          bool found = false;
          for (const auto& [word, type] : types)
            if (!found && in.keyword_is(word)) p.glauert = type, found = true;
          if (!found) in.fail_expected("a Glauert variant (glauert, coleman, drees, payne, white and blake, ...)");
        }
      } else {
        in.not_implemented("induced velocity model \"" + std::string(in.peek_text()) + "\" (input manual §8.1.6)");
        throw CardSkipped{};
      }
      p.omega_ref = parser::checked_real(in, [](double v) { return v > 0; }, "a positive reference rotor speed");
      p.radius = parser::checked_real(in, [](double v) { return v > 0; }, "a positive rotor radius");
      bool iterations = false;
      for (;;) {
        if (in.keyword_is("ground")) {
          p.ground = &ctx.struct_node(in);
        } else if (p.model == RotorParams::Model::DynamicInflow && in.keyword_is("initial value")) {
          p.v_const = in.real();
          p.v_cosine = in.real();
          p.v_sine = in.real();
        } else if (p.model != RotorParams::Model::DynamicInflow && (in.keyword_is("delay") || in.keyword_is("weight"))) {
          p.delay = read_drive(in, ctx);
        } else if (in.keyword_is("max iterations")) {
          p.max_iterations = static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, "a positive iteration count"));
          iterations = true;
        } else if (in.keyword_is("tolerance")) {
          p.tolerance = parser::checked_real(in, [](double v) { return v > 0; }, "a positive tolerance");
        } else if (in.keyword_is("eta")) {
          p.eta = parser::checked_real(in, [](double v) { return v > 0; }, "a positive relaxation factor");
        } else if (in.keyword_is("correction")) {
          p.hover_correction = parser::checked_real(in, [](double v) { return v > 0; }, "a positive hover correction");
          p.forward_flight_correction =
              parser::checked_real(in, [](double v) { return v > 0; }, "a positive forward-flight correction");
        } else {
          break;
        }
      }
      // Without `max iterations` MBDyn makes one Newton step of the inflow equation; without a
      // tolerance it never stops early.
      if (!iterations) p.max_iterations = 1;
      if (p.tolerance == 0.) p.tolerance = std::numeric_limits<double>::max();
    }
  }
  if (in.keyword_is("set")) p.sets = read_resultant_sets(in, ctx);
  auto e = std::make_unique<Rotor>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "induced velocity elements");
  ctx.model().add_element(std::move(e));
}

void read_induced_velocity(CardReader& in, BuildContext& ctx, unsigned label) {
  if (!in.keyword_is("rotor")) {
    in.not_implemented("induced velocity \"" + std::string(in.peek_text()) + "\" (input manual §8.1.6)");
    throw CardSkipped{};
  }
  read_rotor_body(in, ctx, label);
}

const bool registered =
    CardRegistry::family("unlabelled element").add("air properties", read_air_properties) &&
    CardRegistry::family("unlabelled element").add("gust", read_gust_card) &&
    CardRegistry::family("definition").add(kC81Family, read_c81_card) &&
    CardRegistry::family("element").add("aerodynamic body", read_aerodynamic_body) &&
    CardRegistry::family("element").add(
        "aerodynamic beam3", [](CardReader& in, BuildContext& c, unsigned l) { read_aerodynamic_beam(in, c, l, 3); }) &&
    CardRegistry::family("element").add(
        "aerodynamic beam", [](CardReader& in, BuildContext& c, unsigned l) { read_aerodynamic_beam(in, c, l, 3); }) &&
    CardRegistry::family("element").add(
        "aerodynamic beam2", [](CardReader& in, BuildContext& c, unsigned l) { read_aerodynamic_beam(in, c, l, 2); }) &&
    CardRegistry::family("element").add("induced velocity", read_induced_velocity) &&
    CardRegistry::family("element").add("rotor", read_rotor_body);

}  // namespace
}  // namespace mbl::elements::aero
