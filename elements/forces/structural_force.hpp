#pragma once
// Structural forces and couples (input manual "force"/"couple", technical manual §14.2):
// absolute (direction fixed in W) or follower (fixed in the node frame), applied at an offset
// point of a node; internal variants apply the opposite load to a second node.
#include <functional>

#include "elements/joints/joint.hpp"

namespace mbl::elements {

class StructuralForce final : public Element {
 public:
  enum class Kind { Force, Couple };
  enum class Frame { Absolute, Follower };
  /// `value(t)`: the force (or couple) in W for Absolute, in the node frame for Follower.
  StructuralForce(unsigned label, Kind kind, Frame frame, const Attachment& a,
                  const Attachment* b_internal, std::function<Vec3(double)> value);

  std::string_view kind() const override { return kind_ == Kind::Force ? "force" : "couple"; }
  std::string_view type_name() const override;
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void output_setup(OutputSink& out) override;
  void output(OutputSink& out) const override;
  std::string log_line() const override;
  /// The load in W at time t.
  Vec3 load_W(double t) const;
  /// `output relative` (follower loads, MBDyn's strforce.cc ReadStructuralForce): .frc and NetCDF
  /// give the load in the node frame instead of W.
  bool output_relative = false;

 private:
  Kind kind_;
  Frame frame_;
  Attachment a_;
  bool internal_ = false;
  Attachment b_;
  std::function<Vec3(double)> value_;
  double t_ = 0.0;
  int nc_value_ = -1, nc_arm1_ = -1, nc_arm2_ = -1;
};

}  // namespace mbl::elements
