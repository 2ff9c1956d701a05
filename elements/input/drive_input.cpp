#include "elements/input/drive_input.hpp"

namespace mbl::elements {

// Minimal forms until the drive-caller registry is wired in: a bare value, `const, v`, `null`.
DriveCallerPtr read_drive(parser::CardReader& in, BuildContext& ctx) {
  if (in.keyword_is("null")) return std::make_shared<ConstDrive>(0.0);
  if (in.keyword_is("const")) return std::make_shared<ConstDrive>(in.real());
  if (in.keyword_is("one") || in.keyword_is("unit")) return std::make_shared<ConstDrive>(1.0);
  return std::make_shared<ConstDrive>(in.real());
}

std::function<Vec3(double)> read_vec3_drive(parser::CardReader& in, BuildContext& ctx) {
  if (in.keyword_is("null")) return [](double) { return Vec3::Zero(); };
  in.keyword_is("single");
  const Vec3 dir = in.vec3();
  DriveCallerPtr d = read_drive(in, ctx);
  return [dir, d](double t) { return Vec3(dir * d->value(t)); };
}

}  // namespace mbl::elements
