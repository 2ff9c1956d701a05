#include "elements/joints/modal/modal_joint.hpp"

#include <cmath>
#include <ostream>
#include <unsupported/Eigen/AutoDiff>

#include <fmt/format.h>

#include "mbdyn-like/core/gravity_field.hpp"
#include "mbdyn-like/core/model.hpp"

namespace mbl::elements {

namespace {

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
template <class T>
using V3 = Eigen::Matrix<T, 3, 1>;
template <class T>
using M3 = Eigen::Matrix<T, 3, 3>;
template <class T>
using VN = Eigen::Matrix<T, Eigen::Dynamic, 1>;

double value_of(double x) { return x; }
double value_of(const AD& x) { return x.value(); }

template <class T>
M3<T> skew_of(const V3<T>& v) {
  M3<T> m;
  m << T(0.0), -v[2], v[1], v[2], T(0.0), -v[0], -v[1], v[0], T(0.0);
  return m;
}

/// Rotation vector of a matrix that is a rotation up to the first order of the modal rotations
/// (R2^T R (I + [phi x]) is not orthogonal): the axial part scaled by atan2(|ax|, (tr - 1)/2)/|ax|,
/// as MBDyn's VecRot does for rotations below a right angle.
template <class T>
V3<T> vec_rot(const M3<T>& A) {
  const T c = (A.trace() - 1.0) / 2.0;
  const V3<T> ax(0.5 * (A(2, 1) - A(1, 2)), 0.5 * (A(0, 2) - A(2, 0)), 0.5 * (A(1, 0) - A(0, 1)));
  const T s2 = ax.dot(ax);
  using std::atan2;
  using std::sqrt;
  if (value_of(s2) < 1e-16) return ax * (1.0 / c - s2 / (3.0 * c * c * c));
  const T s = sqrt(s2);
  return ax * (atan2(s, c) / s);
}

}  // namespace

template <class T>
struct ModalJoint::State {
  V3<T> x, xp, v, vp, w, wp, omega;
  M3<T> R;
  VN<T> a, ap, b, bp;
  std::vector<V3<T>> F, M, x2;
  std::vector<M3<T>> R2;
};

ModalJoint::ModalJoint(unsigned label, ModalBody body, StructNode* modal_node, const Vec3& x0, const Mat3& R0,
                       std::vector<Interface> interfaces)
    : Element(label), body_(std::move(body)), modal_node_(modal_node), x0_(x0), R0_(R0),
      interfaces_(std::move(interfaces)) {
  q_ = body_.q0;
  qp_ = body_.qp0;
  qpp_ = Eigen::VectorXd::Zero(modes());
  F_.assign(interfaces_.size(), Vec3::Zero());
  M_.assign(interfaces_.size(), Vec3::Zero());
}

void ModalJoint::setup(Model& model) { model_ = &model; }

void ModalJoint::initial_state(Vector& y, Vector& yp) const {
  const int N = modes(), i = first_index();
  y.segment(i, N) = body_.q0;
  yp.segment(i, N) = body_.qp0;
  y.segment(i + N, N) = body_.qp0;
  yp.segment(i + N, N).setZero();
}

void ModalJoint::update_local_indices() const {
  if (indexed_from_ == first_index()) return;
  indexed_from_ = first_index();
  rows_.clear();
  cols_.clear();
  if (modal_node_)
    for (int k = 0; k < 12; ++k) {
      rows_.push_back(modal_node_->first_index() + k);
      cols_.push_back(modal_node_->dof_index() + k);
    }
  for (int k = 0; k < dof_count(); ++k) {
    rows_.push_back(first_index() + k);
    cols_.push_back(first_index() + k);
  }
  for (const Interface& f : interfaces_)
    for (int k = 0; k < 6; ++k) {
      rows_.push_back(f.node->eq_index() + k);
      cols_.push_back(f.node->dof_index() + k);
    }
}

ModalJoint::State<double> ModalJoint::current_state(const StepContext& c) const {
  const Vector& y = *c.y;
  const Vector& yp = *c.yp;
  const int N = modes(), i0 = first_index();
  State<double> s;
  if (modal_node_) {
    const int n = modal_node_->dof_index();
    s.x = modal_node_->x_W();
    s.xp = modal_node_->v_W();
    s.R = modal_node_->R_WN();
    s.omega = modal_node_->w_W();
    s.v = y.segment<3>(n + 6);
    s.w = y.segment<3>(n + 9);
    s.vp = yp.segment<3>(n + 6);
    s.wp = yp.segment<3>(n + 9);
  } else {
    s.x = x0_;
    s.R = R0_;
    s.xp = s.v = s.vp = s.w = s.wp = s.omega = Vec3::Zero();
  }
  s.a = y.segment(i0, N);
  s.ap = yp.segment(i0, N);
  s.b = y.segment(i0 + N, N);
  s.bp = yp.segment(i0 + N, N);
  for (std::size_t k = 0; k < interfaces_.size(); ++k) {
    const int j = i0 + 2 * N + 6 * static_cast<int>(k);
    s.F.push_back(y.segment<3>(j));
    s.M.push_back(y.segment<3>(j + 3));
    s.x2.push_back(interfaces_[k].node->x_W());
    s.R2.push_back(interfaces_[k].node->R_WN());
  }
  return s;
}

template <class T>
void ModalJoint::evaluate(const State<T>& s, const StepContext& c, std::vector<T>& r) const {
  const ModalBody& B = body_;
  const int N = modes();
  const int nif = static_cast<int>(interfaces_.size());
  const int row_node = 0, row_own = modal_node_ ? 12 : 0, row_if = row_own + 2 * N + 6 * nif;
  r.assign(row_if + 6 * nif, T(0.0));
  const bool assembly = c.initial_assembly;
  // Constraint rows are divided by dCoef as MBDyn does (not in the assembly's position problem).
  const double divisor = assembly ? 1.0 : c.dCoef;
  auto add3 = [&](int row, const V3<T>& v) {
    for (int k = 0; k < 3; ++k) r[row + k] += v[k];
  };
  const M3<T> RT = s.R.transpose();

  // Products of the invariants with the modal coordinates (technical manual, modal element).
  V3<T> inv3_a = V3<T>::Zero(), inv3_b = V3<T>::Zero(), inv3_bp = V3<T>::Zero();
  if (B.inv3.size())
    for (int j = 0; j < N; ++j) {
      const Vec3 c3 = B.inv3.col(j);
      inv3_a += c3 * s.a[j];
      inv3_b += c3 * s.b[j];
      inv3_bp += c3 * s.bp[j];
    }
  M3<T> inv8_a = M3<T>::Zero(), inv8_b = M3<T>::Zero(), inv9_aa = M3<T>::Zero(), inv9_ab = M3<T>::Zero();
  M3<T> inv10_b = M3<T>::Zero();
  Eigen::Matrix<T, 3, Eigen::Dynamic> inv5_a = Eigen::Matrix<T, 3, Eigen::Dynamic>::Zero(3, N);
  Eigen::Matrix<T, 3, Eigen::Dynamic> inv5_b = inv5_a;
  for (int j = 0; j < N; ++j) {
    if (B.inv5.size())
      for (int k = 0; k < N; ++k) {
        const Vec3 c5 = B.inv5.col(j * N + k);
        inv5_a.col(k) += c5 * s.a[j];
        inv5_b.col(k) += c5 * s.b[j];
      }
    if (B.inv8.size()) {
      const Mat3 I8 = B.inv8.middleCols<3>(3 * j);
      inv8_a += I8 * s.a[j];
      inv8_b += I8 * s.b[j];
      if (B.inv9.size())
        for (int k = 0; k < N; ++k) {
          const Mat3 I9 = B.inv9.middleCols<3>(3 * (j * N + k));
          inv9_aa += I9 * T(s.a[j] * s.a[k]);
          inv9_ab += I9 * T(s.a[j] * s.b[k]);
        }
    }
    if (B.inv10.size()) inv10_b += Mat3(B.inv10.middleCols<3>(3 * j)) * s.b[j];
  }
  Vec3 g = Vec3::Zero();
  const GravityField* field = model_ ? model_->gravity() : nullptr;
  const bool gravity = field != nullptr && !assembly;
  if (gravity) g = field->acceleration(Vec3(value_of(s.x[0]), value_of(s.x[1]), value_of(s.x[2])), c.t);

  V3<T> F_node = V3<T>::Zero(), M_node = V3<T>::Zero();
  const V3<T> RTw = RT * s.w;
  if (modal_node_ && !assembly) {
    M3<T> Jt = B.J.template cast<T>();
    if (B.inv8.size()) Jt += inv8_a + inv8_a.transpose();
    if (B.inv9.size()) Jt -= inv9_aa;
    const M3<T> J = s.R * Jt * RT;
    const V3<T> S = s.R * (B.S.template cast<T>() + inv3_a);
    // Inertia forces and moments of the floating frame, with the modal coupling terms.
    F_node = -B.mass * s.vp + S.cross(s.wp) - s.w.cross(s.w.cross(S));
    if (B.inv3.size()) F_node -= s.R * inv3_bp + 2.0 * s.w.cross(V3<T>(s.R * inv3_b));
    M_node = -S.cross(s.vp) - J * s.wp - s.w.cross(V3<T>(J * s.w));
    if (B.inv4.size()) {
      VN<T> bp = s.bp;
      M_node -= s.R * V3<T>(B.inv4.template cast<T>() * bp);
    }
    if (B.inv5.size()) M_node -= s.R * V3<T>(inv5_a * s.bp);
    if (B.inv8.size()) {
      M3<T> tmp = inv8_b;
      if (B.inv9.size()) tmp -= inv9_ab;
      M_node -= s.R * V3<T>(tmp * RTw * 2.0);
    }
    if (B.inv10.size()) {
      V3<T> tmp = (inv10_b + inv10_b.transpose()) * RTw;
      if (B.inv11.size()) tmp += s.w.cross(V3<T>(s.R * V3<T>(B.inv11.template cast<T>() * s.b)));
      M_node -= s.R * tmp;
    }
    if (gravity) {
      F_node += B.mass * g.template cast<T>();
      M_node += S.cross(g.template cast<T>());
    }
    // Order reduction: v = x', w = omega (MBDyn's modal node has no equations of its own).
    add3(row_node, V3<T>(s.v - s.xp));
    add3(row_node + 3, V3<T>(s.w - s.omega));
  }

  // Modal equations.
  for (int j = 0; j < N; ++j) {
    if (assembly) {
      // Assembly keeps the modal coordinates at their initial values.
      r[row_own + j] = T(B.q0[j]) - s.a[j];
      r[row_own + N + j] = T(B.qp0[j]) - s.b[j];
      continue;
    }
    r[row_own + j] = s.b[j] - s.ap[j];
    T d = T(0.0);
    for (int k = 0; k < N; ++k) d -= B.M(j, k) * s.bp[k] + B.C(j, k) * s.b[k] + B.K(j, k) * s.a[k];
    if (B.inv3.size()) {
      const V3<T> RI3 = s.R * B.inv3.col(j).template cast<T>();
      d -= RI3.dot(s.vp);
      if (gravity) d += RI3.dot(g.template cast<T>());
    }
    if (B.inv4.size()) {
      V3<T> I4 = B.inv4.col(j).template cast<T>();
      if (B.inv5.size()) {
        I4 += inv5_a.col(j);
        d -= 2.0 * V3<T>(s.R * inv5_b.col(j)).dot(s.w);
      }
      d -= V3<T>(s.R * I4).dot(s.wp);
    }
    if (B.inv8.size() || B.inv10.size()) {
      M3<T> tmp = M3<T>::Zero();
      if (B.inv8.size()) {
        tmp += Mat3(B.inv8.middleCols<3>(3 * j).transpose()).template cast<T>();
        if (B.inv9.size())
          for (int k = 0; k < N; ++k) tmp -= Mat3(B.inv9.middleCols<3>(3 * (j * N + k))) * s.a[k];
      }
      if (B.inv10.size()) tmp += Mat3(B.inv10.middleCols<3>(3 * j)).template cast<T>();
      d += s.w.dot(V3<T>(s.R * V3<T>(tmp * RTw)));
    }
    r[row_own + N + j] += d;
  }

  // Interface clamps.
  for (int i = 0; i < nif; ++i) {
    const Interface& f = interfaces_[i];
    V3<T> phit_a = V3<T>::Zero(), phir_a = V3<T>::Zero();
    for (int j = 0; j < N; ++j) {
      phit_a += f.phi_t.col(j) * s.a[j];
      phir_a += f.phi_r.col(j) * s.a[j];
    }
    const V3<T> d1 = s.R * (f.x_fem.template cast<T>() + phit_a);
    const M3<T> R1 = s.R * (M3<T>::Identity() + skew_of(phir_a));
    const V3<T> d2 = s.R2[i] * f.offset_N.template cast<T>();
    const V3<T>& F = s.F[i];
    const V3<T> R2M = s.R2[i] * s.M[i];
    if (modal_node_) {
      F_node -= F;
      M_node -= d1.cross(F) + R2M;
    }
    const V3<T> RTF = RT * F, RTM = RT * R2M;
    if (!assembly)
      for (int j = 0; j < N; ++j)
        r[row_own + N + j] -= f.phi_t.col(j).template cast<T>().dot(RTF) + f.phi_r.col(j).template cast<T>().dot(RTM);
    const int rc = row_own + 2 * N + 6 * i;
    add3(rc, V3<T>((s.x2[i] + d2 - s.x - d1) / divisor));
    add3(rc + 3, V3<T>(-vec_rot<T>(M3<T>(s.R2[i].transpose() * R1)) / divisor));
    add3(row_if + 6 * i, F);
    add3(row_if + 6 * i + 3, V3<T>(d2.cross(F) + R2M));
  }
  if (modal_node_) {
    add3(row_node + 6, F_node);
    add3(row_node + 9, M_node);
  }
}

void ModalJoint::residual(ResidualSink& sink, const StepContext& c) {
  State<double> s = current_state(c);
  if (stale_.active) {
    if (!stale_.predicted_seen) {
      stale_.predicted_seen = true;
      stale_.vp_pred = s.vp;
      stale_.wp_pred = s.wp;
    }
    if (s.vp == stale_.vp_pred && s.wp == stale_.wp_pred) {
      s.vp = stale_.vp;
      s.wp = stale_.wp;
    } else {
      stale_.active = false;
    }
  }
  std::vector<double> r;
  evaluate(s, c, r);
  update_local_indices();
  for (std::size_t k = 0; k < rows_.size(); ++k)
    if (!modal_node_ || k >= 6 || !c.initial_assembly) sink.add(rows_[k], r[k]);
  q_ = s.a;
  qp_ = s.b;
  qpp_ = s.bp;
  for (std::size_t k = 0; k < interfaces_.size(); ++k) {
    F_[k] = s.F[k];
    M_[k] = s.M[k];
  }
}

// The Jacobian is the exact derivative of the residual along the Newton update (forward
// automatic differentiation): differential unknowns move by dCoef d, their derivatives by d;
// node orientations turn by dCoef [d x] and angular velocities change by d - dCoef w_ref x d
// (technical manual §5.1).
void ModalJoint::jacobian(JacobianSink& sink, const StepContext& c) {
  if (linearisation_ == Linearisation::Mbdyn && !c.initial_assembly) return mbdyn_jacobian(sink, c);
  const State<double> s0 = current_state(c);
  update_local_indices();
  const int nc = static_cast<int>(cols_.size());
  const double dc = c.dCoef;
  auto var = [&](double v, int col, double scale) {
    return AD(v, Eigen::VectorXd::Unit(nc, col) * scale);
  };
  auto vec = [&](const Vec3& v, int col, double scale) {
    return V3<AD>(var(v[0], col, scale), var(v[1], col + 1, scale), var(v[2], col + 2, scale));
  };
  auto rotated = [&](const Mat3& R, int col) {
    const V3<AD> theta = vec(Vec3::Zero(), col, dc);
    return M3<AD>((M3<AD>::Identity() + skew_of(theta)) * R.cast<AD>());
  };
  auto constant = [&](const Vec3& v) {
    return V3<AD>(AD(v[0], Eigen::VectorXd::Zero(nc)), AD(v[1], Eigen::VectorXd::Zero(nc)),
                  AD(v[2], Eigen::VectorXd::Zero(nc)));
  };
  State<AD> s;
  const int N = modes();
  const int col_own = modal_node_ ? 12 : 0, col_if = col_own + dof_count();
  if (modal_node_) {
    s.x = vec(s0.x, 0, dc);
    s.xp = vec(s0.xp, 0, 1.0);
    s.R = rotated(s0.R, 3);
    const V3<AD> dg = vec(Vec3::Zero(), 3, 1.0);
    s.omega = constant(s0.omega) + dg - dc * V3<AD>(modal_node_->w_ref().cast<AD>().cross(dg));
    s.v = vec(s0.v, 6, dc);
    s.vp = vec(s0.vp, 6, 1.0);
    s.w = vec(s0.w, 9, dc);
    s.wp = vec(s0.wp, 9, 1.0);
  } else {
    s.x = constant(s0.x);
    s.R = s0.R.cast<AD>();
    s.xp = s.v = s.vp = s.w = s.wp = s.omega = constant(Vec3::Zero());
  }
  s.a.resize(N);
  s.ap.resize(N);
  s.b.resize(N);
  s.bp.resize(N);
  for (int j = 0; j < N; ++j) {
    s.a[j] = var(s0.a[j], col_own + j, dc);
    s.ap[j] = var(s0.ap[j], col_own + j, 1.0);
    s.b[j] = var(s0.b[j], col_own + N + j, dc);
    s.bp[j] = var(s0.bp[j], col_own + N + j, 1.0);
  }
  for (std::size_t k = 0; k < interfaces_.size(); ++k) {
    const int cr = col_own + 2 * N + 6 * static_cast<int>(k);
    s.F.push_back(vec(s0.F[k], cr, 1.0));
    s.M.push_back(vec(s0.M[k], cr + 3, 1.0));
    const int cn = col_if + 6 * static_cast<int>(k);
    s.x2.push_back(vec(s0.x2[k], cn, dc));
    s.R2.push_back(rotated(s0.R2[k], cn + 3));
  }
  std::vector<AD> r;
  evaluate(s, c, r);
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    if (modal_node_ && k < 6 && c.initial_assembly) continue;
    const Eigen::VectorXd& d = r[k].derivatives();
    for (int j = 0; j < d.size(); ++j)
      if (d[j] != 0.0) sink.add(rows_[k], cols_[j], -d[j]);
  }
}

