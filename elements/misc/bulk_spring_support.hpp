#pragma once
// The `bulk` elements (input manual §8.5; MBDyn's base/bulk.cc ReadBulk): `spring support`, a
// spring of drive-given stiffness on one degree of freedom.
#include "elements/genels/node_dof.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/element.hpp"

namespace mbl::elements {

/// `bulk: <label>, spring support, <node>, <type> [, <dof>], (DriveCaller) <k>;` adds -k(t) x to
/// the equation of the node's degree of freedom, x the value of its unknown (bulk.h
/// BulkSpringSupport). MBDyn's element acts on the node's first degree of freedom whatever the
/// index read (its AssRes/AssJac use row and value 1); so does this one. No output (Bulk has none).
class BulkSpringSupport final : public Element {
 public:
  BulkSpringSupport(unsigned label, NodeDof dof, DriveCallerPtr stiffness);

  std::string_view kind() const override { return "bulk"; }
  std::string_view type_name() const override { return "spring support"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;

 private:
  NodeDof dof_;
  DriveCallerPtr stiffness_;
};

}  // namespace mbl::elements
