#include "elements/beams/beam.hpp"

#include "mbdyn-like/core/log_text.hpp"

#include <cmath>
#include <limits>
#include <cstring>
#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

#include "elements/nodes/abstract_node.hpp"
#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "elements/beams/beam_custom_output.hpp"

namespace mbl::elements {

void beam_shape_functions(int nn, double xi, std::array<double, 3>& N, std::array<double, 3>& dN_dxi) {
  if (nn == 3) {
    N = {0.5 * xi * (xi - 1.0), 1.0 - xi * xi, 0.5 * xi * (xi + 1.0)};
    dN_dxi = {xi - 0.5, -2.0 * xi, xi + 0.5};
  } else {
    N = {0.5 * (1.0 - xi), 0.5 * (1.0 + xi), 0.0};
    dN_dxi = {-0.5, 0.5, 0.0};
  }
}

namespace {


// The two products below skip the zero blocks of a dense 6x6 product but sum every entry over k in
// increasing order, as Eigen's dense product does (adding the skipped exact zeros changes no bit):
// the Jacobian, hence every Newton iterate, is bit for bit the dense products' one.

/// Whether K has exact zeros off its diagonal (the `diag` section laws of most decks).
bool is_diagonal(const Mat6& K) {
  for (int c = 0; c < 6; ++c)
    for (int r = 0; r < 6; ++r)
      if (r != c && K(r, c) != 0.0) return false;
  return true;
}

/// K [[P, Q], [0, S]] with 3x3 blocks P, Q, S. With a diagonal K (`diagonal`) every entry is its
/// one product K(r, r) X(r, c): the dense sum adds exact zeros to it, which changes no bit of a
/// nonzero entry (only, at most, the sign of an entry that is zero).
Mat6 times_block_upper(const Mat6& K, const Mat3& P, const Mat3& Q, const Mat3& S, bool diagonal) {
  Mat6 out;
  if (diagonal) {
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        out(r, c) = K(r, r) * P(r, c);
        out(3 + r, c) = 0.0;
        out(r, 3 + c) = K(r, r) * Q(r, c);
        out(3 + r, 3 + c) = K(3 + r, 3 + r) * S(r, c);
      }
    }
    return out;
  }
  for (int c = 0; c < 3; ++c) {
    Vec6 a = K.col(0) * P(0, c);
    a += K.col(1) * P(1, c);
    a += K.col(2) * P(2, c);
    out.col(c) = a;
    Vec6 b = K.col(0) * Q(0, c);
    b += K.col(1) * Q(1, c);
    b += K.col(2) * Q(2, c);
    b += K.col(3) * S(0, c);
    b += K.col(4) * S(1, c);
    b += K.col(5) * S(2, c);
    out.col(3 + c) = b;
  }
  return out;
}

/// R^T v, each entry summed in the one order (MBDyn's MulTV), wherever it is evaluated: the
/// reference strain L0 and the strain at every residual must round alike.
Vec3 transpose_times(const Mat3& R, const Vec3& v) {
  Vec3 out;
  for (int c = 0; c < 3; ++c) out[c] = R(0, c) * v[0] + R(1, c) * v[1] + R(2, c) * v[2];
  return out;
}

/// skew(a) M as a x M(:, c): the dense product adds skew's zero diagonal term to the same two
/// products (IEEE addition commutes), so every nonzero entry is the same bit for bit.
template <int C>
Eigen::Matrix<double, 3, C> skew_times(const Vec3& a, const Eigen::Matrix<double, 3, C>& M) {
  Eigen::Matrix<double, 3, C> out;
  for (int c = 0; c < C; ++c) out.col(c) = a.cross(M.col(c));
  return out;
}

/// diag(R, R) M; `lower_left_zero`: M's lower left block is zero (a diagonal section law), and so
/// is the product's (R 0 sums exact zeros).
Mat6 times_blockdiag(const Mat3& R, const Mat6& M, bool lower_left_zero) {
  Mat6 out;
  for (int c = 0; c < 6; ++c)
    for (int h = 0; h < 6; h += 3) {
      if (lower_left_zero && h == 3 && c < 3) {
        out.block<3, 1>(h, c).setZero();
        continue;
      }
      Vec3 a = R.col(0) * M(h, c);
      a += R.col(1) * M(h + 1, c);
      a += R.col(2) * M(h + 2, c);
      out.block<3, 1>(h, c) = a;
    }
  return out;
}

}  // namespace

