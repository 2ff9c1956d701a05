// Uniform gravity reaches the bodies one residual assembly late, as in MBDyn (elements/forces/
// gravity.hpp): the first residual at a new time still has the previous time's gravity.
#include <gtest/gtest.h>

#include "elements/forces/gravity.hpp"
#include "mbdyn-like/core/assembly.hpp"

using namespace mbl;
using namespace mbl::elements;

TEST(ElementGravity, UniformValueLagsOneResidualAssembly) {
  Gravity g([](double t) { return Vec3(0.0, 0.0, -t); });
  const Vec3 x = Vec3::Zero();
  EXPECT_DOUBLE_EQ(g.acceleration(x, 1.0).z(), -1.0);  // before any assembly: at the first time
  Vector r = Vector::Zero(1);
  ResidualSink sink(r, nullptr);
  auto assemble = [&](double t) {
    const StepContext c{t, 1e-3, nullptr, nullptr};
    g.residual(sink, c);
    g.after_residual(c);
  };
  assemble(1.0);
  // First residual at t = 2: the bodies still see the value of the last assembly (t = 1) ...
  EXPECT_DOUBLE_EQ(g.acceleration(x, 2.0).z(), -1.0);
  assemble(2.0);
  // ... from the second one on, t = 2's.
  EXPECT_DOUBLE_EQ(g.acceleration(x, 2.0).z(), -2.0);
}

TEST(ElementGravity, CentralGravityIsEvaluatedWhereAsked) {
  Gravity g(Vec3::Zero(), 4.0);
  EXPECT_NEAR(g.acceleration(Vec3(2.0, 0.0, 0.0), 0.0).x(), -1.0, 1e-15);
}