// MBDyn's linearisation of the modal joint (its Modal::AssJac), term by term in the local
// numbering of evaluate(): the floating frame's mass matrix with the centripetal terms of the
// reference angular velocity, the modal M, C, K, the couplings R Inv3 and R (Inv4 + Inv5 a) with
// the modal accelerations and the Coriolis terms of Inv3 b and Inv8 b - Inv9 a b; no derivative
// of S, J and the modal loads with respect to q. The interface clamps: reaction and constraint
// couplings, F x d and M x terms with dCoef, the modal loads' coupling with the reactions (for
// the moment term with R where the residual has R^T, as MBDyn writes it).
void ModalJoint::mbdyn_jacobian(JacobianSink& sink, const StepContext& c) const {
  const State<double> s = current_state(c);
  const ModalBody& B = body_;
  const int N = modes(), nif = static_cast<int>(interfaces_.size());
  const int o = modal_node_ ? 12 : 0, on = o + N, oif = o + 2 * N + 6 * nif;
  const double dc = c.dCoef;
  Eigen::MatrixXd& J = mbdyn_J_;
  J.setZero(oif + 6 * nif, oif + 6 * nif);
  auto skew = [](const Vec3& v) { return skew_of<double>(v); };
  const Mat3 R = s.R, RT = R.transpose();
  if (modal_node_) {
    const Vec3 wr = modal_node_->w_ref();
    Vec3 inv3_a = Vec3::Zero(), inv3_b = Vec3::Zero();
    Mat3 inv8_a = Mat3::Zero(), inv8_b = Mat3::Zero(), inv9_ab = Mat3::Zero();
    Eigen::Matrix3Xd inv5_a = Eigen::Matrix3Xd::Zero(3, N);
    for (int j = 0; j < N; ++j) {
      if (B.inv3.size()) {
        inv3_a += B.inv3.col(j) * s.a[j];
        inv3_b += B.inv3.col(j) * s.b[j];
      }
      if (B.inv5.size())
        for (int k = 0; k < N; ++k) inv5_a.col(k) += B.inv5.col(j * N + k) * s.a[j];
      if (B.inv8.size()) {
        inv8_a += B.inv8.middleCols<3>(3 * j) * s.a[j];
        inv8_b += B.inv8.middleCols<3>(3 * j) * s.b[j];
        if (B.inv9.size())
          for (int k = 0; k < N; ++k) inv9_ab += B.inv9.middleCols<3>(3 * (j * N + k)) * (s.a[j] * s.b[k]);
      }
    }
    Mat3 Jt = B.J;
    if (B.inv8.size()) Jt += inv8_a + inv8_a.transpose();
    const Mat3 Jw = R * Jt * RT;
    const Vec3 S = R * (B.S + inv3_a);
    J.block<3, 3>(6, 6) += B.mass * Mat3::Identity();
    J.block<3, 3>(6, 9) += skew(S) * skew(dc * wr) - skew(wr) * skew(2.0 * dc * S) - skew(S);
    J.block<3, 3>(9, 6) += skew(S);
    J.block<3, 3>(9, 9) += Jw + (skew(wr) * Jw - skew(Jw * wr)) * dc;
    for (int k = 0; k < 6; ++k) {
      J(k, k) += 1.0;
      J(k, 6 + k) -= dc;
    }
    J.block<3, 3>(3, 3) -= skew(dc * wr);
    if (B.inv3.size()) {
      const Eigen::Matrix3Xd RI3 = R * B.inv3;
      J.block(6, on, 3, N) += RI3;
      J.block(on, 6, N, 3) += RI3.transpose();
      J.block<3, 3>(6, 9) -= R * skew(inv3_b) * RT * (2.0 * dc);
    }
    if (B.inv4.size()) {
      Eigen::Matrix3Xd J23 = R * B.inv4;
      if (B.inv5.size()) J23 += R * inv5_a;
      J.block(9, on, 3, N) += J23;
      J.block(on, 9, N, 3) += J23.transpose();
    }
    if (B.inv8.size()) J.block<3, 3>(9, 9) += R * (inv8_b - inv9_ab) * RT * (2.0 * dc);
  }
  for (int j = 0; j < N; ++j) {
    J(o + j, o + j) = 1.0;
    J(o + j, on + j) = -dc;
    for (int k = 0; k < N; ++k) {
      J(on + j, o + k) = dc * B.K(j, k);
      J(on + j, on + k) = B.M(j, k) + dc * B.C(j, k);
    }
  }
  for (int i = 0; i < nif; ++i) {
    const Interface& f = interfaces_[i];
    const int rr = o + 2 * N + 6 * i, ri = oif + 6 * i;
    const Mat3 Fw = skew(s.F[i] * dc);
    const Eigen::Matrix3Xd phit_R = R * f.phi_t;
    for (int k = 0; k < 3; ++k) {
      J(ri + k, rr + k) -= 1.0;
      J(rr + k, ri + k) -= 1.0;
    }
    if (modal_node_) {
      const Mat3 d1w = skew(R * (f.x_fem + f.phi_t * s.a));
      for (int k = 0; k < 3; ++k) {
        J(6 + k, rr + k) += 1.0;
        J(rr + k, k) += 1.0;
      }
      J.block<3, 3>(9, rr) += d1w;
      J.block<3, 3>(9, 3) += Fw * d1w;
      J.block<3, 3>(rr, 3) -= d1w;
      J.block(on, 3, N, 3) += f.phi_t.transpose() * RT * Fw;
      J.block(9, o, 3, N) -= Fw * phit_R;
    }
    J.block(rr, o, 3, N) += phit_R;
    const Mat3& R2 = s.R2[i];
    const Mat3 d2w = skew(R2 * f.offset_N);
    J.block<3, 3>(ri + 3, rr) -= d2w;
    J.block<3, 3>(ri + 3, ri + 3) -= Fw * d2w;
    J.block(on, rr, N, 3) += f.phi_t.transpose() * RT;
    J.block<3, 3>(rr, ri + 3) += d2w;
    const Mat3 Mw = skew(R2 * (s.M[i] * dc));
    if (modal_node_) J.block<3, 3>(9, ri + 3) -= Mw;
    J.block<3, 3>(ri + 3, ri + 3) += Mw;
    const Eigen::MatrixX3d phir_RMw = f.phi_r.transpose() * R * Mw;
    if (modal_node_) J.block(on, 3, N, 3) += phir_RMw;
    J.block(on, ri + 3, N, 3) -= phir_RMw;
    if (modal_node_) {
      J.block<3, 3>(rr + 3, 3) += R2.transpose();
      J.block<3, 3>(9, rr + 3) += R2;
    }
    J.block<3, 3>(rr + 3, ri + 3) -= R2.transpose();
    J.block<3, 3>(ri + 3, rr + 3) -= R2;
    const Eigen::MatrixX3d phir_RTR2 = f.phi_r.transpose() * RT * R2;
    J.block(on, rr + 3, N, 3) += phir_RTR2;
    J.block(rr + 3, o, 3, N) += phir_RTR2.transpose();
  }
  update_local_indices();
  for (int r = 0; r < J.rows(); ++r)
    for (int k = 0; k < J.cols(); ++k)
      if (J(r, k) != 0.0) sink.add(rows_[r], cols_[k], J(r, k));
}

