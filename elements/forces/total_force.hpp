#pragma once
// Total force (input manual §8.8.4-8.8.5, `force: total` and `force: total internal`): a force and
// a moment given in node 1's frame (through the force and moment orientations), so both follow
// node 1. The single-node form applies the force at node 1's offset point; the internal form, as
// MBDyn does, applies it at node 2's offset point (node 1's offset is read but unused) and the
// opposite force and moment to node 2.
#include <optional>

#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::elements {

struct TotalForceParams {
  Attachment a;                 ///< node 1: offset (single-node form), force orientation R_NH
  Mat3 R_NM = Mat3::Identity(); ///< node 1's moment orientation
  std::optional<Attachment> b;  ///< node 2 (internal form): its offset
  std::function<Vec3(double)> force, moment;  ///< in the force / moment orientation frames
};

class TotalForce final : public Element {
 public:
  TotalForce(unsigned label, TotalForceParams p);

  std::string_view kind() const override { return "force"; }
  std::string_view type_name() const override { return p_.b ? "total internal force" : "total force"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  void output(OutputSink& out) const override;  // no .log line: appendix E has no total force entry

 private:
  struct Loads {
    Vec3 f_W, m_W, arm1_W;  ///< force, moment, and the arm of the force from node 1, in W
  };
  Loads loads(double t) const;
  TotalForceParams p_;
  double t_ = 0.0;
};

}  // namespace mbl::elements
