#pragma once
// What the aerodynamic element tests share: a flat plate c81 table with closed-form coefficients
// and the rotor of the momentum-theory tests.
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "elements/aero/c81_data.hpp"
#include "elements/aero/rotor.hpp"
#include "support/element_fixture.hpp"

namespace mbl::test_support {

/// A thin plate in free format: cl = cl0 + 2 pi alpha up to +-10 deg, 0 beyond, cd = 0.01 + 0.1
/// alpha^2 (alpha in rad) at the table points, cm = 0; two Mach columns with equal data.
inline std::string flat_plate_c81(double cl0 = 0.) {
  constexpr double pi = std::numbers::pi;
  std::ostringstream s;
  s.precision(17);
  s << "# FREE FORMAT\nflat plate; 2 5 2 5 2 5\n";
  const double alpha[] = {-180., -10., 0., 10., 180.};
  auto cl = [cl0](double a) { return std::abs(a) > 10. ? 0. : cl0 + 2. * pi * a * pi / 180.; };
  auto cd = [](double a) { return 0.01 + 0.1 * std::pow(a * pi / 180., 2); };
  for (int table = 0; table < 3; ++table) {
    s << "0. 1.\n";
    for (double a : alpha) {
      const double v = table == 0 ? cl(a) : table == 1 ? cd(a) : 0.;
      s << a << ' ' << v << ' ' << v << '\n';
    }
  }
  return s.str();
}

inline elements::aero::C81Data flat_plate(double cl0 = 0.) {
  std::istringstream in(flat_plate_c81(cl0));
  return elements::aero::read_c81(in, 1e-6, false);
}

/// A rotor of radius 5 m at 40 rad/s (reference), n2 the hub, n1 the craft, with a tightly
/// converged momentum-theory iteration.
inline elements::aero::RotorParams rotor_params(ElementFixture& f, elements::aero::RotorParams::Model model) {
  elements::aero::RotorParams p;
  p.model = model;
  p.craft = f.n1;
  p.rotor = f.n2;
  p.omega_ref = 40.;
  p.radius = 5.;
  p.max_iterations = 50;
  p.tolerance = 1e-14;
  return p;
}

}  // namespace mbl::test_support