void ModalJoint::after_predict(const StepContext& c) {
  // The node's accelerations are still those of its last update (the previous step's).
  if (!modal_node_ || c.initial_assembly) return;
  stale_ = {true, false, modal_node_->xpp_W(), modal_node_->wp_W(), Vec3::Zero(), Vec3::Zero()};
}

void ModalJoint::after_convergence(const StepContext& c) {
  const State<double> s = current_state(c);
  q_ = s.a;
  qp_ = s.b;
  qpp_ = s.bp;
  F_ = s.F;
  M_ = s.M;
}

void ModalJoint::output_setup(OutputSink&) {}

// The .mod file (§8.12.31 "Output"): per mode "label.mode q qP qPP", then per interface node
// with output "label@node F M".
void ModalJoint::output(OutputSink& out) const {
  std::ostream* os = out.text(OutputFile::Mod);
  if (!os) return;
  for (int j = 0; j < modes(); ++j) {
    out.write_label(*os, label());
    *os << '.' << body_.mode_numbers[j];
    out.write(*os, q_[j]);
    out.write(*os, qp_[j]);
    out.write(*os, qpp_[j]);
    *os << '\n';
  }
  for (std::size_t k = 0; k < interfaces_.size(); ++k) {
    if (!interfaces_[k].output) continue;
    out.write_label(*os, label());
    *os << '@' << interfaces_[k].node->label();
    out.write(*os, F_[k]);
    out.write(*os, M_[k]);
    *os << '\n';
  }
}

