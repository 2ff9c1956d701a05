#include "mbdyn-like/core/model_second_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/struct_node.hpp"

namespace mbl {

ModelSecondOrder::ModelSecondOrder(Model& model) : model_(model) {
  for (const auto& n : model.nodes()) {
    auto* s = dynamic_cast<StructNode*>(n.get());
    const bool rigid = s && !s->is_displacement() && (s->type() == StructNode::Type::Static || s->is_dynamic());
    if (!rigid && n->dof_count() > 0)
      throw std::invalid_argument(fmt::format(
          "{} node {} has no second-order form (only static and dynamic structural nodes)",
          n->kind(), n->label()));
    if (rigid) nodes_.push_back(s);
  }
  for (const auto& e : model.elements())
    for (int k = 0; k < e->dof_count(); ++k) {
      if (e->dof_order(k) != integrators::DofOrder::Algebraic)
        throw std::invalid_argument(fmt::format(
            "{} {} ({}) has state unknowns; the second-order form takes only constraints",
            e->kind(), e->label(), e->type_name()));
      constraint_dofs_.push_back(e->first_index() + k);
    }
  x_base_.resize(nodes_.size());
  R_base_.resize(nodes_.size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    x_base_[k] = nodes_[k]->x_W();
    R_base_[k] = nodes_[k]->R_WN();
  }
  x_ = x_base_;
  R_ = R_base_;
  J_.resize(model.size());
}

void ModelSecondOrder::set_configuration(const Vector& dq) {
  // Seed 003 §2: positions add, orientations move by the exponential map (spatial increment).
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    x_[k] = x_base_[k] + dq.segment<3>(6 * k);
    R_[k] = rot::rotvec_to_R(dq.segment<3>(6 * k + 3)) * R_base_[k];
    // The node follows at once: a first-order update() after a failed step finds it at q.
    nodes_[k]->place(R_[k]);
  }
}

void ModelSecondOrder::commit_configuration() {
  x_base_ = x_;
  R_base_ = R_;
}

void ModelSecondOrder::place(double t, const Vector& v, const Vector& lambda, const Vector* p,
                             const Vector* pdot) {
  y_.setZero(model_.size());
  yp_.setZero(model_.size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    StructNode& n = *nodes_[k];
    const int i = n.dof_index();
    y_.segment<3>(i) = x_[k];
    yp_.segment<6>(i) = v.segment<6>(6 * k);  // x' and g' = omega at g = 0
    n.place(R_[k]);
    if (n.is_dynamic() && p) {
      y_.segment<6>(i + 6) = p->segment<6>(6 * k);
      yp_.segment<6>(i + 6) = pdot->segment<6>(6 * k);
    }
  }
  for (std::size_t j = 0; j < constraint_dofs_.size(); ++j) y_[constraint_dofs_[j]] = lambda[j];
  model_.update(t, y_, yp_);
}

Vector ModelSecondOrder::momentum(double t, const Vector& w) {
  place(t, w, Vector::Zero(constraint_size()), nullptr, nullptr);
  model_.residual(t, 1.0, r_, nullptr);
  Vector p = Vector::Zero(velocity_size());
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    if (nodes_[k]->is_dynamic()) p.segment<6>(6 * k) = r_.segment<6>(nodes_[k]->momentum_eq_index());
  return p;
}

void ModelSecondOrder::evaluate(double t, const Vector& v, const Vector& a, const Vector& lambda,
                                Vector& r, Vector& phi) {
  const Vector p = momentum(t, v);
  // dp/dt along the motion: fourth-order central difference on the exponential curve
  // q (+) e v, v + e a (p is linear in its velocities: only the configuration part is
  // approximated). Rotations of e |omega| = 1e-3 keep truncation (~(e w)^4 / 30) and round-off
  // (~1e-16 / (e w)) near 1e-13 of |p'|.
  const double e = 1e-3 / std::max(1.0, v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0);
  const std::vector<Vec3> x0 = x_;
  const std::vector<Mat3> R0 = R_;
  auto displaced = [&](double s) {
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      x_[k] = x0[k] + s * v.segment<3>(6 * k);
      R_[k] = rot::rotvec_to_R(s * v.segment<3>(6 * k + 3)) * R0[k];
    }
    return momentum(t, v + s * a);
  };
  const Vector pdot =
      (8.0 * (displaced(e) - displaced(-e)) - (displaced(2 * e) - displaced(-2 * e))) / (12.0 * e);
  x_ = x0;
  R_ = R0;
  place(t, v, lambda, &p, &pdot);
  model_.residual(t, 1.0, r_, nullptr);
  r.resize(velocity_size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) r.segment<6>(6 * k) = r_.segment<6>(nodes_[k]->eq_index());
  constraint_rows(phi);
}

