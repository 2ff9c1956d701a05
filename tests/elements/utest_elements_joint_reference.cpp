// The orientation joints linearise at (reference_R_WN): a node's Newton reference; a dummy node's
// is zero, as MBDyn's GetRRef() of a DummyStructNode (its StructNode part is built with a zero
// orientation that no update of the dummy changes); a displacement node's the identity.
#include <gtest/gtest.h>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {
namespace {

TEST(JointReference, DummyNodesHaveMBDynsZeroReference) {
  StructNode::InitialConditions ic;
  ic.R_WN = rot::cgr_to_R(Vec3(0.3, -0.2, 0.1));
  StructNode base(1, StructNode::Type::Dynamic, ic);
  StructNode dummy(2, StructNode::Type::DummyOffset, {});
  dummy.dummy_base = &base;
  dummy.dummy_offset_B = Vec3(0.5, 0.0, 0.0);
  dummy.update_dummy();
  EXPECT_EQ(dummy.R_WN(), base.R_WN());  // the dummy turns with its base...
  EXPECT_EQ(reference_R_WN(&dummy), Mat3::Zero());  // ...but its reference stays MBDyn's zero
  EXPECT_EQ(reference_R_WN(&base), base.R_ref());
  StructNode displacement(3, StructNode::Type::StaticDisplacement, {});
  EXPECT_EQ(reference_R_WN(&displacement), Mat3::Identity());
  EXPECT_EQ(reference_R_WN(nullptr), Mat3::Identity());
}

}  // namespace
}  // namespace mbl::elements