std::string ModalJoint::log_line() const {
  const Vec3 x_cg = body_.S / body_.mass;
  std::string s = fmt::format("modal: {} {} {:g} {:g} {:g} {:g}", label(),
                              modal_node_ ? static_cast<long>(modal_node_->label()) : -1L, body_.mass, x_cg[0],
                              x_cg[1], x_cg[2]);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s += fmt::format(" {:g}", body_.J(r, c));
  return s;
}

unsigned ModalJoint::private_data_index(std::string_view name) const {
  // q, qP, qPP: modes; x, xP, xPP, w, wP: FEM nodes (index 3N + 18 n + 6 p + 3 w + i).
  if (name.empty() || !name.ends_with("]")) return 0;
  const char what = name.front();
  if (what != 'q' && what != 'x' && what != 'w') return 0;
  std::size_t k = 1;
  int p = what == 'w' ? 1 : 0;
  while (k < name.size() && name[k] == 'P') ++p, ++k;
  if (p > 2 || k >= name.size() || name[k] != '[') return 0;
  std::string_view arg = name.substr(k + 1, name.size() - k - 2);
  auto number = [](std::string_view t, int& n) {
    if (t.empty()) return false;
    n = 0;
    for (char ch : t) {
      if (ch < '0' || ch > '9') return false;
      n = 10 * n + (ch - '0');
    }
    return true;
  };
  const int N = modes();
  if (what == 'q') {
    const bool by_index = !arg.empty() && arg.front() == '#';
    if (by_index) arg.remove_prefix(1);
    int n = 0;
    if (!number(arg, n)) return 0;
    int j = -1;
    if (by_index) j = n - 1;
    else
      for (int m = 0; m < N; ++m)
        if (body_.mode_numbers[m] == n) j = m;
    if (j < 0 || j >= N) return 0;
    return static_cast<unsigned>(p * N + j + 1);
  }
  const std::size_t comma = arg.rfind(',');
  int c = 0;
  if (comma == std::string_view::npos || !number(arg.substr(comma + 1), c) || c < 1 || c > 3) return 0;
  const std::string_view label = arg.substr(0, comma);
  for (std::size_t n = 0; n < body_.node_labels.size(); ++n)
    if (body_.node_labels[n] == label)
      return static_cast<unsigned>(3 * N + 18 * n + (what == 'w' ? 3 : 0) + 6 * p + c);
  return 0;
}