void Beam::section_shape_functions(int nn, int s, std::array<double, 3>& N, std::array<double, 3>& dN_dxi) {
  // Evaluation points of the finite volumes (input manual §8.3.2, §8.3.3): xi = -+1/sqrt(3)
  // (beam3), 0 (beam2). The values are MBDyn's closed forms (shapefnc.cc), bit for bit.
  if (nn == 3) {
    const double r3 = std::sqrt(3.0);
    const std::array<double, 3> N_I{(1.0 + r3) / 6.0, 2.0 / 3.0, (1.0 - r3) / 6.0};
    const std::array<double, 3> dN_I{-(2.0 * r3 + 3.0) / 6.0, 2.0 / r3, -(2.0 * r3 - 3.0) / 6.0};
    if (s == 0) {
      N = N_I;
      dN_dxi = dN_I;
    } else {  // point II mirrors point I
      N = {N_I[2], N_I[1], N_I[0]};
      dN_dxi = {-dN_I[2], -dN_I[1], -dN_I[0]};
    }
  } else {
    N = {0.5, 0.5, 0.0};
    dN_dxi = {-0.5, 0.5, 0.0};
  }
}

Vec3 Beam::interpolate(const SectionState& S, const std::array<Vec3, kMaxNodes>& v) const {
  if (nn_ == 3) return v[0] * S.N[0] + v[1] * S.N[1] + v[2] * S.N[2];
  return v[0] * S.N[0] + v[1] * S.N[1];
}

Vec3 Beam::interpolate_derivative(const SectionState& S, const std::array<Vec3, kMaxNodes>& v) const {
  // (sum_i N_i,xi v_i) dxi/ds, summed and scaled in this order as MBDyn's InterpDeriv.
  if (nn_ == 3) return (v[0] * S.dN_dxi[0] + v[1] * S.dN_dxi[1] + v[2] * S.dN_dxi[2]) * S.ds_dxi_inv;
  return (v[0] * S.dN_dxi[0] + v[1] * S.dN_dxi[1]) * S.ds_dxi_inv;
}

Beam::Beam(unsigned label, std::vector<BeamPoint> points, std::vector<BeamSection> sections,
           std::vector<const AbstractNode*> electrodes)
    : Element(label), nn_(static_cast<int>(points.size())), ns_(static_cast<int>(sections.size())),
      sections_(std::move(sections)), electrodes_(std::move(electrodes)) {
  if (!((nn_ == 3 && ns_ == 2) || (nn_ == 2 && ns_ == 1)))
    throw std::invalid_argument("Beam: 3 points with 2 sections or 2 points with 1 section");
  for (const auto& s : sections_)
    if (s.piezo.cols() != static_cast<Eigen::Index>(electrodes_.size()))
      throw std::invalid_argument("Beam: one piezoelectric matrix column per electrode");
  for (int i = 0; i < nn_; ++i) pt_[i] = points[i];
  for (const auto& s : sections_) viscous_ = viscous_ || s.law->is_viscous();
}

int Beam::side(int j, int s) const {
  if (j == s) return 1;
  if (j == s + 1) return -1;
  return 0;
}