void ModelSecondOrder::constraint_rows(Vector& phi) const {
  phi.resize(constraint_size());
  for (std::size_t j = 0; j < constraint_dofs_.size(); ++j) phi[j] = r_[constraint_dofs_[j]];
}

void ModelSecondOrder::constraint_values(double t, const Vector& v, const Vector& lambda, Vector& phi) {
  place(t, v, lambda, nullptr, nullptr);
  model_.residual(t, 1.0, r_, nullptr);
  constraint_rows(phi);
}

void ModelSecondOrder::mass(integrators::Matrix& M) {
  // The momentum rows p(q, v) - beta are linear in the velocities: at dCoef = 0 their Jacobian
  // columns of (x', g') are -dp/dv = -M (g = 0: omega = g'), one assembly instead of n residuals.
  const int n = velocity_size();
  const double t = model_.drive_env().time;
  place(t, Vector::Zero(n), Vector::Zero(constraint_size()), nullptr, nullptr);
  J_.zero();
  model_.jacobian(t, 0.0, J_);
  M.setZero(n, n);
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    if (!nodes_[k]->is_dynamic()) continue;
    const int row = nodes_[k]->momentum_eq_index();
    for (std::size_t j = 0; j < nodes_.size(); ++j)
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) M(6 * k + r, 6 * j + c) = -J_.coeff(row + r, nodes_[j]->dof_index() + c);
  }
}

void ModelSecondOrder::constraint_jacobian(double t, integrators::Matrix& B) {
  const int m = constraint_size();
  place(t, Vector::Zero(velocity_size()), Vector::Zero(m), nullptr, nullptr);
  J_.zero();
  model_.jacobian(t, 1.0, J_);
  B.setZero(m, velocity_size());
  for (int j = 0; j < m; ++j)
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      for (int c = 0; c < 6; ++c)
        B(j, 6 * k + c) = -J_.coeff(constraint_dofs_[j], nodes_[k]->dof_index() + c);
}

void ModelSecondOrder::from_first_order(const Vector& y, const Vector& yp, Vector& v,
                                        Vector& lambda) {
  v.resize(velocity_size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const int i = nodes_[k]->dof_index();
    x_base_[k] = y.segment<3>(i);
    // Canonical point: g = 0, so the node's orientation is its reference and g' = omega.
    R_base_[k] = nodes_[k]->R_ref();
    v.segment<6>(6 * k) = yp.segment<6>(i);
  }
  lambda.resize(constraint_size());
  for (std::size_t j = 0; j < constraint_dofs_.size(); ++j) lambda[j] = y[constraint_dofs_[j]];
  x_ = x_base_;
  R_ = R_base_;
}

void ModelSecondOrder::increment_to_first_order(const Vector& dq, Vector& dy) const {
  // Per node: x and the orientation parameters g, which are zero at the base point and, to first
  // order, equal to the rotation vector of the increment (g = 2 tan(phi/2) n, core/rotations.hpp).
  for (std::size_t k = 0; k < nodes_.size(); ++k) dy.segment<6>(nodes_[k]->dof_index()) += dq.segment<6>(6 * k);
}

void ModelSecondOrder::to_first_order(double t, const Vector& v, const Vector& a,
                                      const Vector& lambda, Vector& y, Vector& yp) {
  Vector r, phi;
  evaluate(t, v, a, lambda, r, phi);
  y = y_;
  yp = yp_;
}

}  // namespace mbl
