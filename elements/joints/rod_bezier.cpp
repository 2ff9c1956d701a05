#include "elements/joints/rod_bezier.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "elements/joints/deformable_kinematics.hpp"
#include "elements/misc/quadrature.hpp"
#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::elements {
namespace {

/// Derivatives of the cubic Bernstein polynomials (rodbezj.h Ap1..Ap4).
std::array<double, 4> bernstein_d(double u) {
  return {-3.0 * u * u + 6.0 * u - 3.0, 9.0 * u * u - 12.0 * u + 3.0, -9.0 * u * u + 6.0 * u, 3.0 * u * u};
}

}  // namespace

RodBezier::RodBezier(unsigned label, const Geometry& g, double l0, std::unique_ptr<ConstitutiveLaw1D> law)
    : Joint(label), g_(g), l0_(l0), law_(std::move(law)) {
  // The segments [j s, (j + 1) s], s = 1/segments, each with the order's Gauss points
  // (GaussDataIterator: 1 to 10 points).
  std::vector<double> xi, w;
  quadrature::gauss_legendre(std::clamp(g.order, 1, 10), xi, w);
  const double half = 0.5 / g.segments;
  for (int j = 0; j < g.segments; ++j)
    for (std::size_t i = 0; i < xi.size(); ++i) points_.emplace_back(half * xi[i] + half * (2 * j + 1), half * w[i]);
  l1_W_ = (g.node1->R_WN() * (g.fA_N1 - g.fO_N1)).normalized();
  l2_W_ = (g.node2->R_WN() * (g.fB_N2 - g.fI_N2)).normalized();
  if (l0_ <= 0.0) l0_ = curve().l;
  R_WJ_ = Mat3::Identity();
}

RodBezier::Curve RodBezier::curve() const {
  const StructNode& n1 = *g_.node1;
  const StructNode& n2 = *g_.node2;
  const std::array<Vec3, 4> f = {n1.R_WN() * g_.fO_N1, n1.R_WN() * g_.fA_N1, n2.R_WN() * g_.fB_N2,
                                 n2.R_WN() * g_.fI_N2};
  const std::array<const StructNode*, 4> node = {&n1, &n1, &n2, &n2};
  Curve c;
  for (const auto& [u, w] : points_) {
    const std::array<double, 4> A = bernstein_d(u);
    Vec3 p = Vec3::Zero(), p_dot = Vec3::Zero();
    for (int k = 0; k < 4; ++k) {
      p += A[k] * (node[k]->x_W() + f[k]);
      p_dot += A[k] * (node[k]->v_W() + node[k]->w_W().cross(f[k]));
    }
    c.l += w * p.norm();
    c.l_dot += 0.5 * w * p.dot(p_dot) / p.norm();  // MBDyn's factor 1/2 (RodBezier::AssVec)
  }
  return c;
}

void RodBezier::update_law(const StepContext& c) {
  const Curve k = curve();
  // RodBezier::AssVec: a null length is an error of the element.
  if (!(k.l > 0.0)) throw EvaluationError(fmt::format("rod bezier {}: null length of the element", label()));
  law_->update(ConstitutiveLaw1D::VecN(k.l / l0_ - 1.0), ConstitutiveLaw1D::VecN(k.l_dot / l0_), c.t);
}

void RodBezier::residual(ResidualSink& r, const StepContext& c) {
  update_law(c);
  const double f = law_->force()[0];
  const Vec3 fO = g_.node1->R_WN() * g_.fO_N1, fI = g_.node2->R_WN() * g_.fI_N2;
  const Vec3 F1 = f * l1_W_, F2 = f * l2_W_;
  r.add(g_.node1->eq_index(), F1);
  r.add(g_.node1->eq_index() + 3, Vec3(fO.cross(F1)));
  r.add(g_.node2->eq_index(), F2);
  r.add(g_.node2->eq_index() + 3, Vec3(fI.cross(F2)));
}

