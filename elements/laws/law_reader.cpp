// Readers of constitutive laws (input manual §2.10) and of the `constitutive law:` card (§2.4.1).
#include "elements/laws/law_reader.hpp"

#include <fmt/format.h>


#include "elements/drives/template_drive.hpp"
#include "elements/input/bare_word.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "elements/laws/invariant_angular_law.hpp"
#include "elements/laws/nonlinear_laws.hpp"
#include "elements/laws/scalar_function_laws.hpp"
#include "elements/laws/shock_absorber_law.hpp"
#include "elements/laws/wrapper_laws.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"

namespace mbl::laws {

using parser::CardReader;

template <int N>
LawRegistry<N>& LawRegistry<N>::instance() {
  static LawRegistry r;
  return r;
}

template <int N>
bool LawRegistry<N>::add(std::string_view keyword, LawReaderFn<N> fn) {
  readers_[CardRegistry::normalise(keyword)] = std::move(fn);
  return true;
}

template <int N>
const LawReaderFn<N>* LawRegistry<N>::find(std::string_view keyword) const {
  auto it = readers_.find(CardRegistry::normalise(keyword));
  return it == readers_.end() ? nullptr : &it->second;
}

std::string named_law_family(int N) { return fmt::format("constitutive law {}D", N); }

namespace {

template <int N>
using LawPtr = std::unique_ptr<ConstitutiveLaw<N>>;
template <int N>
using VecN = typename ConstitutiveLaw<N>::VecN;
template <int N>
using MatN = typename ConstitutiveLaw<N>::MatN;

// ---- typed arguments -----------------------------------------------------------------------------

/// (Entity): real, Vec3 or Vec6.
template <int N>
VecN<N> read_entity(CardReader& in) {
  if constexpr (N == 1) return VecN<1>::Constant(in.real());
  else if constexpr (N == 3) return in.vec3();
  else return in.vec6();
}

/// (DerivativeOfEntity): real, Mat3 or Mat6.
template <int N>
MatN<N> read_derivative(CardReader& in) {
  if constexpr (N == 1) return MatN<1>::Constant(in.real());
  else if constexpr (N == 3) return in.mat3();
  else return in.mat6();
}

template <int N>
MatN<N> isotropic(double k) {
  return k * MatN<N>::Identity();
}

/// `{ <viscosity> | proportional, <factor> }` after the stiffness K.
template <int N>
MatN<N> read_viscosity(CardReader& in, const MatN<N>& K, bool generic) {
  if (in.keyword_is("proportional")) return in.real() * K;
  return generic ? read_derivative<N>(in) : isotropic<N>(in.real());
}

// ---- the laws ------------------------------------------------------------------------------------

template <int N>
LawPtr<N> linear(const MatN<N>& K, const MatN<N>& C) {
  return std::make_unique<LinearViscoElasticLaw<N>>(K, C);
}

template <int N>
void register_linear() {
  auto& r = LawRegistry<N>::instance();
  const auto elastic_iso = [](CardReader& in, BuildContext&) {
    return linear<N>(isotropic<N>(in.real()), MatN<N>::Zero());
  };
  const auto viscous_iso = [](CardReader& in, BuildContext&) {
    return linear<N>(MatN<N>::Zero(), isotropic<N>(in.real()));
  };
  const auto viscoelastic_iso = [](CardReader& in, BuildContext&) {
    const MatN<N> K = isotropic<N>(in.real());
    return linear<N>(K, read_viscosity<N>(in, K, false));
  };
  r.add("linear elastic", elastic_iso);
  r.add("linear elastic isotropic", elastic_iso);
  r.add("linear elastic generic", [](CardReader& in, BuildContext&) {
    return linear<N>(read_derivative<N>(in), MatN<N>::Zero());
  });
  r.add("linear viscous", viscous_iso);
  r.add("linear viscous isotropic", viscous_iso);
  r.add("linear viscous generic", [](CardReader& in, BuildContext&) {
    return linear<N>(MatN<N>::Zero(), read_derivative<N>(in));
  });
  r.add("linear viscoelastic", viscoelastic_iso);
  r.add("linear viscoelastic isotropic", viscoelastic_iso);
  r.add("linear viscoelastic generic", [](CardReader& in, BuildContext&) {
    const MatN<N> K = read_derivative<N>(in);
    return linear<N>(K, read_viscosity<N>(in, K, true));
  });
  r.add("linear time variant viscoelastic generic", [](CardReader& in, BuildContext& ctx) -> LawPtr<N> {
    const MatN<N> K = read_derivative<N>(in);
    DriveCallerPtr k_scale = elements::read_drive(in, ctx);
    const MatN<N> C = read_viscosity<N>(in, K, true);
    DriveCallerPtr c_scale = in.keyword_is("same") ? k_scale : elements::read_drive(in, ctx);
    return std::make_unique<TimeVariantViscoElasticLaw<N>>(K, k_scale, C, c_scale);
  });
}

/// `[initial status, {inactive | active | <bool>},]`
bool read_initial_status(CardReader& in) {
  if (!in.keyword_is("initial status")) return false;
  if (in.keyword_is("inactive")) return false;
  if (in.keyword_is("active")) return true;
  return in.boolean();
}

template <int N>
void register_bistop() {
  auto& r = LawRegistry<N>::instance();
  // §2.10.7, 2.10.21: the linear law is active (without reference strain capture) between the
  // activating and the deactivating conditions.
  const auto linear_bistop = [](CardReader& in, BuildContext& ctx, bool viscous) -> LawPtr<N> {
    // Scalar stiffness and viscosity in every dimension: MBDyn's LinearBiStopCLR wraps an isotropic
    // law (constltp_impl.cc), even for 3D and 6D.
    const MatN<N> K = isotropic<N>(in.real());
    const MatN<N> C = viscous ? isotropic<N>(in.real()) : MatN<N>::Zero();
    const bool active = read_initial_status(in);
    DriveCallerPtr on = elements::read_drive(in, ctx);
    DriveCallerPtr off = elements::read_drive(in, ctx);
    return std::make_unique<BiStopLaw<N>>(active, false, on, off, linear<N>(K, C));
  };
  r.add("linear elastic bistop", [=](CardReader& in, BuildContext& ctx) { return linear_bistop(in, ctx, false); });
  r.add("linear viscoelastic bistop", [=](CardReader& in, BuildContext& ctx) { return linear_bistop(in, ctx, true); });
  r.add("bistop", [](CardReader& in, BuildContext& ctx) -> LawPtr<N> {
    const bool active = read_initial_status(in);
    bool capture = true;
    if (in.keyword_is("capture reference strain")) capture = in.boolean();  // yes | no | <bool>
    DriveCallerPtr on = elements::read_drive(in, ctx);
    DriveCallerPtr off = elements::read_drive(in, ctx);
    LawPtr<N> law = read_constitutive_law<N>(in, ctx);
    if (!law) return nullptr;
    return std::make_unique<BiStopLaw<N>>(active, capture, on, off, std::move(law));
  });
}

template <int N>
void register_wrappers() {
  auto& r = LawRegistry<N>::instance();
  r.add("array", [](CardReader& in, BuildContext& ctx) -> LawPtr<N> {
    const parser::SourceLocation at = in.location();
    const std::int64_t n = in.integer();
    if (n < 1) throw parser::InputError(at, fmt::format("expected a positive number of laws, found {}", n));
    std::vector<OwnedLaw<N>> laws;
    for (std::int64_t i = 0; i < n; ++i) {
      LawPtr<N> l = read_constitutive_law<N>(in, ctx);
      if (!l) return nullptr;
      laws.emplace_back(std::move(l));
    }
    if (n == 1) return LawPtr<N>(laws.front()->clone());
    return std::make_unique<ArrayLaw<N>>(std::move(laws));
  });
  r.add("drive caller wrapper", [](CardReader& in, BuildContext& ctx) -> LawPtr<N> {
    DriveCallerPtr w = elements::read_drive(in, ctx);
    LawPtr<N> law = read_constitutive_law<N>(in, ctx);
    if (!law) return nullptr;
    return std::make_unique<DriveScaledLaw<N>>(w, std::move(law));
  });
  // `tdclw, <a>, [scale deformation, <s_eps>,] [scale force, <s_F>,] <W_ref>, [initial work,
  // <W0>,] <law>` (struct/tdclw.cc TDCLWR::Read; W_ref negative, W0 not positive).
  r.add("tdclw", [](CardReader& in, BuildContext& ctx) -> LawPtr<N> {
    typename WorkSofteningLaw<N>::Params p;
    p.amplitude = in.real();
    if (in.keyword_is("scale deformation")) p.scale_strain = in.real();
    if (in.keyword_is("scale force")) p.scale_force = in.real();
    p.reference_work = parser::checked_real(in, [](double v) { return v < 0.0; }, "a negative reference work");
    if (in.keyword_is("initial work"))
      p.initial_work = parser::checked_real(in, [](double v) { return v <= 0.0; }, "a non-positive initial work");
    LawPtr<N> law = read_constitutive_law<N>(in, ctx);
    if (!law) return nullptr;
    return std::make_unique<WorkSofteningLaw<N>>(p, std::move(law));
  });
  // Scalar function elastic (§2.10.10-2.10.11): one function for all components (isotropic)
  // or one (or `null`) per component (orthotropic).
  const auto sf_isotropic = [](CardReader& in, BuildContext&) -> LawPtr<N> {
    drives::ScalarFunctionPtr f = drives::read_scalar_function(in);
    return std::make_unique<ScalarFunctionElasticLaw<N>>(std::vector<drives::ScalarFunctionPtr>(N, f));
  };
  r.add("scalar function elastic isotropic", sf_isotropic);
  r.add("scalar function elastic orthotropic", [](CardReader& in, BuildContext&) -> LawPtr<N> {
    std::vector<drives::ScalarFunctionPtr> f(N);
    for (int i = 0; i < N; ++i)
      if (!in.keyword_is("null")) f[i] = drives::read_scalar_function(in);
    return std::make_unique<ScalarFunctionElasticLaw<N>>(std::move(f));
  });
  // Without a qualifier: isotropic for 1D; orthotropic otherwise (the manual's example).
  if constexpr (N == 1) r.add("scalar function elastic", sf_isotropic);
  else r.add("scalar function elastic", *r.find("scalar function elastic orthotropic"));
}

/// `{ null | (ScalarFunction) <f> } [, ...]`: one per component.
template <int N>
std::vector<drives::ScalarFunctionPtr> read_component_functions(CardReader& in) {
  std::vector<drives::ScalarFunctionPtr> f(N);
  for (int i = 0; i < N; ++i)
    if (!in.keyword_is("null")) f[i] = drives::read_scalar_function(in);
  return f;
}

/// nlsf and nlp laws (§2.10.29-2.10.30): `<K0>, <functions>` for the elastic part, then
/// `{<C0> | proportional, <coef>}, <functions>` for the viscous part (`proportional` only when
/// there is an elastic part); the variants read only their part.
template <int N>
ScalarFunctionLawData<N> read_scalar_function_law(CardReader& in, bool elastic, bool viscous) {
  ScalarFunctionLawData<N> d;
  bool has_elastic = false, has_viscous = false;
  if (elastic) {
    d.K0 = read_derivative<N>(in);
    d.elastic_f = read_component_functions<N>(in);
    has_elastic = !d.K0.isZero(0.0);
    for (const auto& f : d.elastic_f) has_elastic = has_elastic || f;
  }
  if (viscous) {
    d.C0 = elastic && in.keyword_is("proportional") ? MatN<N>(in.real() * d.K0) : read_derivative<N>(in);
    d.viscous_f = read_component_functions<N>(in);
    has_viscous = !d.C0.isZero(0.0);
    for (const auto& f : d.viscous_f) has_viscous = has_viscous || f;
  }
  d.elastic = has_elastic || !has_viscous;  // MBDyn: a law is at least elastic
  d.viscous = has_viscous;
  return d;
}

template <int N>
void register_scalar_function_laws() {
  auto& r = LawRegistry<N>::instance();
  const auto add = [&r](const std::string& name, bool elastic, bool viscous) {
    for (const auto kind : {ScalarFunctionLaw<N>::Kind::Nlsf, ScalarFunctionLaw<N>::Kind::Nlp}) {
      const std::string prefix = kind == ScalarFunctionLaw<N>::Kind::Nlsf ? "nlsf " : "nlp ";
      r.add(prefix + name, [=](CardReader& in, BuildContext&) -> LawPtr<N> {
        return std::make_unique<ScalarFunctionLaw<N>>(kind, read_scalar_function_law<N>(in, elastic, viscous));
      });
    }
  };
  add("elastic", true, false);
  add("viscous", false, true);
  add("viscoelastic", true, true);
}

/// Cubic and double linear laws exist in 1D and 3D only.
template <int N>
void register_1d_3d() {
  auto& r = LawRegistry<N>::instance();
  const auto cubic = [](CardReader& in, bool viscous) -> LawPtr<N> {
    const VecN<N> k1 = read_entity<N>(in), k2 = read_entity<N>(in), k3 = read_entity<N>(in);
    const MatN<N> C = viscous ? read_derivative<N>(in) : MatN<N>::Zero();
    return std::make_unique<CubicViscoElasticLaw<N>>(k1, k2, k3, C);
  };
  r.add("cubic elastic generic", [=](CardReader& in, BuildContext&) { return cubic(in, false); });
  r.add("cubic viscoelastic generic", [=](CardReader& in, BuildContext&) { return cubic(in, true); });
  const auto double_linear = [](CardReader& in, bool viscous) -> LawPtr<N> {
    typename DoubleLinearLaw<N>::Params p;
    p.k1 = in.real();
    p.upper = in.real();
    p.lower = in.real();
    if (p.lower > p.upper)
      in.fail(fmt::format("the lower strain ({}) must not exceed the upper strain ({})", p.lower, p.upper));
    p.k2 = in.real();
    p.k3 = p.k2;
    if (!viscous && in.keyword_is("third stiffness")) p.k3 = in.real();
    if (viscous) {
      p.c = in.real();
      p.c2 = p.c;
      if (in.keyword_is("second damping")) p.c2 = in.real();
    }
    return std::make_unique<DoubleLinearLaw<N>>(p);
  };
  r.add("double linear elastic", [=](CardReader& in, BuildContext&) { return double_linear(in, false); });
  r.add("double linear viscoelastic", [=](CardReader& in, BuildContext&) { return double_linear(in, true); });
}

/// Isotropic hardening (1D, 3D, 6D) and contact (1D, 3D) elastic laws.
template <int N>
void register_hardening_and_contact() {
  auto& r = LawRegistry<N>::instance();
  r.add("isotropic hardening elastic", [](CardReader& in, BuildContext&) -> LawPtr<N> {
    const double k = in.real();
    const double eps_ref = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive reference strain");
    const double k_linear = in.keyword_is("linear stiffness") ? in.real() : 0.0;
    return std::make_unique<IsotropicHardeningLaw<N>>(k, eps_ref, k_linear);
  });
  if constexpr (N != 6) {
    r.add("contact elastic", [](CardReader& in, BuildContext&) -> LawPtr<N> {
      const double k = in.real();
      const double gamma = parser::checked_real(in, [](double v) { return v >= 1.0; }, "an exponent not less than 1");
      return std::make_unique<ContactElasticLaw<N>>(k, gamma);
    });
  }
}

/// The 1D-only laws: log, inverse square, turbulent viscoelastic, shock absorber.
void register_1d_only() {
  auto& r = LawRegistry<1>::instance();
  r.add("log elastic", [](CardReader& in, BuildContext&) -> LawPtr<1> {
    return std::make_unique<LogElasticLaw>(in.real());
  });
  r.add("inverse square elastic", [](CardReader& in, BuildContext&) -> LawPtr<1> {
    const double k = in.real();
    return std::make_unique<InverseSquareElasticLaw>(k, in.real());
  });
  r.add("turbulent viscoelastic", [](CardReader& in, BuildContext&) -> LawPtr<1> {
    const double k = in.real(), c_parabolic = in.real();
    const double threshold = elements::real_follows(in) ? in.real() : 0.0;
    const double c_linear = elements::real_follows(in) ? in.real() : threshold * c_parabolic;
    return std::make_unique<TurbulentViscoElasticLaw>(k, c_parabolic, threshold, c_linear);
  });
  r.add("shock absorber", [](CardReader& in, BuildContext& ctx) -> LawPtr<1> {
    drives::TplDriveCallerPtr<double> prestrain;
    if (in.keyword_is("prestrain")) prestrain = drives::read_tpl_drive_caller<double>(in, ctx.model().drive_env());
    // `help` makes MBDyn print the law's syntax and read on (shockabsorber.h); we read on.
    in.keyword_is("help");
    ShockAbsorberLaw::Params p;
    p.p0 = in.real();
    p.A0 = in.real();
    p.c_int = in.real();
    p.gamma = in.real();
    if (in.keyword_is("epsilon max")) p.eps_max = in.real();
    if (in.keyword_is("epsilon min")) {
      const parser::SourceLocation at = in.location();
      p.eps_min = in.real();
      if (p.eps_min >= p.eps_max)
        throw parser::InputError(at, fmt::format("expected epsilon min less than epsilon max ({}), found {}", p.eps_max, p.eps_min));
    }
    if (in.keyword_is("penalty")) {
      p.penalty = in.real();
      p.penalty_rate = in.real();
    }
    if (in.keyword_is("metering")) {
      p.metering = elements::read_drive(in, ctx);
      p.metering_negative = in.keyword_is("negative") ? elements::read_drive(in, ctx) : p.metering;
    }
    if (in.keyword_is("orifice")) p.orifice = elements::read_drive(in, ctx);
    if (!p.metering && !p.orifice) in.fail_expected("\"metering\" or \"orifice\" (at least one area)");
    p.fluid_area = in.real();
    p.fluid_density = in.real();
    p.drag = in.real();
    if (in.keyword_is("friction")) {
      p.eps_dot_ref = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive reference strain rate");
      p.friction = parser::checked_real(in, [](double v) { return v >= 0.0 && v <= 1.0; }, "a friction amplitude in [0, 1]");
    }
    LawPtr<1> law = std::make_unique<ShockAbsorberLaw>(std::move(p));
    if (!prestrain) return law;
    return std::make_unique<PrestressedLaw<1>>(std::move(law), VecN<1>::Zero(), std::move(prestrain));
  });
}

/// Axial-torsion coupling (6D, beams) and the invariant angular wrapper (3D).
void register_6d_and_3d_only() {
  auto& r6 = LawRegistry<6>::instance();
  r6.add("linear elastic generic axial torsion coupling", [](CardReader& in, BuildContext&) -> LawPtr<6> {
    const MatN<6> K = read_derivative<6>(in);
    return std::make_unique<AxialTorsionCouplingLaw>(K, MatN<6>::Zero(), in.real());
  });
  r6.add("linear viscoelastic generic axial torsion coupling", [](CardReader& in, BuildContext&) -> LawPtr<6> {
    const MatN<6> K = read_derivative<6>(in);
    const MatN<6> C = read_viscosity<6>(in, K, true);
    return std::make_unique<AxialTorsionCouplingLaw>(K, C, in.real());
  });
  LawRegistry<3>::instance().add("invariant angular", [](CardReader& in, BuildContext& ctx) -> LawPtr<3> {
    const double xi = in.real();
    LawPtr<3> law = read_constitutive_law<3>(in, ctx);
    if (!law) return nullptr;
    return std::make_unique<InvariantAngularLaw>(xi, std::move(law));
  });
}

template <int N>
bool register_all() {
  register_linear<N>();
  register_bistop<N>();
  register_wrappers<N>();
  register_scalar_function_laws<N>();
  if constexpr (N != 6) register_1d_3d<N>();
  register_hardening_and_contact<N>();
  if constexpr (N == 1) register_1d_only();
  if constexpr (N == 6) register_6d_and_3d_only();
  if constexpr (N == 3) {
    LawRegistry<3>::instance().add("axial wrapper", [](CardReader& in, BuildContext& ctx) -> LawPtr<3> {
      const Vec3 dir = in.vec3();
      if (dir.norm() == 0.0) in.fail("the axial wrapper direction must not be null");
      LawPtr<1> law = read_constitutive_law<1>(in, ctx);
      if (!law) return nullptr;
      return std::make_unique<AxialWrapperLaw>(dir, std::move(law));
    });
  }
  return true;
}

/// `[, prestress, <Entity>] [, prestrain, <TplDriveCaller>]` after a law definition.
template <int N>
LawPtr<N> read_prestress(CardReader& in, BuildContext& ctx, LawPtr<N> law) {
  VecN<N> prestress = VecN<N>::Zero();
  drives::TplDriveCallerPtr<typename LawTraits<N>::Entity> prestrain;
  bool any = false;
  if (in.keyword_is("prestress")) prestress = read_entity<N>(in), any = true;
  if (in.keyword_is("prestrain")) {
    prestrain = drives::read_tpl_drive_caller<typename LawTraits<N>::Entity>(in, ctx.model().drive_env());
    any = true;
  }
  if (!any) return law;
  return std::make_unique<PrestressedLaw<N>>(std::move(law), prestress, std::move(prestrain));
}

}  // namespace

template <int N>
std::unique_ptr<ConstitutiveLaw<N>> read_constitutive_law(CardReader& in, BuildContext& ctx) {
  if (in.keyword_is("reference")) {
    const parser::SourceLocation at = in.location();
    const unsigned label = in.label();
    auto law = ctx.read().find_named<ConstitutiveLaw<N>>(named_law_family(N), std::to_string(label));
    if (!law) ctx.skip_if_depends_on_skipped(in, "constitutive law", label);
    if (!law)
      throw parser::InputError(at, fmt::format("expected the label of a {}D constitutive law, found {} "
                                               "(no such \"constitutive law:\" card before this one)", N, label));
    return law->clone();
  }
  if (in.at_end()) in.fail_expected(fmt::format("a {}D constitutive law", N));
  const parser::SourceLocation at = in.location();
  const std::string raw(in.peek_text());
  const std::string name = in.keyword();
  if (const LawReaderFn<N>* reader = LawRegistry<N>::instance().find(name)) {
    LawPtr<N> law = (*reader)(in, ctx);
    if (!law) return nullptr;
    return read_prestress<N>(in, ctx, std::move(law));
  }
  if (name.starts_with(CardRegistry::normalise("symbolic "))) {
    in.not_implemented(fmt::format("constitutive law \"{}\" ({}D; GiNaC symbolic laws are out of scope)", raw, N));
    return nullptr;
  }
  // Known in another dimension: say so.
  const bool in_1 = N != 1 && LawRegistry<1>::instance().find(name);
  const bool in_3 = N != 3 && LawRegistry<3>::instance().find(name);
  const bool in_6 = N != 6 && LawRegistry<6>::instance().find(name);
  if (in_1 || in_3 || in_6)
    throw parser::InputError(at, fmt::format("expected a {}D constitutive law, found \"{}\" (not defined in {}D)", N, raw, N));
  kinds::reject(in, "constitutive law", "constitutive law", at, raw);  // not implemented, or unknown
  return nullptr;
}

template class LawRegistry<1>;
template class LawRegistry<3>;
template class LawRegistry<6>;
template std::unique_ptr<ConstitutiveLaw<1>> read_constitutive_law<1>(CardReader&, BuildContext&);
template std::unique_ptr<ConstitutiveLaw<3>> read_constitutive_law<3>(CardReader&, BuildContext&);
template std::unique_ptr<ConstitutiveLaw<6>> read_constitutive_law<6>(CardReader&, BuildContext&);

namespace {

/// `constitutive law: <label>, [name, "<name>",] <dim>, <law>;` (§2.4.1)
void read_law_card(CardReader& in, BuildContext& ctx, unsigned) {
  const parser::SourceLocation label_at = in.location();
  const unsigned label = in.label();
  if (in.keyword_is("name")) in.string();
  const parser::SourceLocation dim_at = in.location();
  const std::int64_t dim = in.integer();
  const std::string key = std::to_string(label);
  auto check_unique = [&](int n) {
    if (ctx.read().find_named<void>(named_law_family(n), key))
      throw parser::InputError(label_at, fmt::format("constitutive law {} ({}D) is already defined", label, n));
  };
  auto store = [&](auto law, int n) {
    if (!law) return ctx.skip("constitutive law", label);  // not implemented: reported and skipped
    check_unique(n);
    using L = typename decltype(law)::element_type;
    ctx.read().add_named(named_law_family(n), key, std::shared_ptr<L>(std::move(law)));
  };
  switch (dim) {
    case 1: return store(read_constitutive_law<1>(in, ctx), 1);
    case 3: return store(read_constitutive_law<3>(in, ctx), 3);
    case 6: return store(read_constitutive_law<6>(in, ctx), 6);
    case 7:
    case 9:
      ctx.skip("constitutive law", label);
      return in.not_implemented(fmt::format("{}D constitutive laws", dim));
    default: throw parser::InputError(dim_at, fmt::format("expected a constitutive law dimension (1, 3, 6, 7, 9), found {}", dim));
  }
}

const bool registered = register_all<1>() && register_all<3>() && register_all<6>() &&
                        CardRegistry::family("definition").add("constitutive law", read_law_card);

}  // namespace
}  // namespace mbl::laws
