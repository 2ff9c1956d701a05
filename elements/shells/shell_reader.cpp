// Readers of the `shell4eas:` and `shell4easans:` cards (input manual §8.15.1).
#include <cmath>
#include <limits>
#include <type_traits>
#include <memory>

#include <fmt/format.h>

#include "elements/shells/membrane.hpp"
#include "elements/shells/shell.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// Positive real, else an input error naming the parameter.
double read_positive(CardReader& in, const char* what) {
  return parser::checked_real(in, [](double v) { return v > 0.0; }, std::string("a positive ") + what);
}

/// Isotropic material data of shells and membranes.
struct Isotropic {
  double E = 0.0, nu = 0.0, G = 0.0, h = 0.0, a_s = 1.0, a_t = 0.01;
};

/// `isotropic, {E | nu | G | thickness | as | at}, <value> [, ...]` (input manual eqs. 8.81, 8.84,
/// 8.86; shear factor as = 1 and torsional factor at = 0.01 unless given, shells only).
Isotropic read_isotropic(CardReader& in, bool shell) {
  const auto at = in.location();
  double E = 0.0, nu = 0.0, G = 0.0, h = 0.0, a_s = 1.0, a_t = 0.01;
  bool got_E = false, got_nu = false, got_G = false, got_h = false;
  while (!in.at_end()) {
    if (in.keyword_is("E") || in.keyword_is("Young modulus")) {
      E = read_positive(in, "Young modulus");
      got_E = true;
    } else if (in.keyword_is("nu") || in.keyword_is("Poisson modulus")) {
      nu = parser::checked_real(in, [](double v) { return v >= 0.0 && v < 0.5; }, "a Poisson modulus in [0, 0.5)");
      got_nu = true;
    } else if (in.keyword_is("G") || in.keyword_is("shear modulus")) {
      G = read_positive(in, "shear modulus");
      got_G = true;
    } else if (in.keyword_is("thickness")) {
      h = read_positive(in, "thickness");
      got_h = true;
    } else if (shell && in.keyword_is("as")) {
      a_s = read_positive(in, "shear factor (as)");
    } else if (shell && in.keyword_is("at")) {
      a_t = read_positive(in, "torsional factor (at)");
    } else {
      break;
    }
  }
  const int got = int(got_E) + int(got_nu) + int(got_G);
  if (got < 2)
    throw parser::InputError(at, "expected two of E, nu, G for the isotropic shell law, found fewer");
  if (got == 3 && std::abs(E / (2.0 * (1.0 + nu)) - G) > 1e-12 * G)
    throw parser::InputError(at, fmt::format("expected consistent E, nu, G (G = E/(2(1 + nu)) = {}), found G = {}",
                                             E / (2.0 * (1.0 + nu)), G));
  if (!got_G) G = E / (2.0 * (1.0 + nu));
  if (!got_E) E = 2.0 * (1.0 + nu) * G;
  if (!got_nu) {
    nu = E / (2.0 * G) - 1.0;
    if (nu < 0.0 || nu >= 0.5)
      throw parser::InputError(at, fmt::format("expected E and G giving a Poisson modulus in [0, 0.5), found {}", nu));
  }
  if (!got_h) throw parser::InputError(in.location(), "expected `thickness` for the isotropic law");
  return {E, nu, G, h, a_s, a_t};
}

/// The shell's 12x12 law of the isotropic data (input manual eq. 8.81).
Mat12 isotropic_shell(const Isotropic& iso) {
  const auto [E, nu, G, h, a_s, a_t] = iso;
  const double C = E * h / (1.0 - nu * nu);  // eq. 8.83a
  const double D = C * h * h / 12.0;         // eq. 8.83b
  const double Gh = G * h;
  const double F = Gh * h * h / 12.0;        // eq. 8.83c
  Mat12 m = Mat12::Zero();
  m(0, 0) = C;
  m(0, 4) = m(4, 0) = C * nu;
  m(1, 1) = 2.0 * Gh;
  m(2, 2) = a_s * Gh;
  m(3, 3) = 2.0 * Gh;
  m(4, 4) = C;
  m(5, 5) = a_s * Gh;
  m(6, 6) = 2.0 * F;
  m(7, 7) = D;
  m(7, 9) = m(9, 7) = -D * nu;
  m(8, 8) = a_t * F;
  m(9, 9) = D;
  m(10, 10) = 2.0 * F;
  m(11, 11) = a_t * F;
  return m;
}