// The derivative of the residual above over the node perturbations (deformable_kinematics.hpp):
// dp = sum A_k (dx - f_k x dth), dp' = sum A_k (dv - f_k x dw - w x f_k x dth).
void RodBezier::jacobian(JacobianSink& J, const StepContext& c) {
  update_law(c);
  const double f = law_->force()[0], k = law_->stiffness()(0, 0), cv = law_->damping()(0, 0);
  const StructNode* nodes[2] = {g_.node1, g_.node2};
  const Mat3 I = Mat3::Identity();
  const std::array<Vec3, 4> fk = {g_.node1->R_WN() * g_.fO_N1, g_.node1->R_WN() * g_.fA_N1,
                                  g_.node2->R_WN() * g_.fB_N2, g_.node2->R_WN() * g_.fI_N2};
  auto put = [](Lin3& L, int node, int what, const Mat3& m) { L.block<3, 3>(0, lin_col(node, what)) += m; };
  Lin1 dl = Lin1::Zero(), dl_dot = Lin1::Zero();
  for (const auto& [u, w] : points_) {
    const std::array<double, 4> A = bernstein_d(u);
    Vec3 p = Vec3::Zero(), p_dot = Vec3::Zero();
    Lin3 dp = Lin3::Zero(), dp_dot = Lin3::Zero();
    for (int q = 0; q < 4; ++q) {
      const int n = q / 2;
      const StructNode& node = *nodes[n];
      p += A[q] * (node.x_W() + fk[q]);
      p_dot += A[q] * (node.v_W() + node.w_W().cross(fk[q]));
      put(dp, n, kX, A[q] * I);
      put(dp, n, kTh, Mat3(-A[q] * skew(fk[q])));
      put(dp_dot, n, kV, A[q] * I);
      put(dp_dot, n, kW, Mat3(-A[q] * skew(fk[q])));
      put(dp_dot, n, kTh, Mat3(-A[q] * skew(node.w_W()) * skew(fk[q])));
    }
    const double pn = p.norm();
    const Vec3 e = p / pn;
    dl += w * e.transpose() * dp;
    dl_dot += 0.5 * w * ((p_dot / pn - p.dot(p_dot) / (pn * pn * pn) * p).transpose() * dp + e.transpose() * dp_dot);
  }
  const Lin1 df = (k * dl + cv * dl_dot) / l0_;
  const Lin3 dF1 = l1_W_ * df, dF2 = l2_W_ * df;
  const Vec3 fO = fk[0], fI = fk[3];
  Lin3 dfO = Lin3::Zero(), dfI = Lin3::Zero();
  put(dfO, 0, kTh, Mat3(-skew(fO)));
  put(dfI, 1, kTh, Mat3(-skew(fI)));
  add_lin_jacobian(J, g_.node1->eq_index(), nodes, c, dF1);
  add_lin_jacobian(J, g_.node1->eq_index() + 3, nodes, c, Lin3(skew(fO) * dF1 - skew(Vec3(f * l1_W_)) * dfO));
  add_lin_jacobian(J, g_.node2->eq_index(), nodes, c, dF2);
  add_lin_jacobian(J, g_.node2->eq_index() + 3, nodes, c, Lin3(skew(fI) * dF2 - skew(Vec3(f * l2_W_)) * dfI));
}

void RodBezier::after_convergence(const StepContext& c) {
  update_law(c);
  law_->after_convergence();
  const Curve k = curve();
  l_ = k.l;
  l_dot_ = k.l_dot;
  f_ = law_->force()[0];
  F_W_ = f_ * l1_W_;
  M_W_.setZero();
}

void RodBezier::output_extra(OutputSink& out, std::ostream& os) const {
  out.write(os, Vec3(f_ * l2_W_));
  out.write(os, l_);
  out.write(os, l1_W_);
  out.write(os, l2_W_);
  out.write(os, l_dot_);
  for (int i = 0; i < law_->output_count(); ++i) out.write(os, law_->output_value(i));
}

// RodBezier::OutputPrepare: F2, l, l1, l2, v (it declares none of the law's variables).
void RodBezier::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_F2_ = out.declare(base + ".F2", NcShape::Vec3, "Force", "force on Node 2 (x, y, z)");
  nc_l_ = out.declare(base + ".l", NcShape::Scalar, "Length", "length of the element");
  nc_l1_ = out.declare(base + ".l1", NcShape::Vec3, "Dimensionless", "node 1 reference unit vector (x, y, z)");
  nc_l2_ = out.declare(base + ".l2", NcShape::Vec3, "Dimensionless", "node 2 reference unit vector (x, y, z)");
  nc_v_ = out.declare(base + ".v", NcShape::Scalar, "Velocity", "length rate of change");
}

void RodBezier::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_F2_, Vec3(f_ * l2_W_));
  out.put(nc_l_, l_);
  out.put(nc_l1_, l1_W_);
  out.put(nc_l2_, l2_W_);
  out.put(nc_v_, l_dot_);
}

unsigned RodBezier::private_data_index(std::string_view name) const {
  if (name == "F") return 1;  // rodbezj.cc: obsolete spelling of "f"
  return parser::private_data_index_in_listing(*this, name);
}

parser::PrivateDataOwner::DatumInfo RodBezier::private_data_info(unsigned i) const {
  switch (i) {
    case 1: return {"f", "axial force"};
    case 2: return {"l", "length"};
    case 3: return {"lP", "rate of the length"};
  }
  return i > 3 ? law_private_data_info(law_.get(), i - 3) : DatumInfo{};
}

double RodBezier::private_data(unsigned i) const {
  switch (i) {
    case 1: return f_;
    case 2: return l_;
    case 3: return l_dot_;
  }
  return law_private_data(law_.get(), i - 3);
}

}  // namespace mbl::elements
