#pragma once
// Point contact (MBDyn's `point contact` joint, struct/point_contact.cc PointSurfaceContact): a
// point (node 1) against the plane through the surface node s with normal n = R_WS d_S. With
// x = x1 - xs and the signed distance delta = x . n, a penetration (delta < 0) pushes the point
// out with F1 = -k delta n; the surface receives Fs = -F1 at the foot of the point on the plane,
// arm a = x - delta n, hence the moment a x Fs at node s. No multipliers; MBDyn writes no output.
#include "elements/joints/joint.hpp"

namespace mbl::elements {

class PointContact final : public Joint {
 public:
  PointContact(unsigned label, StructNode& point, StructNode& surface, const Vec3& normal_S, double stiffness);
  std::string_view type_name() const override { return "PointSurfaceContact"; }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  bool concurrent_jacobian() const override { return true; }
  // MBDyn's PointSurfaceContact is not deformable (Elem::bIsDeformable): it takes part in the
  // initial assembly like the constraints (dataman2.cc InitialJointAssembly).
  bool assembles_as_constraint() const override { return true; }
  // PointSurfaceContact::Output writes nothing and it declares no NetCDF variable.
  void output_setup(OutputSink&) override {}
  void output(OutputSink&) const override {}
  bool netcdf_listed() const override { return false; }

  /// The signed distance of the point from the plane at the current state (negative: inside).
  double distance() const;

 private:
  StructNode& point_;
  StructNode& surface_;
  Vec3 normal_S_;
  double stiffness_;
};

}  // namespace mbl::elements
