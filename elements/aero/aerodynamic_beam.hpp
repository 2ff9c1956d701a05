#pragma once
// Aerodynamic beam2 / beam3 (input manual §8.1.1): a lifting surface on the nodes of a beam2 or
// beam3 element. Each node i carries an offset f_i and a surface frame R_NA,i (node frame); the
// span coordinate s in [-1, 1] is split into one portion per node (beam3: [-1, -1/sqrt 3],
// [-1/sqrt 3, 1/sqrt 3], [1/sqrt 3, 1]; beam2: [-1, 0], [0, 1]), each integrated with the Gauss
// points. At s the surface point, its velocity and angular velocity are the beam's shape-function
// interpolation N_i(s) of the nodes' x_i + R_i f_i, v_i + w_i x R_i f_i and w_i; the frame is
// MBDyn's interpolation of the Cayley-Gibbs-Rodrigues parameters: beam3
// R_2 R(N_1 g_1 + N_3 g_3), g_k = cgr(R_2^T R_k); beam2 R_1 R(g (1 + s) / 4), g = cgr(R_1^T R_2),
// with R_k = R_Wk R_NA,k. The weight of a point is its Gauss weight times the portion's
// half-length in s times |dx/ds| of the nodes' positions; a portion's loads go to its node
// (force, and moment plus (x - x_node) x force). Density and sound celerity: at node 2 (beam3) or
// at the mid point of the nodes (beam2). Tip loss is read at the Gauss coordinate of the
// portion, as MBDyn does. No Jacobian contribution (MBDyn's default) unless `jacobian, yes`: then
// MBDyn's (aeroelem.cc AerodynamicBeam::AssJac, AerodynamicBeam2::AssJac; aero_surface.hpp).
#include <array>

#include "elements/aero/aero_surface.hpp"
#include "elements/beams/beam.hpp"

namespace mbl::elements::aero {

class AerodynamicBeam final : public AeroSurface {
 public:
  /// offsets and frames per beam node, in the node frames.
  AerodynamicBeam(unsigned label, const Beam& beam, std::array<Vec3, 3> f_N, std::array<Mat3, 3> R_NA,
                  AeroSurfaceParams p);

  std::string_view type_name() const override {
    return nn_ == 3 ? "AerodynamicBeam3" : "AerodynamicBeam2";
  }
  void residual(ResidualSink& r, const StepContext& c) override;
  void jacobian(JacobianSink& J, const StepContext& c) override;
  std::string log_line() const override;
  void output(OutputSink& out) const override;

 private:
  /// The nodes' surface points, velocities and frames, the frames' relative rotation vectors
  /// and the air at node 2 (beam3) or mid-way (beam2).
  struct Surface {
    std::array<Vec3, 3> x, X, V, w, f;
    std::array<Mat3, 3> R;
    Vec3 g1 = Vec3::Zero(), g3 = Vec3::Zero();
    double rho = 0., sound = 0.;
  };
  /// An integration point: span coordinate, shape functions, position, relative velocity,
  /// angular velocity, interpolated rotation vector, section frame and weight.
  struct Point {
    double s = 0.;
    std::array<double, 3> N{};
    Vec3 Xr = Vec3::Zero(), Vr = Vec3::Zero(), wr = Vec3::Zero(), g = Vec3::Zero();
    Mat3 R_WS;
    double weight = 0.;
  };
  Surface surface(double t) const;
  /// fn(portion k, Gauss point i, running point index, point) for every point, portion by portion.
  template <class PointFn>
  void for_each_point(const Surface& S, double t, PointFn&& fn);

  const Beam& beam_;
  int nn_;
  std::array<Vec3, 3> f_N_;
  std::array<Mat3, 3> R_NA_;
  std::array<Vec3, 3> F_W_{}, M_W_{};
};

}  // namespace mbl::elements::aero