void Beam::setup(Model&) {
  // Reference configuration from the nodes' initial conditions: it is stress free. As MBDyn's
  // Beam/Beam2::DsDxi (beam.cc, beam2.cc), L0 is R^T l computed exactly as l is at every residual
  // (interpolate_derivative), so the strains of the reference configuration are exactly zero.
  std::array<Vec3, kMaxNodes> p0;
  std::array<Mat3, kMaxNodes> R_WP;
  for (int i = 0; i < nn_; ++i) {
    const auto& ic = pt_[i].node->initial();
    p0[i] = ic.x_W + ic.R_WN * pt_[i].offset_N;
    R_WP[i] = ic.R_WN * pt_[i].R_NP;
    R_node_conv_[i] = ic.R_WN;
  }
  for (int s = 0; s < ns_; ++s) {
    SectionState& S = sec_[s];
    section_shape_functions(nn_, s, S.N, S.dN_dxi);
    S.ds_dxi_inv = 1.0;
    const Vec3 dp_dxi = interpolate_derivative(S, p0);
    const double d = dp_dxi[0] * dp_dxi[0] + dp_dxi[1] * dp_dxi[1] + dp_dxi[2] * dp_dxi[2];
    if (!(d > std::numeric_limits<double>::epsilon()))
      throw std::invalid_argument(fmt::format("beam {}: zero length at evaluation point {}", label(), s + 1));
    S.ds_dxi_inv = 1.0 / std::sqrt(d);  // dxi/ds
    for (int i = 0; i < nn_; ++i) S.dN[i] = S.dN_dxi[i] * S.ds_dxi_inv;  // d/ds = d/dxi * dxi/ds
    Mat3 R = sections_[s].R_WS;
    if (sections_[s].from_nodes) {
      // As MBDyn's beam readers (ReadBeam, ReadBeam2): the points' orientations relative to the
      // middle (beam3) or second (beam2) point, in that point's frame, interpolated there.
      const Mat3& R_c = R_WP[1];
      Vec3 g_c;
      if (nn_ == 3) {
        const Vec3 g1 = rot::R_to_cgr(R_c.transpose() * R_WP[0]);
        const Vec3 g3 = rot::R_to_cgr(R_c.transpose() * R_WP[2]);
        g_c = S.N[0] * g1 + S.N[1] * Vec3::Zero() + S.N[2] * g3;
      } else {
        g_c = rot::R_to_cgr(R_c.transpose() * R_WP[0]) / 2.0;
      }
      R = R_c * rot::cgr_to_R(g_c);
    }
    S.R_ref = S.R_conv = S.R = R;
    S.L0 = transpose_times(R, interpolate_derivative(S, p0));
    S.kappa_ref = S.kappa_conv = Vec3::Zero();
    S.w_ref = S.kappa_dot_ref = Vec3::Zero();
  }
  evaluated_valid_ = false;
}

void Beam::node_increments(const StepContext& c, int i, Vec3& g, Vec3& gd) const {
  const StructNode& n = *pt_[i].node;
  if (n.dof_count() == 0 || !c.y) {
    g = n.g();
    gd.setZero();
    return;
  }
  g = c.y->segment<3>(n.dof_index() + 3);
  gd = c.yp->segment<3>(n.dof_index() + 3);
}

