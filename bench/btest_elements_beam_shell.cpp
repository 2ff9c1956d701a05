// Residual and Jacobian of one element through the model (its nodes' own terms included): a
// three-node viscoelastic beam and a four-node shell (shell4eas), each at a strained, rotated
// state like the Jacobian checks of tests/elements.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <vector>

#include "elements/beams/beam.hpp"
#include "elements/laws/elastic_laws.hpp"
#include "elements/shells/shell.hpp"
#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace {

using namespace mbl;
using namespace mbl::elements;

/// A model holding one element on dynamic nodes, evaluated at a displaced state.
struct OneElement {
  Model model;
  std::vector<StructNode*> nodes;
  Vector y, yp, r;
  integrators::SparseMatrix J{0};

  StructNode* add_node(const Vec3& x_W, const Mat3& R_WN, const Vec3& w_W) {
    StructNode::InitialConditions ic;
    ic.x_W = x_W;
    ic.R_WN = R_WN;
    ic.w_W = w_W;
    const unsigned label = static_cast<unsigned>(nodes.size() + 1);
    nodes.push_back(static_cast<StructNode*>(
        &model.add_node(std::make_unique<StructNode>(label, StructNode::Type::Dynamic, ic))));
    return nodes.back();
  }
  void start() {
    model.setup_elements();
    model.number_dofs();
    model.initial_state(y, yp);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const int i = nodes[k]->dof_index();
      y.segment<3>(i) += Vec3(0.01 * k, -0.02, 0.01 * std::sin(1.0 + k));
      y.segment<3>(i + 3) = Vec3(0.02 * k, -0.01, 0.015);
    }
    model.after_predict(0.1, y, yp);
    model.update(0.1, y, yp);
    r.resize(model.size());
    J = integrators::SparseMatrix(model.size());
  }
  /// What one Newton iteration asks of the element: its residual and its Jacobian.
  void residual_and_jacobian() {
    r.setZero();
    model.residual(0.1, 0.3, r, nullptr);
    J.zero();
    model.jacobian(0.1, 0.3, J);
    benchmark::DoNotOptimize(r.data());
  }
};

void BM_BeamResidualJacobian(benchmark::State& state) {
  OneElement m;
  std::vector<BeamPoint> pts;
  for (int k = 0; k < 3; ++k) {
    const double s = 0.5 * k;
    StructNode* n = m.add_node(Vec3(s, 0.2 * s * s, -0.1 * s), rot::euler123_to_R(Vec3(0.2 * k, -0.1, 0.3)),
                               Vec3(0.5 - k, 0.2, -0.3));
    pts.push_back({n, Vec3(0.01 * k, 0.02, 0.0), Mat3::Identity()});
  }
  Mat6 K = Vec6(3.0e3, 1.2e3, 1.5e3, 20.0, 35.0, 50.0).asDiagonal();
  K(0, 4) = K(4, 0) = 40.0;
  std::vector<BeamSection> secs(2);
  for (auto& s : secs) {
    s.R_WS = rot::euler123_to_R(Vec3(0.1, 0.0, 0.2));
    s.law = std::make_unique<laws::LinearViscoElasticLaw<6>>(K, Mat6(0.02 * K));
  }
  m.model.add_element(std::make_unique<Beam>(10, std::move(pts), std::move(secs)));
  m.start();
  for (auto _ : state) m.residual_and_jacobian();
}
BENCHMARK(BM_BeamResidualJacobian);

void BM_ShellResidualJacobian(benchmark::State& state) {
  OneElement m;
  const Vec3 x[4] = {Vec3(1.1, 0.9, 0.02), Vec3(-0.9, 1.0, -0.03), Vec3(-1.0, -1.1, 0.01), Vec3(0.95, -0.85, 0.0)};
  std::array<StructNode*, 4> nodes{};
  for (int k = 0; k < 4; ++k)
    nodes[k] = m.add_node(x[k], rot::euler123_to_R(Vec3(0.1 * k, -0.2, 0.3 - 0.1 * k)), Vec3::Zero());
  // Isotropic law (input manual eq. 8.84): E = 1e3, nu = 0.3, thickness 0.1.
  const double E = 1.0e3, nu = 0.3, h = 0.1;
  const double C = E * h / (1.0 - nu * nu), D = C * h * h / 12.0, Gh = E / (2.0 * (1.0 + nu)) * h;
  ShellLaw law;
  law.D(0, 0) = law.D(4, 4) = C;
  law.D(0, 4) = law.D(4, 0) = C * nu;
  law.D(1, 1) = law.D(3, 3) = 2.0 * Gh;
  law.D(2, 2) = law.D(5, 5) = Gh;
  law.D(6, 6) = law.D(10, 10) = Gh * h * h / 6.0;
  law.D(7, 7) = law.D(9, 9) = D;
  law.D(7, 9) = law.D(9, 7) = -D * nu;
  law.D(8, 8) = law.D(11, 11) = 0.01 * Gh * h * h / 12.0;
  m.model.add_element(std::make_unique<Shell4>(10, nodes, law, false));
  m.start();
  for (auto _ : state) m.residual_and_jacobian();
}
BENCHMARK(BM_ShellResidualJacobian);

}  // namespace

BENCHMARK_MAIN();
