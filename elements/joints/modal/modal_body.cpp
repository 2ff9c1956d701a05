#include "elements/joints/modal/modal_body.hpp"

#include <cmath>
#include <stdexcept>

namespace mbl::elements {

ModalBody build_modal_body(const FemFile& fem, const ModalBodyOptions& o) {
  ModalBody b;
  b.mode_numbers = o.modes;
  const int N = b.modes();
  const int nodes = fem.node_count;
  b.M.resize(N, N);
  b.K.resize(N, N);
  b.C = Eigen::MatrixXd::Zero(N, N);
  b.q0.resize(N);
  b.qp0.resize(N);
  for (int j = 0; j < N; ++j) {
    const int fj = o.modes[j] - 1;
    b.q0[j] = fem.q0[fj];
    b.qp0[j] = fem.qp0[fj];
    for (int k = 0; k < N; ++k) {
      const int fk = o.modes[k] - 1;
      b.M(j, k) = fem.M(fj, fk);
      b.K(j, k) = fem.K(fj, fk);
      if (fem.C && o.damping == ModalDamping::FromFile) b.C(j, k) = (*fem.C)(fj, fk);
    }
    b.shape_t.push_back(fem.shapes[fj].topRows<3>());
    b.shape_r.push_back(fem.shapes[fj].bottomRows<3>());
  }
  // Damping (input manual §8.12.31): c_ii = 2 xi_i sqrt(k_ii m_ii), or Rayleigh's alpha M + beta K.
  for (int j = 0; j < N; ++j) {
    const double d = std::sqrt(b.K(j, j) * b.M(j, j));
    if (o.damping == ModalDamping::SingleFactor) b.C(j, j) = 2.0 * o.damping_factor * d;
    if (o.damping == ModalDamping::Diag) b.C(j, j) = 2.0 * o.damping_factors[j] * d;
  }
  if (o.damping == ModalDamping::Rayleigh) b.C = o.rayleigh_mass * b.M + o.rayleigh_stiffness * b.K;

  b.node_labels = fem.node_labels;
  b.x_nodes = fem.x_nodes;
  Vec3 x_cg = fem.rigid ? fem.rigid->x_cg : Vec3::Zero();
  const double rigid_mass = fem.rigid ? fem.rigid->mass : 0.0;
  const Mat3 J_cg = fem.rigid ? fem.rigid->J_cg : Mat3::Zero();
  // Inertia about the FEM origin: J_O = J_cg - m [x_cg x][x_cg x].
  b.J = J_cg - rigid_mass * skew(x_cg) * skew(x_cg);
  std::optional<Vec3> origin = o.origin_position;
  if (o.origin_node) {
    int k = 0;
    while (k < nodes && fem.node_labels[k] != *o.origin_node) ++k;
    if (k == nodes) throw std::invalid_argument("FEM node \"" + *o.origin_node + "\" is not in the FEM file");
    origin = fem.x_nodes.col(k);
  }
  if (origin) {
    b.x_nodes.colwise() -= *origin;
    // Without lumped masses the global inertia moves with the origin (MBDyn leaves it in place
    // when the invariants come from the lumped masses and record group 12 replaces them).
    if (!fem.node_mass) {
      x_cg -= *origin;
      b.J = J_cg - rigid_mass * skew(x_cg) * skew(x_cg);
    }
  }
  b.mass = rigid_mass;

  auto given = [&](const std::optional<Eigen::MatrixXd>& m, int blocks_per_mode, bool pairs) -> Eigen::MatrixXd {
    if (!m) return {};
    // Columns of the selected modes only.
    const int nf = fem.mode_count;
    Eigen::MatrixXd out(3, blocks_per_mode * (pairs ? N * N : N));
    for (int j = 0; j < N; ++j) {
      const int fj = o.modes[j] - 1;
      if (!pairs) {
        out.middleCols(blocks_per_mode * j, blocks_per_mode) = m->middleCols(blocks_per_mode * fj, blocks_per_mode);
        continue;
      }
      for (int k = 0; k < N; ++k) {
        const int fk = o.modes[k] - 1;
        out.middleCols(blocks_per_mode * (j * N + k), blocks_per_mode) =
            m->middleCols(blocks_per_mode * (fj * nf + fk), blocks_per_mode);
      }
    }
    return out;
  };
  b.inv3 = given(fem.inv3, 1, false);
  b.inv4 = given(fem.inv4, 1, false);
  b.inv8 = given(fem.inv8, 3, false);
  b.inv5 = given(fem.inv5, 1, true);
  b.inv9 = given(fem.inv9, 3, true);

  if (fem.node_mass) {
    // Invariants from the lumped masses, added to those the file gives (as MBDyn does).
    auto zero_if_empty = [](Eigen::MatrixXd& m, int cols) {
      if (m.size() == 0) m = Eigen::MatrixXd::Zero(3, cols);
    };
    zero_if_empty(b.inv3, N);
    zero_if_empty(b.inv4, N);
    zero_if_empty(b.inv5, N * N);
    zero_if_empty(b.inv8, 3 * N);
    if (o.use_invariant_9) zero_if_empty(b.inv9, 3 * N * N);
    b.inv10 = Eigen::MatrixXd::Zero(3, 3 * N);
    b.inv11 = Eigen::MatrixXd::Zero(3, N);
    double mass = 0.0;
    Vec3 S = Vec3::Zero();
    Mat3 J = Mat3::Zero();
    for (int i = 0; i < nodes; ++i) {
      const double mi = (*fem.node_mass)[i];
      const Vec3 ui = b.x_nodes.col(i);
      const Mat3 Ji = fem.node_J.col(i).asDiagonal();
      mass += mi;
      S += mi * ui;
      J += Ji - mi * skew(ui) * skew(ui);
      for (int j = 0; j < N; ++j) {
        const Vec3 t = b.shape_t[j].col(i), r = b.shape_r[j].col(i);
        b.inv3.col(j) += mi * t;
        b.inv4.col(j) += mi * ui.cross(t) + Ji * r;
        b.inv11.col(j) += Ji * r;
        for (int k = 0; k < N; ++k) {
          const Vec3 tk = b.shape_t[k].col(i);
          b.inv5.col(j * N + k) += mi * t.cross(tk);
          if (b.inv9.size()) b.inv9.middleCols<3>(3 * (j * N + k)) += mi * skew(t) * skew(tk);
        }
        b.inv8.middleCols<3>(3 * j) -= mi * skew(ui) * skew(t);
        b.inv10.middleCols<3>(3 * j) += skew(r) * Ji;
      }
    }
    if (!fem.rigid) {
      b.mass = mass;
      b.S = S;
      b.J = J;
      return b;
    }
  }
  b.S = b.mass * x_cg;
  return b;
}

}  // namespace mbl::elements