void Beam::evaluate(const StepContext& c) {
  EvaluationInputs in{};
  auto& [p, u, g, gd, t] = in;
  t = c.t;
  for (int i = 0; i < nn_; ++i) {
    const StructNode& n = *pt_[i].node;
    const Vec3 b = n.R_WN() * pt_[i].offset_N;
    p[i] = n.x_W() + b;
    u[i] = n.v_W() + n.w_W().cross(b);
    node_increments(c, i, g[i], gd[i]);
  }
  // The electrodes' voltages are inputs too: with electrodes, always evaluate.
  if (evaluated_valid_ && electrodes_.empty() && std::memcmp(&in, &evaluated_, sizeof in) == 0) return;
  evaluated_ = in;
  evaluated_valid_ = true;
  t_ = c.t;
  for (int s = 0; s < ns_; ++s) {
    SectionState& S = sec_[s];
    S.p = interpolate(S, p);
    S.l = interpolate_derivative(S, p);
    S.g = interpolate(S, g);
    S.g_s = interpolate_derivative(S, g);
    S.gd = interpolate(S, gd);
    S.gd_s = interpolate_derivative(S, gd);
    S.l_dot = interpolate_derivative(S, u);
    const Mat3 R_delta = rot::cgr_to_R(S.g);
    const Mat3 G = rot::cgr_G(S.g);
    S.R = R_delta * S.R_ref;
    const Mat3 RT = S.R.transpose();
    S.def.head<3>() = transpose_times(S.R, S.l) - S.L0;
    S.def.tail<3>() = RT * (G * S.g_s) + S.kappa_ref;
    if (viscous_) {
      S.w = G * S.gd + R_delta * S.w_ref;
      S.def_dot.head<3>() = RT * (S.l_dot + S.l.cross(S.w));
      // The curvature's rate with MBDyn's terms (ViscoElasticBeam::AssStiffnessVec, beam.cc and
      // beam2.cc): d/dt of G(g) g_s gives G g'_s + G' g, and the section's turning (G g_s) x w.
      const double den = 4.0 + S.g.squaredNorm();
      const Mat3 G_dot = (S.gd * S.g.transpose() + S.g * S.gd.transpose()) * (-4.0 / (den * den)) +
                         skew(S.gd) * (2.0 / den);
      S.def_dot.tail<3>() = RT * (G * S.gd_s + G_dot * S.g + (G * S.g_s).cross(S.w)) + S.kappa_dot_ref;
    } else {
      S.def_dot.setZero();
    }
    ConstitutiveLaw6D& law = *sections_[s].law;
    law.update(S.def, S.def_dot, c.t);
    S.az_S = law.force();
    if (!electrodes_.empty()) S.az_S += sections_[s].piezo * electrode_voltages();
    S.F_W = S.R * S.az_S.head<3>();
    S.M_W = S.R * S.az_S.tail<3>();
  }
}

void Beam::residual(ResidualSink& r, const StepContext& c) {
  evaluate(c);
  for (int j = 0; j < nn_; ++j) {
    const StructNode& n = *pt_[j].node;
    if (n.dof_count() == 0) continue;
    Vec3 F = Vec3::Zero(), M = Vec3::Zero();
    for (int s = 0; s < ns_; ++s) {
      const int sg = side(j, s);
      if (sg == 0) continue;
      const SectionState& S = sec_[s];
      F += sg * S.F_W;
      M += sg * (S.M_W + (S.p - n.x_W()).cross(S.F_W));
    }
    r.add(n.eq_index(), F);
    r.add(n.eq_index() + 3, M);
  }
}