// modal.cc Modal: q, qP, qPP of each mode, then 18 per FEM node (x, its rotation, which has no
// name and MBDyn's dGetPrivData refuses, xP, w, xPP, wP).
parser::PrivateDataOwner::DatumInfo ModalJoint::private_data_info(unsigned i) const {
  if (i < 1 || i > private_data_count()) return {};
  const int k = static_cast<int>(i) - 1, N = modes();
  if (k < 3 * N) {
    static constexpr const char* kName[3] = {"q", "qP", "qPP"};
    static constexpr const char* kMeaning[3] = {"modal coordinate", "its rate", "its second derivative"};
    return {fmt::format("{}[{}]", kName[k / N], body_.mode_numbers[k % N]), kMeaning[k / N]};
  }
  const int rest = k - 3 * N, n = rest / 18, slot = rest % 18, c = slot % 3 + 1;
  static constexpr const char* kName[6] = {"x", "", "xP", "w", "xPP", "wP"};
  static constexpr const char* kMeaning[6] = {"FEM node position, global frame",
                                              "FEM node rotation (MBDyn names none, returns none)",
                                              "FEM node velocity, global frame",
                                              "FEM node angular velocity, global frame",
                                              "FEM node acceleration, global frame",
                                              "FEM node angular acceleration, global frame"};
  const int what = slot / 3;
  if (kName[what][0] == '\0') return {"", kMeaning[what], false, true};
  return {fmt::format("{}[{},{}]", kName[what], body_.node_labels[n], c), kMeaning[what]};
}

