// Every element's Jacobian against finite differences of its residual (tests/support).
#include <gtest/gtest.h>

#include "elements/bodies/body.hpp"
#include "elements/forces/gravity.hpp"
#include "elements/forces/structural_force.hpp"
#include "elements/joints/clamp.hpp"
#include "elements/joints/distance.hpp"
#include "elements/joints/revolute_hinge.hpp"
#include "elements/joints/spherical_hinge.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "support/element_fixture.hpp"

using namespace mbl;
using namespace mbl::elements;

using Fixture = test_support::ElementFixture;

TEST(ElementJacobians, DynamicNodesAlone) {
  Fixture f;
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElementJacobians, BodyWithUniformGravity) {
  Fixture f;
  BodyParams p{2.5, Vec3(0.1, -0.2, 0.3), Mat3(Vec3(1.0, 2.0, 3.0).asDiagonal())};
  p.J_cm_N(0, 1) = p.J_cm_N(1, 0) = 0.2;
  f.model.add_element(std::make_unique<Body>(1, *f.n1, p));
  f.model.add_element(std::make_unique<Gravity>([](double) { return Vec3(0.0, -1.0, -9.81); }));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElementJacobians, BodyWithCentralGravity) {
  Fixture f;
  BodyParams p{2.5, Vec3(0.1, -0.2, 0.3), Mat3::Identity()};
  f.model.add_element(std::make_unique<Body>(1, *f.n2, p));
  f.model.add_element(std::make_unique<Gravity>(Vec3(3.0, -2.0, 1.0), 10.0));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElementJacobians, Clamp) {
  Fixture f;
  f.model.add_element(std::make_unique<Clamp>(1, *f.n1, test_support::generic_ic(1).x_W, test_support::generic_ic(1).R_WN));
  const auto r = f.check();
  EXPECT_LT(r.max_error, 1e-6) << r.str();
}

TEST(ElementJacobians, RevoluteHingeAndPinAndRotation) {
  for (auto v : {RevoluteHinge::Variant::Hinge, RevoluteHinge::Variant::Pin, RevoluteHinge::Variant::Rotation}) {
    Fixture f;
    Attachment b = v == RevoluteHinge::Variant::Pin ? Attachment{nullptr, Vec3(1, 2, 3), rot::euler123_to_R(Vec3(0.2, 0.1, 0.3))}
                                                    : f.att(f.n2, 2);
    f.model.add_element(std::make_unique<RevoluteHinge>(1, v, f.att(f.n1, 1), b));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << static_cast<int>(v) << ": " << r.str();
  }
}

TEST(ElementJacobians, SphericalHingeAndPin) {
  for (bool pin : {false, true}) {
    Fixture f;
    Attachment b = pin ? Attachment{nullptr, Vec3(1, 2, 3), Mat3::Identity()} : f.att(f.n2, 2);
    f.model.add_element(std::make_unique<SphericalHinge>(1, pin, f.att(f.n1, 1), b));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << pin << ": " << r.str();
  }
}

TEST(ElementJacobians, DistanceWithAndWithoutOffsets) {
  for (bool offsets : {false, true}) {
    Fixture f;
    Attachment a = offsets ? f.att(f.n1, 1) : Attachment{f.n1};
    Attachment b = offsets ? f.att(f.n2, 3) : Attachment{f.n2};
    f.model.add_element(std::make_unique<Distance>(1, a, b, std::make_shared<ConstDrive>(0.7)));
    const auto r = f.check();
    EXPECT_LT(r.max_error, 1e-6) << offsets << ": " << r.str();
  }
}

TEST(ElementJacobians, StructuralForcesAndCouples) {
  using K = StructuralForce::Kind;
  using F = StructuralForce::Frame;
  for (K k : {K::Force, K::Couple})
    for (F fr : {F::Absolute, F::Follower})
      for (bool internal : {false, true}) {
        Fixture f;
        Attachment b = f.att(f.n2, 2);
        f.model.add_element(std::make_unique<StructuralForce>(
            1, k, fr, f.att(f.n1, 1), internal ? &b : nullptr, [](double t) { return Vec3(1.0, -2.0 * t, 3.0); }));
        const auto r = f.check();
        EXPECT_LT(r.max_error, 1e-6) << int(k) << int(fr) << internal << ": " << r.str();
      }
}