/// `plane stress orthotropic, {E_l | E_t | nu_lt | nu_tl | G | beta | thickness | as | at}, <v>
/// [, ...]` (MBDyn's shell.cc ReadShellConstLaw; the long names `longitudinal Young modulus`,
/// `transverse Young modulus`, `longitudinal transverse Poisson modulus`, `transverse
/// longitudinal Poisson modulus`, `shear modulus` too): the shell's 12x12 law with the fibres
/// along the first in-plane axis. As MBDyn: `nu_tl` alone gives nu_lt = nu_tl E_l / E_t; `nu_tl`
/// after `nu_lt` is "already provided", both (nu_tl first) must satisfy nu_tl E_l = nu_lt E_t to
/// machine epsilon; a fibre angle `beta` is refused ("not supported yet").
Mat12 read_orthotropic_shell(CardReader& in) {
  const auto at = in.location();
  double E_l = 0.0, E_t = 0.0, nu_lt = 0.0, nu_tl = 0.0, G = 0.0, h = 0.0, a_s = 1.0, a_t = 0.01;
  bool got_E_l = false, got_E_t = false, got_nu_lt = false, got_nu_tl = false, got_G = false, got_h = false,
       got_as = false, got_at = false;
  auto once = [&](bool& got, const char* what) {
    if (got)
      throw parser::InputError(in.location(), fmt::format("expected each datum of the plane stress orthotropic law "
                                                          "once, found {} again", what));
    got = true;
  };
  while (!in.at_end()) {
    if (in.keyword_is("E_l") || in.keyword_is("longitudinal Young modulus")) {
      once(got_E_l, "the longitudinal Young modulus");
      E_l = read_positive(in, "longitudinal Young modulus");
    } else if (in.keyword_is("E_t") || in.keyword_is("transverse Young modulus")) {
      once(got_E_t, "the transverse Young modulus");
      E_t = read_positive(in, "transverse Young modulus");
    } else if (in.keyword_is("nu_lt") || in.keyword_is("longitudinal transverse Poisson modulus")) {
      once(got_nu_lt, "the longitudinal transverse Poisson modulus");
      nu_lt = in.real();
    } else if (in.keyword_is("nu_tl") || in.keyword_is("transverse longitudinal Poisson modulus")) {
      // shell.cc tests the flag of nu_lt here: nu_tl after nu_lt is "already provided".
      if (got_nu_lt)
        throw parser::InputError(in.location(), "expected nu_tl before nu_lt (MBDyn's reader takes nu_tl after "
                                                "nu_lt as already provided), found it after");
      got_nu_tl = true;
      nu_tl = in.real();
    } else if (in.keyword_is("G") || in.keyword_is("shear modulus")) {
      once(got_G, "the shear modulus");
      G = read_positive(in, "shear modulus");
    } else if (in.peek_keyword_is("beta")) {
      throw parser::InputError(in.location(), "expected no fibre angle (MBDyn 2024: \"beta\" not supported yet), "
                                              "found beta");
    } else if (in.keyword_is("thickness")) {
      once(got_h, "the thickness");
      h = read_positive(in, "thickness");
    } else if (in.keyword_is("as")) {
      once(got_as, "as");
      a_s = read_positive(in, "shear factor (as)");
    } else if (in.keyword_is("at")) {
      once(got_at, "at");
      a_t = read_positive(in, "torsional factor (at)");
    } else {
      break;
    }
  }
  const auto missing = [&](const char* what) {
    return parser::InputError(at, std::string("expected ") + what + " in the plane stress orthotropic law, found none");
  };
  if (!got_E_l) throw missing("the longitudinal Young modulus (E_l)");
  if (!got_E_t) throw missing("the transverse Young modulus (E_t)");
  if (!got_nu_lt && !got_nu_tl) throw missing("a Poisson modulus (nu_lt or nu_tl)");
  if (got_nu_lt && got_nu_tl) {
    if (std::abs(nu_tl * E_l - nu_lt * E_t) > std::numeric_limits<double>::epsilon())
      throw parser::InputError(at, fmt::format("expected nu_tl E_l = nu_lt E_t, found {} and {}", nu_tl * E_l, nu_lt * E_t));
  } else if (got_nu_tl) {
    nu_lt = nu_tl * E_l / E_t;
  }
  if (!got_G) throw missing("the shear modulus (G)");
  if (!got_h) throw missing("the thickness");
  const double C = h / (1.0 - nu_lt * nu_lt / E_l * E_t);
  const double D = h * h * h / 12.0 / (1.0 - nu_lt * nu_lt / E_l * E_t);
  const double Gh = h * G;
  const double F = h * h * h * G / 12.0;
  Mat12 m = Mat12::Zero();
  m(0, 0) = C * E_l;
  m(0, 4) = m(4, 0) = C * nu_lt * E_t;
  m(1, 1) = 2.0 * Gh;
  m(2, 2) = a_s * Gh;
  m(3, 3) = 2.0 * Gh;
  m(4, 4) = C * E_t;
  m(5, 5) = a_s * Gh;
  m(6, 6) = 2.0 * F;
  m(7, 7) = D * E_l;
  m(7, 9) = m(9, 7) = -D * nu_lt * E_t;
  m(8, 8) = a_t * F;
  m(9, 9) = D * E_t;
  m(10, 10) = 2.0 * F;
  m(11, 11) = a_t * F;
  return m;
}