double ModalJoint::private_data(unsigned i) const {
  const int k = static_cast<int>(i) - 1, N = modes();
  if (k < N) return q_[k];
  if (k < 2 * N) return qp_[k - N];
  if (k < 3 * N) return qpp_[k - 2 * N];
  const int rest = k - 3 * N, n = rest / 18, index = rest % 18, p = index / 6, c = index % 3;
  const bool rotation = index % 6 >= 3;
  // FEM node n in the floating frame: u_n + PHIt_n q (technical manual, modal element; as
  // MBDyn's private data, the modal rotation rates are added without the frame's own terms).
  Vec3 u = body_.x_nodes.col(n), ut = Vec3::Zero(), utt = Vec3::Zero(), r = Vec3::Zero(), rt = Vec3::Zero();
  for (int j = 0; j < N; ++j) {
    u += body_.shape_t[j].col(n) * q_[j];
    ut += body_.shape_t[j].col(n) * qp_[j];
    utt += body_.shape_t[j].col(n) * qpp_[j];
    r += body_.shape_r[j].col(n) * qp_[j];
    rt += body_.shape_r[j].col(n) * qpp_[j];
  }
  const Mat3 R = R_WF();
  const Vec3 x = x_WF();
  const Vec3 w = modal_node_ ? modal_node_->w_W() : Vec3::Zero();
  const Vec3 v = modal_node_ ? modal_node_->v_W() : Vec3::Zero();
  const Vec3 wp = modal_node_ ? modal_node_->wp_W() : Vec3::Zero();
  const Vec3 vp = modal_node_ ? modal_node_->xpp_W() : Vec3::Zero();
  const Vec3 d = R * u;
  Vec3 out = Vec3::Zero();
  if (!rotation && p == 0) out = x + d;
  if (!rotation && p == 1) out = v + w.cross(d) + R * ut;
  if (!rotation && p == 2) out = vp + wp.cross(d) + w.cross(w.cross(d)) + 2.0 * w.cross(Vec3(R * ut)) + R * utt;
  if (rotation && p == 1) out = w + R * r;
  if (rotation && p == 2) out = wp + w.cross(Vec3(R * r)) + R * rt;
  return out[c];
}