void Beam::jacobian(JacobianSink& J, const StepContext& c) {
  evaluate(c);
  std::array<Vec3, kMaxNodes> b, W;
  for (int i = 0; i < nn_; ++i) {
    const StructNode& n = *pt_[i].node;
    b[i] = n.R_WN() * pt_[i].offset_N;
    Vec3 g, gd;
    node_increments(c, i, g, gd);
    W[i] = n.w_ref() + 0.5 * gd;  // d omega_i = d g'_i - W_i x d g_i (linearised at g = 0)
  }
  for (int s = 0; s < ns_; ++s) {
    const SectionState& S = sec_[s];
    const ConstitutiveLaw6D& law = *sections_[s].law;
    // Updated-updated linearisation of the section law (technical manual §10.1, "strain
    // linearization at an evaluation point"): the strain derivatives and the section law are
    // rotated with the Newton reference R_r, not with the current R = R(g) R_r, and the
    // derivative of G(g) in the curvature is dropped (g ~ 0). This is what MBDyn assembles; it is
    // exact at g = 0 (the first Newton iteration of each step) and within O(|g|) elsewhere, and it
    // reproduces MBDyn's Newton convergence rate when the rotations within a step are large. The
    // terms that rotate the stress resultants (-F x, -M x) use the current forces.
    const Mat3 RT = S.R_ref.transpose();
    const Mat3 lx = skew(S.l);
    const Vec3 e = S.l_dot + S.l.cross(S.w);
    const Vec3 Ws = S.w_ref + 0.5 * S.gd;
    const Mat3 Fx = skew(S.F_W), Mx = skew(S.M_W), wx = skew(S.w), Wsx = skew(Ws);
    const bool K_diagonal = is_diagonal(law.stiffness());
    const bool D_diagonal = viscous_ && is_diagonal(law.damping());
    for (int i = 0; i < nn_; ++i) {
      const StructNode& ni = *pt_[i].node;
      if (ni.dof_count() == 0) continue;
      const double N = S.N[i], dN = S.dN[i];
      const Mat3 bx = skew(b[i]);
      // Strains w.r.t. (x_i, g_i), [[dN R_r^T, R_r^T X], [0, dN R_r^T]], and strain rates w.r.t.
      // (x_i, g_i) and (x_i', g_i') (the latter the same blocks), through the section law.
      const Mat3 dN_RT = dN * RT;
      const Mat3 RT_X = RT * (N * lx - dN * bx);
      Mat6 dF_dy = times_block_upper(law.stiffness(), dN_RT, RT_X, dN_RT, K_diagonal);
      Mat6 B = Mat6::Zero();  // set below when viscous (zeroed: GCC -O3 cannot tell it is unused otherwise)
      if (viscous_) {
        const Vec3& w_i = ni.w_W();
        const Mat3 rate_x = -dN * RT * wx;
        const Mat3 rate_g =
            RT * (N * skew(e) +
                  dN * (skew_times(b[i], skew(W[i])) - skew_times(w_i, bx) + skew_times(S.w, bx)) -
                  skew_times<3>(N * S.l, Wsx));
        // The curvature's rate w.r.t. g_i, exact at g = 0: the turning (G g_s) x w gives MBDyn's
        // -N_i' (w x) (ViscoElasticBeam::AssStiffnessMat); R^T, G(g) and G' g the N_i terms,
        // which vanish where MBDyn assembles (g' = 0 after the prediction).
        const Mat3 rate_k = RT * (0.5 * N * (skew(S.gd_s) + skew(S.gd))) + rate_x;
        dF_dy += times_block_upper(law.damping(), rate_x, rate_g, rate_k, D_diagonal);
        B = times_blockdiag(S.R_ref, times_block_upper(law.damping(), dN_RT, RT_X, dN_RT, D_diagonal),
                            D_diagonal);
      }
      // Generalised force (F, M) in W.
      Mat6 A = times_blockdiag(S.R_ref, dF_dy, K_diagonal && (!viscous_ || D_diagonal));
      A.block<3, 3>(0, 3) -= N * Fx;
      A.block<3, 3>(3, 3) -= N * Mx;
      for (int j = 0; j < nn_; ++j) {
        const int sg = side(j, s);
        const StructNode& nj = *pt_[j].node;
        if (sg == 0 || nj.dof_count() == 0) continue;
        const Vec3 d = S.p - nj.x_W();
        // Rows of node j: (F, M + d x F), d = p_s - x_j.
        Mat6 Aj;
        Aj.topRows<3>() = A.topRows<3>();
        Aj.bottomRows<3>() = A.bottomRows<3>() + skew_times<6>(d, A.topRows<3>());
        // Fx (a I) as Fx a: the product's other terms are exact zeros.
        Aj.block<3, 3>(3, 0) -= Fx * (N - (i == j ? 1.0 : 0.0));
        Aj.block<3, 3>(3, 3) += skew_times<3>(S.F_W, N * bx);
        if (!viscous_) {
          J.add(nj.eq_index(), ni.dof_index(), Mat6(-sg * (c.dCoef * Aj)));
          continue;
        }
        Mat6 Bj;
        Bj.topRows<3>() = B.topRows<3>();
        Bj.bottomRows<3>() = B.bottomRows<3>() + skew_times<6>(d, B.topRows<3>());
        J.add(nj.eq_index(), ni.dof_index(), Mat6(-sg * (Bj + c.dCoef * Aj)));
      }
    }
    // Piezoelectric actuation: (F, M) = R T V, linear in the electrodes' values.
    for (std::size_t e = 0; e < electrodes_.size(); ++e) {
      const AbstractNode& el = *electrodes_[e];
      const double coef = el.differential() ? c.dCoef : 1.0;
      const Vec3 F_V = S.R * sections_[s].piezo.col(e).head<3>(), M_V = S.R * sections_[s].piezo.col(e).tail<3>();
      for (int j = 0; j < nn_; ++j) {
        const int sg = side(j, s);
        const StructNode& nj = *pt_[j].node;
        if (sg == 0 || nj.dof_count() == 0) continue;
        Vec6 col;
        col << F_V, M_V + (S.p - nj.x_W()).cross(F_V);
        J.add(nj.eq_index(), el.first_index(), Vec6(-sg * coef * col));
      }
    }
  }
}

