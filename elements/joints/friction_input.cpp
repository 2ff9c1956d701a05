#include "elements/joints/friction_input.hpp"

#include "elements/drives/scalar_function.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

// §2.8.1: `modlugre, sigma0, sigma1, sigma2, kappa, (ScalarFunction)` or
// `discrete coulomb, (ScalarFunction) [, sigma2, s2] [, velocity ratio, r]` (MBDyn's defaults
// s2 = 0, r = 0.8).
std::unique_ptr<FrictionModel> read_friction_model(CardReader& in) {
  if (in.keyword_is("modlugre")) {
    const double sigma0 = in.real(), sigma1 = in.real(), sigma2 = in.real(), kappa = in.real();
    return std::make_unique<ModLugreFriction>(sigma0, sigma1, sigma2, kappa, drives::read_scalar_function(in));
  }
  if (!in.keyword_is("discrete coulomb")) in.fail_expected("a friction model (modlugre, discrete coulomb)");
  drives::ScalarFunctionPtr fs = drives::read_scalar_function(in);
  double sigma2 = 0.0, ratio = 0.8;
  if (in.keyword_is("sigma2")) sigma2 = in.real();
  if (in.keyword_is("velocity ratio")) ratio = in.real();
  return std::make_unique<DiscreteCoulombFriction>(std::move(fs), sigma2, ratio);
}

/// §2.8.2: `simple`, `simple plane hinge`, or `screw joint, radius, r, half thread angle, g`.
FrictionShape read_shape_function(CardReader& in, ScrewThread& thread) {
  if (in.keyword_is("simple plane hinge")) return FrictionShape::SimplePlaneHinge;
  if (in.keyword_is("simple")) return FrictionShape::Simple;
  if (!in.keyword_is("screw joint")) in.fail_expected("a friction shape function (simple, simple plane hinge, screw joint)");
  // ParseShapeCoefficient: both keywords are optional (0 when missing, with a pedantic warning).
  if (in.keyword_is("radius")) thread.radius = in.real();
  if (in.keyword_is("half thread angle")) thread.half_thread_angle = in.real();
  return FrictionShape::ScrewJoint;
}

}  // namespace

bool read_friction(CardReader& in, BuildContext& /*ctx*/, std::string_view /*joint*/, FrictionRadius radius,
                   std::unique_ptr<JointFriction>& out) {
  out.reset();
  if (!in.keyword_is("friction")) return true;
  const double r = radius == FrictionRadius::Required ? in.real() : 1.0;  // average radius
  double preload = 0.0;
  if (in.keyword_is("preload")) preload = in.real();
  std::unique_ptr<FrictionModel> model = read_friction_model(in);
  const parser::SourceLocation shape_at = in.location();
  ScrewThread thread;
  const FrictionShape shape = read_shape_function(in, thread);
  const bool screw = radius == FrictionRadius::Screw;
  if (screw && shape != FrictionShape::ScrewJoint)
    throw parser::InputError(shape_at, "expected the \"screw joint\" shape function (the only one of a screw joint's friction)");
  // The screw's lead angle divides the pitch by the thread's circumference (ComputePitchAngle).
  if (screw && !(thread.radius > 0.0))
    throw parser::InputError(shape_at, "expected a positive thread radius for the screw joint's friction, found " +
                                           std::to_string(thread.radius));
  out = std::make_unique<JointFriction>(std::move(model), shape, preload, r, thread);
  return true;
}

}  // namespace mbl::elements