// modal.cc Modal::DescribeDof/DescribeEq: the modes' two ranges (written "a->b" even for one
// mode), then per interface node its six reactions (and in the initial assembly their six
// derivatives right after them), each line naming the node.
namespace {
struct ModalTexts {
  std::string_view q, qp;        ///< the modes' lines, "{0}" the mode count
  std::string_view node[4];      ///< per node: the two regular lines, the two initial ones
};

void modal_range(std::ostream& os, std::string_view prefix, int first, int count, std::string_view what) {
  os << prefix << first + 1 << "->" << first + count << ": " << what << '\n';
}

void describe_modal(std::ostream& os, std::string_view prefix, int first, bool initial, int n,
                    const std::vector<ModalJoint::Interface>& interfaces, const ModalTexts& t) {
  modal_range(os, prefix, first, n, fmt::format(fmt::runtime(t.q), n));
  modal_range(os, prefix, first + n, n, fmt::format(fmt::runtime(t.qp), n));
  int i = first + 2 * n;
  for (const ModalJoint::Interface& f : interfaces) {
    const std::string node = fmt::format("StructNode({}) ", f.node->label());
    for (int k = 0; k < (initial ? 4 : 2); ++k, i += 3) modal_range(os, prefix, i, 3, node + std::string(t.node[k]));
  }
}
}  // namespace

void ModalJoint::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  static constexpr ModalTexts texts{"modal displacements [q(1..{0})]",
                                    "modal velocities [qP(1..{0})]",
                                    {"reaction forces [Fx,Fy,Fz]", "reaction couples [Mx,My,Mz]",
                                     "reaction force derivatives [FPx,FPy,FPz]", "reaction couple derivatives [MPx,MPy,MPz]"}};
  describe_modal(os, prefix, first, initial, modes(), interfaces_, texts);
}

void ModalJoint::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  static constexpr ModalTexts texts{
      "modal velocity definitions [q(1..{0})=qP(1..{0})]",
      "modal equilibrium equations [1..{0}]",
      {"position constraints [Px=PxN,Py=PyN,Pz=PzN]", "orientation constraints [gx=gxN,gy=gyN,gz=gzN]",
       "velocity constraints [vx=vxN,vy=vyN,vz=vzN]", "angular velocity constraints [wx=wxN,wy=wyN,wz=wzN]"}};
  describe_modal(os, prefix, first, initial, modes(), interfaces_, texts);
}

}  // namespace mbl::elements