Eigen::VectorXd Beam::electrode_voltages() const {
  Eigen::VectorXd V(electrodes_.size());
  for (std::size_t e = 0; e < electrodes_.size(); ++e) V[e] = electrodes_[e]->x();
  return V;
}

void Beam::after_convergence(const StepContext& c) {
  evaluate(c);
  // The nodes are about to take their canonical form (g = 0; StructNode::after_convergence), and
  // an eigenanalysis then assembles at that point with omega in the nodes' reference (g' = 0,
  // MBDyn's converged form: StructNode::reference_angular_velocity_form). Move the sections'
  // references to the converged state, so that an evaluation there finds it, as MBDyn's beams
  // keep the values of their last residual (R, the curvatures, the section's omega and rates),
  // and not the prediction's orientation and curvature. after_predict() starts the next step
  // from R_conv and kappa_conv as before.
  bool canonical = true;
  for (int i = 0; i < nn_; ++i) {
    const StructNode& n = *pt_[i].node;
    canonical = canonical && (n.dof_count() == 0 || !c.y ? n.g().isZero(0.0) : n.rebases());
  }
  for (int s = 0; s < ns_; ++s) {
    SectionState& S = sec_[s];
    S.R_conv = S.R;
    S.kappa_conv = S.def.tail<3>();
    sections_[s].law->after_convergence();
    if (!canonical) continue;
    S.R_ref = S.R;
    S.kappa_ref = S.kappa_conv;
    S.w_ref = S.w;
    S.kappa_dot_ref = S.def_dot.tail<3>();
  }
  evaluated_valid_ = false;
  for (int i = 0; i < nn_; ++i) R_node_conv_[i] = pt_[i].node->R_WN();
}

void Beam::after_predict(const StepContext& c) {
  // The nodes' predicted rotations (relative to their last converged orientation) carry the
  // sections' orientation and curvature to the new reference (technical manual §10.1: R =
  // R(N_i g_i) R_r, kappa = R^T G N_i' g_i + kappa_r).
  std::array<Vec3, kMaxNodes> g_ref, gd_ref;
  for (int i = 0; i < nn_; ++i) {
    const StructNode& n = *pt_[i].node;
    g_ref[i] = rot::R_to_cgr(n.R_ref() * R_node_conv_[i].transpose());
    gd_ref[i] = rot::cgr_G_inverse(g_ref[i]) * n.w_ref();
  }
  for (int s = 0; s < ns_; ++s) {
    SectionState& S = sec_[s];
    const Vec3 g = interpolate(S, g_ref), g_s = interpolate_derivative(S, g_ref);
    const Vec3 gd = interpolate(S, gd_ref), gd_s = interpolate_derivative(S, gd_ref);
    const Mat3 G = rot::cgr_G(g);
    S.R_ref = rot::cgr_to_R(g) * S.R_conv;
    S.kappa_ref = S.R_ref.transpose() * (G * g_s) + S.kappa_conv;
    S.w_ref = G * gd;
    S.kappa_dot_ref = S.R_ref.transpose() * (G * gd_s + (G * g_s).cross(S.w_ref));  // MBDyn's AfterPredict
  }
  evaluated_valid_ = false;
  (void)c;
}

// ---- output --------------------------------------------------------------------------------------

