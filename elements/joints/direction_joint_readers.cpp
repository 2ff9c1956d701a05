// Readers of the joints along a direction on one node (input manual §8.12.1-2, §8.12.29-30):
// `linear|angular velocity` and `linear|angular acceleration`, `node, direction, drive` (the
// direction global, or in the node frame for the angular cards).
#include "elements/input/drive_input.hpp"
#include "elements/joints/acceleration_joints.hpp"
#include "elements/joints/joint_input.hpp"
#include "elements/joints/velocity_joints.hpp"

namespace mbl::elements {
namespace {

template <class DirectionJointType>
bool register_direction_joints(const char* linear_card, const char* angular_card) {
  using Kind = DirectionJoint::Kind;
  auto reader = [](Kind kind) {
    return [kind](parser::CardReader& in, BuildContext& ctx, unsigned label) {
      StructNode& n = ctx.struct_node(in);
      const Vec3 e = read_axis(in, kind == Kind::Linear ? nullptr : &n);
      add_joint(in, ctx, std::make_unique<DirectionJointType>(label, kind, n, e, read_drive(in, ctx)));
    };
  };
  return CardRegistry::family("joint").add(linear_card, reader(Kind::Linear)) &&
         CardRegistry::family("joint").add(angular_card, reader(Kind::Angular));
}

const bool registered = register_direction_joints<VelocityJoint>("linear velocity", "angular velocity") &&
                        register_direction_joints<AccelerationJoint>("linear acceleration", "angular acceleration");

}  // namespace
}  // namespace mbl::elements