/// A linear elastic plate law (input manual eqs. 8.80, 8.85): [matr,] N x N reals | sym, upper
/// triangle | diag, N reals | isotropic, ...; then [prestress, N reals]. `isotropic_law` builds D
/// from the isotropic data.
template <class Law, class IsotropicLaw>
Law read_plate_law(CardReader& in, bool shell, IsotropicLaw isotropic_law) {
  Law law;
  const int n = static_cast<int>(law.D.rows());
  if (in.keyword_is("diag")) {
    for (int i = 0; i < n; ++i) law.D(i, i) = in.real();
  } else if (in.keyword_is("sym")) {
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) law.D(i, j) = law.D(j, i) = in.real();
  } else if (in.keyword_is("isotropic")) {
    law.D = isotropic_law(read_isotropic(in, shell));
  } else if constexpr (std::is_same_v<Law, ShellLaw>) {
    // MBDyn 2024's shell.cc ReadShellConstLaw; the input manual (§8.15) has only the isotropic law.
    if (in.keyword_is("plane stress orthotropic")) {
      law.D = read_orthotropic_shell(in);
    } else {
      in.keyword_is("matr");
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) law.D(i, j) = in.real();
    }
  } else {
    in.keyword_is("matr");
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) law.D(i, j) = in.real();
  }
  if (in.keyword_is("prestress"))
    for (int i = 0; i < n; ++i) law.prestress[i] = in.real();
  return law;
}

/// The membrane's isotropic law: C = E h / (1 - nu^2) on the normal strains and 2 G h on the
/// shear F_1.F_2 (as MBDyn builds it; input manual eq. 8.87 with E_1 = E_2).
Mat3 isotropic_membrane(const Isotropic& iso) {
  const double C = iso.E * iso.h / (1.0 - iso.nu * iso.nu);
  Mat3 D;
  D << C, C * iso.nu, 0.0, C * iso.nu, C, 0.0, 0.0, 0.0, 2.0 * iso.G * iso.h;
  return D;
}

void read_shell(CardReader& in, BuildContext& ctx, unsigned label, bool ans) {
  std::array<StructNode*, 4> nodes;
  for (auto& n : nodes) {
    n = &ctx.struct_node(in);
    // `orientation, <R>` per node: MBDyn's ReadShell4EAS / ReadShell4EASANS read it and their
    // elements never use it (shelleas.cc, shelleasans.cc): the triads come from the geometry.
    if (in.keyword_is("orientation")) (void)in.orientation(n->frame());
  }
  ShellLaw law = read_plate_law<ShellLaw>(in, true, isotropic_shell);
  auto shell = std::make_unique<Shell4>(label, nodes, std::move(law), ans);
  shell->where = in.card_location();
  ctx.read_output_flag(in, *shell, "plates");
  ctx.model().add_element(std::move(shell));
}

void read_membrane(CardReader& in, BuildContext& ctx, unsigned label) {
  std::array<StructNode*, 4> nodes;
  for (auto& n : nodes) n = &ctx.struct_node(in, true);
  MembraneLaw law = read_plate_law<MembraneLaw>(in, false, isotropic_membrane);
  auto membrane = std::make_unique<Membrane4>(label, nodes, law);
  membrane->where = in.card_location();
  ctx.read_output_flag(in, *membrane, "plates");
  ctx.model().add_element(std::move(membrane));
}

const bool registered =
    CardRegistry::family("element").add("membrane4eas", read_membrane) &&
    CardRegistry::family("element").add(
        "shell4eas", [](CardReader& in, BuildContext& c, unsigned l) { read_shell(in, c, l, false); }) &&
    CardRegistry::family("element").add(
        "shell4easans", [](CardReader& in, BuildContext& c, unsigned l) { read_shell(in, c, l, true); });

}  // namespace
}  // namespace mbl::elements