void Beam::output_setup(OutputSink& out) {
  for (auto& ids : nc_) ids.fill(-1);
  if (!out.netcdf() || !output_enabled()) return;
  const std::string base = fmt::format("elem.beam.{}", label());
  out.declare_entity(base, std::string(type_name()));
  namespace nc = output::nc;
  namespace bo = beam_output;
  const unsigned f = custom_output_;
  // MBDyn's Beam::OutputPrepare (beam.cc) and Beam2::OutputPrepare (beam2.cc): the names carry
  // "_I"/"_II" on beam3, nothing on beam2; beam2's orientation description is MBDyn's text.
  for (int s = 0; s < ns_; ++s) {
    const bool b3 = nn_ == 3;
    const std::string sez = b3 ? (s == 0 ? "I" : "II") : "";
    const std::string post = b3 ? "_" + sez : "";
    const std::string ep = b3 ? "evaluation point " + sez + " " : "evaluation point ";
    auto vec = [&](std::string_view name, std::string_view units, const std::string& what) {
      return out.declare(base + "." + std::string(name) + post, NcShape::Vec3, std::string(units), ep + what);
    };
    auto& ids = nc_[s];
    if (f & bo::kPosition) ids[0] = vec("X", "Length", "global position vector (X, Y, Z)");
    if (f & bo::kOrientation)
      ids[1] = declare_orientation(out, base, orientation_output_,
                                   b3 ? ep + "global" : " evaluation point global orientation matrix", post);
    if (f & bo::kForce)
      ids[2] = b3 ? output::nc_declare(out, base, s == 0 ? nc::beam3_F_I : nc::beam3_F_II)
                  : output::nc_declare(out, base, nc::beam2_F);
    if (f & bo::kMoment)
      ids[3] = b3 ? output::nc_declare(out, base, s == 0 ? nc::beam3_M_I : nc::beam3_M_II)
                  : output::nc_declare(out, base, nc::beam2_M);
    if (f & bo::kLinearStrain) ids[4] = vec("nu", "Linear strain", "linear strain in local frame (nu_X, nu_Y, nu_Z)");
    if (f & bo::kAngularStrain) ids[5] = vec("k", "Angular strain", "angular strain in local frame (K_X, K_Y, K_Z)");
    if (f & bo::kLinearStrainRate)
      ids[6] = vec("nuP", "Linear strain rate", "linear strain rate in local frame (nuP_X, nuP_Y, nuP_Z)");
    if (f & bo::kAngularStrainRate)
      ids[7] = vec("kP", "Angular strain rate", "angular strain rate in local frame (KP_X, KP_Y, KP_Z)");
  }
}

void Beam::output(OutputSink& out) const {
  if (!output_enabled()) return;
  namespace bo = beam_output;
  const unsigned f = custom_output_;
  if (std::ostream* os = out.text(OutputFile::Act)) {
    out.write_label(*os, label());
    for (int s = 0; s < ns_; ++s) {
      out.write(*os, Vec3(sec_[s].az_S.head<3>()));
      out.write(*os, Vec3(sec_[s].az_S.tail<3>()));
    }
    // beam3 only (Beam::Output; Beam2::Output writes forces and moments alone): each selected
    // strain block is "setw(8) << ' '" then both sections. MBDyn writes the strains again, not
    // their rates, under the strain-rate flags; so do we.
    if (nn_ == 3) {
      const bool blocks[4] = {(f & bo::kLinearStrain) != 0, (f & bo::kAngularStrain) != 0,
                              (f & bo::kLinearStrainRate) != 0, (f & bo::kAngularStrainRate) != 0};
      for (int b = 0; b < 4; ++b) {
        if (!blocks[b]) continue;
        *os << "       ";
        for (int s = 0; s < ns_; ++s) out.write(*os, Vec3(sec_[s].def.segment<3>(b % 2 == 0 ? 0 : 3)));
      }
    }
    *os << '\n';
  }
  if (out.netcdf()) {
    for (int s = 0; s < ns_; ++s) {
      const auto& ids = nc_[s];
      const SectionState& S = sec_[s];
      if (ids[0] >= 0) out.put(ids[0], S.p);
      if (ids[1] >= 0) put_orientation(out, ids[1], S.R, orientation_output_);
      if (ids[2] >= 0) out.put(ids[2], Vec3(S.az_S.head<3>()));
      if (ids[3] >= 0) out.put(ids[3], Vec3(S.az_S.tail<3>()));
      if (ids[4] >= 0) out.put(ids[4], Vec3(S.def.head<3>()));
      if (ids[5] >= 0) out.put(ids[5], Vec3(S.def.tail<3>()));
      if (ids[6] >= 0) out.put(ids[6], Vec3(S.def_dot.head<3>()));
      if (ids[7] >= 0) out.put(ids[7], Vec3(S.def_dot.tail<3>()));
    }
  }
}

std::string Beam::log_line() const {
  std::string line = fmt::format("beam{}: {}", nn_, label());
  for (int i = 0; i < nn_; ++i) {
    const Vec3& f = pt_[i].offset_N;
    line += fmt::format(" {} {}", pt_[i].node->label(), log_text(f));
  }
  return line;
}

// ---- private data --------------------------------------------------------------------------------

namespace {
constexpr const char* kPrivateNames[27] = {
    "ex", "ey", "ez", "kx", "ky", "kz", "Fx", "Fy", "Fz", "Mx", "My", "Mz", "Xx", "Xy",
    "Xz", "Phix", "Phiy", "Phiz", "Omegax", "Omegay", "Omegaz", "ePx", "ePy", "ePz", "kPx", "kPy", "kPz"};
}

unsigned Beam::private_data_index(std::string_view name) const {
  unsigned base = 0;
  if (name.substr(0, 4) == "pII.") {
    if (ns_ < 2) return 0;
    base = 27;
    name.remove_prefix(4);
  } else if (name.substr(0, 3) == "pI.") {
    name.remove_prefix(3);
  } else if (ns_ != 1) {
    return 0;
  }
  // beam.cc Beam::iGetPrivDataIdx_int: "Phi" and "Omega" in any letter case; the strain rates
  // of viscoelastic beams only.
  const auto same = [](std::string_view a, std::string_view b, bool any_case) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (any_case && i + 1 < a.size() ? std::tolower(static_cast<unsigned char>(a[i])) !=
                                             std::tolower(static_cast<unsigned char>(b[i]))
                                       : a[i] != b[i])
        return false;
    return true;
  };
  for (unsigned k = 0; k < (viscous_ ? 27u : 21u); ++k)
    if (same(name, kPrivateNames[k], k >= 15 && k < 21)) return base + k + 1;
  return 0;
}

// beam.cc Beam (per evaluation point "pI." / "pII.") and beam2.cc Beam2 (no prefix).
parser::PrivateDataOwner::DatumInfo Beam::private_data_info(unsigned i) const {
  static constexpr const char* kMeaning[9] = {"strain, section frame",    "curvature, section frame",
                                              "force, section frame",     "moment, section frame",
                                              "position, global frame",   "rotation vector",
                                              "angular velocity, global frame", "strain rate, section frame",
                                              "curvature rate, section frame"};
  if (i < 1 || i > private_data_count()) return {};
  const unsigned k = (i - 1) % 27;
  const char* prefix = ns_ == 1 ? "" : i <= 27 ? "pI." : "pII.";
  // beam.cc: an elastic beam has no name for the rates and its dGetPrivData refuses them.
  if (!viscous_ && k >= 21)
    return {"", fmt::format("{} (viscoelastic beams only)", kMeaning[k / 3]), false, true};
  return {fmt::format("{}{}", prefix, kPrivateNames[k]), kMeaning[k / 3]};
}

double Beam::private_data(unsigned index) const {
  if (index < 1 || index > private_data_count()) return 0.0;
  const SectionState& S = sec_[(index - 1) / 27];
  const unsigned k = (index - 1) % 27;
  switch (k / 3) {
    case 0: return S.def[k];
    case 1: return S.def[k];
    case 2: return S.az_S[k - 6];
    case 3: return S.az_S[k - 6];
    case 4: return S.p[k - 12];
    case 5: return rot::R_to_rotvec(S.R)[k - 15];
    case 6: return (viscous_ ? S.w : Vec3::Zero())[k - 18];
    default: return S.def_dot[k - 21];
  }
}

}  // namespace mbl::elements
