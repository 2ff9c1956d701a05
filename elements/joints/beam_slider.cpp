#include "elements/joints/beam_slider.hpp"

#include <fmt/format.h>

#include <cmath>

#include "elements/joints/friction_output.hpp"
#include "mbdyn-like/core/dof_description.hpp"

namespace mbl::elements {
namespace {

// NetCDF variables of elem.joint.<label> (input manual appendix C, MBDyn's BeamSliderJoint).
constexpr output::NcVarSpec kNcBeam{"Beam", NcShape::IntScalar, "Dimensionless", "current beam label"};
constexpr output::NcVarSpec kNcSRef{"sRef", NcShape::Scalar, "Dimensionless", "current curvilinear abscissa"};
constexpr output::NcVarSpec kNcL{"l", NcShape::Vec3, "Dimensionless", "local direction vector (x, y, z)"};
constexpr output::NcVarSpec kNcV{"v", NcShape::Scalar, "Velocity", "relative sliding velocity"};

/// Boundary of the finite volumes of a three-node beam (its evaluation points).
const double kVolumeBoundary = 1.0 / std::sqrt(3.0);

/// Lagrange shape functions of the nodes at s = -1, 0, 1 and their first two derivatives.
void shape(double s, std::array<double, 3>& N, std::array<double, 3>& dN, std::array<double, 3>& ddN) {
  N = {0.5 * s * (s - 1.0), 1.0 - s * s, 0.5 * s * (s + 1.0)};
  dN = {s - 0.5, -2.0 * s, s + 0.5};
  ddN = {1.0, -2.0, 1.0};
}

// Local numbering of the Jacobian: slider node x, g (0-5), beam node i x, g (6 + 6 i ...),
// then the joint's unknowns s, F, m.
constexpr int kS = 24, kF = 25, kM = 28;

}  // namespace

BeamSlider::BeamSlider(unsigned label, Params p) : Joint(label), p_(std::move(p)), current_(p_.initial_beam) {
  s_ref_ = 2.0 * current_ + p_.initial_node - 2.0;
  R_WJ_ = p_.slider.R_WH();
}

std::string BeamSlider::log_line() const {
  // Appendix E.2.9: slider node, offset, orientation, number of beams, then each beam with its
  // three nodes: label, offset, orientation; MBDyn's file (t.joints.slider.slider) leaves out
  // the first node's offset.
  std::string s = fmt::format("beamslider: {} {} {}", label(), p_.slider.node->label(), log_text(p_.slider.offset_N));
  s += " " + log_text(p_.slider.R_NH) + " " + std::to_string(p_.beams.size());
  for (const Segment& b : p_.beams) {
    s += " " + std::to_string(b.beam->label());
    for (int i = 0; i < 3; ++i) {
      s += " " + std::to_string(b.beam->node(i).label());
      if (i > 0) s += " " + log_text(b.f_N[i]);
      s += " " + log_text(b.R_N[i]);
    }
  }
  return s;
}

// MBDyn's BeamSliderJoint has no SetValue: the abscissa unknown starts at 0 whatever the initial
// beam and node (these only pick the current beam; its sRef member is overwritten by the first
// AssRes), and the derivatives phase moves it onto the line from there, one beam per residual.
void BeamSlider::initial_state(Vector& y, Vector&) const { y[first_index()] = 0.0; }

DofOrder BeamSlider::dof_order(int i) const {
  return p_.friction && i == 4 + rotation_multipliers() ? p_.friction->dof_order() : DofOrder::Algebraic;
}

Vec3 BeamSlider::relative_velocity(const Geometry& g) const {
  const StructNode& nb = *p_.slider.node;
  Vec3 v = nb.v_W() + nb.w_W().cross(g.f_b);
  for (int i = 0; i < 3; ++i) v -= g.N[i] * (g.node[i]->v_W() + g.node[i]->w_W().cross(g.f_W[i]));
  return v;
}

BeamSlider::Geometry BeamSlider::geometry(const StepContext& c) const {
  Geometry g;
  const Segment& seg = p_.beams[current_];
  const double s = (*c.y)[first_index()] - 2.0 * current_;
  shape(s, g.N, g.dN, g.ddN);
  g.x.setZero();
  g.l.setZero();
  g.lp.setZero();
  for (int i = 0; i < 3; ++i) {
    g.node[i] = &seg.beam->node(i);
    g.f_W[i] = g.node[i]->R_WN() * seg.f_N[i];
    g.xT[i] = g.node[i]->x_W() + g.f_W[i];
    g.x += g.N[i] * g.xT[i];
    g.l += g.dN[i] * g.xT[i];
    g.lp += g.ddN[i] * g.xT[i];
  }
  const StructNode& nb = *p_.slider.node;
  g.R_b = nb.R_WN() * p_.slider.R_NH;
  g.f_b = nb.R_WN() * p_.slider.offset_N;
  g.x_c = nb.x_W() + g.f_b;
  // The finite volume containing s: node 1 below -1/sqrt(3), node 3 above +1/sqrt(3), node 2
  // between; within the smearing band around a boundary the reaction is shared linearly.
  const double a = kVolumeBoundary, dL = p_.smearing, h = dL > 0.0 ? 0.5 / dL : 0.0;
  if (s < -a - dL) {
    g.active = 0;
  } else if (s < -a + dL) {
    g.active = 0;
    const double d = 0.5 * (a + s) / dL;
    g.dW[0] = 0.5 - d;
    g.dW[1] = 0.5 + d;
    g.dW_s[0] = -h;
    g.dW_s[1] = h;
  } else if (s > a + dL) {
    g.active = 2;
  } else if (s > a - dL) {
    g.active = 1;
    const double d = 0.5 * (a - s) / dL;
    g.dW[0] = 0.5 + d;
    g.dW[1] = 0.5 - d;
    g.dW_s[0] = -h;
    g.dW_s[1] = h;
  } else {
    g.active = 1;
  }
  return g;
}

Vec3 BeamSlider::moment(const StepContext& c, const Geometry& g) const {
  if (p_.type == Type::Spherical) return Vec3::Zero();
  const double m2 = (*c.y)[first_index() + m2_offset()], m3 = (*c.y)[first_index() + m2_offset() + 1];
  return m2 * g.R_b.col(1).cross(g.l) + m3 * g.R_b.col(2).cross(g.l);
}

void BeamSlider::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;
  // Past an end of the current beam, move on to the next (previous) one if there is one.
  const double s = (*c.y)[first_index()] - 2.0 * current_;
  if (s < -1.0 && current_ > 0) --current_;
  if (s > 1.0 && current_ + 1 < static_cast<int>(p_.beams.size())) ++current_;
  const Geometry g = geometry(c);
  const int i0 = first_index();
  const Vec3 F = lambda3(c, 1);
  r.add(i0, F.dot(g.l) / c.dCoef);
  r.add(i0 + 1, Vec3((g.x_c - g.x) / c.dCoef));
  if (p_.type != Type::Spherical) {
    r.add(i0 + 4, g.R_b.col(1).dot(g.l) / c.dCoef);
    r.add(i0 + 5, g.R_b.col(2).dot(g.l) / c.dCoef);
  }
  const Vec3 M = moment(c, g);
  Vec3 F_res = F;
  if (p_.friction) {
    const Vec3 e = g.l.normalized();
    F_res -= e * p_.friction->residual(r, c, friction_row(), relative_velocity(g).dot(e), F.norm());
  }
  const StructNode& nb = *p_.slider.node;
  r.add(nb.eq_index(), F_res);
  r.add(nb.eq_index() + 3, Vec3(M + g.f_b.cross(F_res)));
  for (int k = 0; k < 2; ++k) {
    if (g.dW[k] == 0.0) continue;
    const StructNode& n = *g.node[g.active + k];
    r.add(n.eq_index(), Vec3(-g.dW[k] * F_res));
    r.add(n.eq_index() + 3, Vec3(-g.dW[k] * (M + (g.x_c - n.x_W()).cross(F_res))));
  }
}

// J = -dr along the update d (positions dCoef d, rotations dth = dCoef d_g, the joint's
// unknowns d), built from the derivatives of the geometric quantities over the local columns.
void BeamSlider::jacobian(JacobianSink& J, const StepContext& c) {
  const int i0 = first_index();
  const int nr = rotation_multipliers();
  const int kM2 = kM + m2_offset() - 4;  // local column of m2
  if (c.initial_assembly) {
    for (int k = 0; k < dof_count(); ++k) J.add(i0 + k, i0 + k, 1.0);
    return;
  }
  const Geometry g = geometry(c);
  const double h = c.dCoef;
  const int nc = kM + nr + (p_.friction ? 1 : 0);  // the friction state last
  using Mat = Eigen::MatrixXd;
  auto zero = [&]() { return Mat(Mat::Zero(3, nc)); };
  // d x_c, d f_b, d e_b2, d e_b3 (slider node); d x_i (beam nodes); d x(s), d l(s).
  Mat D_xc = zero(), D_fb = zero(), D_e2 = zero(), D_e3 = zero(), D_x = zero(), D_l = zero(), D_F = zero();
  std::array<Mat, 3> D_xN{zero(), zero(), zero()};
  D_xc.block<3, 3>(0, 0) = h * Mat3::Identity();
  D_xc.block<3, 3>(0, 3) = -h * skew(g.f_b);
  D_fb.block<3, 3>(0, 3) = -h * skew(g.f_b);
  D_e2.block<3, 3>(0, 3) = -h * skew(g.R_b.col(1));
  D_e3.block<3, 3>(0, 3) = -h * skew(g.R_b.col(2));
  for (int i = 0; i < 3; ++i) {
    const int col = 6 + 6 * i;
    D_xN[i].block<3, 3>(0, col) = h * Mat3::Identity();
    Mat D_xT = zero();
    D_xT.block<3, 3>(0, col) = h * Mat3::Identity();
    D_xT.block<3, 3>(0, col + 3) = -h * skew(g.f_W[i]);
    D_x += g.N[i] * D_xT;
    D_l += g.dN[i] * D_xT;
  }
  D_x.col(kS) += g.l;
  D_l.col(kS) += g.lp;
  D_F.block<3, 3>(0, kF) = Mat3::Identity();
  const Vec3 F = lambda3(c, 1);
  const Vec3 e2 = g.R_b.col(1), e3 = g.R_b.col(2);
  // M = m2 e2 x l + m3 e3 x l.
  const Vec3 M = moment(c, g);
  Mat D_M = zero();
  if (p_.type != Type::Spherical) {
    const double m2 = (*c.y)[i0 + m2_offset()], m3 = (*c.y)[i0 + m2_offset() + 1];
    D_M = m2 * (-skew(g.l) * D_e2 + skew(e2) * D_l) + m3 * (-skew(g.l) * D_e3 + skew(e3) * D_l);
    D_M.col(kM2) += e2.cross(g.l);
    D_M.col(kM2 + 1) += e3.cross(g.l);
  }
  // Local columns -> global unknowns.
  const StructNode& nb = *p_.slider.node;
  std::vector<int> cols(nc);
  for (int k = 0; k < 6; ++k) {
    cols[k] = nb.dof_index() + k;
    for (int i = 0; i < 3; ++i) cols[6 + 6 * i + k] = g.node[i]->dof_index() + k;
  }
  for (int k = 0; k < nc - 24; ++k) cols[24 + k] = i0 + k;
  // The loads act with F_res = F - Q e, e = l / |l| (friction), else F.
  Vec3 F_res = F;
  Mat D_Fres = D_F;
  if (p_.friction) {
    // d v_rel: each point's v + w x f, with d w = (I - dCoef [w_ref x]) d g' and d f = dth x f.
    Mat D_vrel = zero();
    auto add_point = [&](const StructNode& n, int col, const Vec3& f, double w) {
      D_vrel.block<3, 3>(0, col) += w * Mat3::Identity();
      D_vrel.block<3, 3>(0, col + 3) +=
          w * (-skew(f) * (Mat3::Identity() - h * skew(n.w_ref())) - h * skew(n.w_W()) * skew(f));
    };
    add_point(nb, 0, g.f_b, 1.0);
    for (int i = 0; i < 3; ++i) {
      add_point(*g.node[i], 6 + 6 * i, g.f_W[i], -g.N[i]);
      D_vrel.col(kS) -= g.dN[i] * (g.node[i]->v_W() + g.node[i]->w_W().cross(g.f_W[i]));
    }
    const double ln = g.l.norm();
    const Vec3 e = g.l / ln;
    const Mat D_e = (Mat3::Identity() - e * e.transpose()) / ln * D_l;
    const Vec3 v_rel = relative_velocity(g);
    const Mat D_v = e.transpose() * D_vrel + v_rel.transpose() * D_e;
    LinearForm drate, dF_norm;
    for (int b = 0; b < nc; ++b)
      if (D_v(0, b) != 0.0) drate.add(cols[b], D_v(0, b));
    const double Fn = F.norm();
    if (Fn > 0.0) dF_norm.add(i0 + 1, Vec3(F / Fn));
    double Q = 0.0;
    const LinearForm dQ = p_.friction->jacobian(J, c, friction_row(), v_rel.dot(e), drate, Fn, dF_norm, Q);
    Mat D_Q = Mat::Zero(1, nc);
    for (const auto& [col, coef] : dQ.terms)
      for (int b = 0; b < nc; ++b)
        if (cols[b] == col) D_Q(0, b) += coef;
    F_res -= Q * e;
    D_Fres -= e * D_Q + Q * D_e;
  }
  // Rows: slider node (6), beam nodes (18), the constraints.
  Mat dr = Mat::Zero(24 + 4 + nr, nc);
  dr.block(0, 0, 3, nc) = D_Fres;
  dr.block(3, 0, 3, nc) = D_M - skew(F_res) * D_fb + skew(g.f_b) * D_Fres;
  for (int k = 0; k < 2; ++k) {
    if (g.dW[k] == 0.0) continue;
    const int j = g.active + k;
    const Vec3 arm = g.x_c - g.node[j]->x_W();
    Mat dW = Mat::Zero(1, nc);
    dW(0, kS) = g.dW_s[k];
    dr.block(6 + 6 * j, 0, 3, nc) -= g.dW[k] * D_Fres + F_res * dW;
    dr.block(9 + 6 * j, 0, 3, nc) -=
        g.dW[k] * (D_M - skew(F_res) * (D_xc - D_xN[j]) + skew(arm) * D_Fres) + (M + arm.cross(F_res)) * dW;
  }
  dr.row(24) = (g.l.transpose() * D_F + F.transpose() * D_l) / h;
  dr.block(25, 0, 3, nc) = (D_xc - D_x) / h;
  if (p_.type != Type::Spherical) {  // spline: no third rotation equation (row 30), as in MBDyn
    dr.row(28) = (g.l.transpose() * D_e2 + e2.transpose() * D_l) / h;
    dr.row(29) = (g.l.transpose() * D_e3 + e3.transpose() * D_l) / h;
  }
  // Scatter -dr.
  std::vector<int> rows(dr.rows());
  for (int k = 0; k < 6; ++k) {
    rows[k] = nb.eq_index() + k;
    for (int i = 0; i < 3; ++i) rows[6 + 6 * i + k] = g.node[i]->eq_index() + k;
  }
  for (int k = 0; k < 4 + nr; ++k) rows[24 + k] = i0 + k;
  for (int a = 0; a < dr.rows(); ++a)
    for (int b = 0; b < nc; ++b)
      if (dr(a, b) != 0.0) J.add(rows[a], cols[b], -dr(a, b));
}

void BeamSlider::after_convergence(const StepContext& c) {
  const Geometry g = geometry(c);
  s_ref_ = (*c.y)[first_index()];
  l_ = g.l;
  M_ = moment(c, g);
  R_WJ_ = g.R_b;
  F_W_ = lambda3(c, 1);
  M_W_ = g.R_b * M_;
  if (p_.friction) {
    v_slide_ = relative_velocity(g).dot(g.l.normalized());
    p_.friction->after_convergence(c, friction_row(), v_slide_);
  }
}

void BeamSlider::save_step_state() {
  saved_ = step_memory();
  if (p_.friction) p_.friction->save_step_state();
}

void BeamSlider::restore_step_state() {
  step_memory() = saved_;
  if (p_.friction) p_.friction->restore_step_state();
}

void BeamSlider::output_extra(OutputSink& out, std::ostream& os) const {
  // §8.12.4: current beam label, abscissa, tangent.
  os << ' ' << p_.beams[current_].beam->label();
  out.write(os, s_ref_);
  out.write(os, l_);
  if (p_.friction) {
    out.write(os, p_.friction->Q());
    out.write(os, p_.friction->coefficient());
    out.write(os, v_slide_);
  }
}

void BeamSlider::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_beam_ = output::nc_declare(out, base, kNcBeam);
  nc_s_ref_ = output::nc_declare(out, base, kNcSRef);
  nc_l_ = output::nc_declare(out, base, kNcL);
  if (!p_.friction) return;
  nc_FF_ = output::nc_declare(out, base, nc_friction_force);
  nc_fc_ = output::nc_declare(out, base, nc_friction_coefficient);
  nc_v_ = output::nc_declare(out, base, kNcV);
}

void BeamSlider::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_beam_, static_cast<double>(p_.beams[current_].beam->label()));
  out.put(nc_s_ref_, s_ref_);
  out.put(nc_l_, l_);
  if (!p_.friction) return;
  out.put(nc_FF_, p_.friction->Q());
  out.put(nc_fc_, p_.friction->coefficient());
  out.put(nc_v_, v_slide_);
}

// beamslider.cc BeamSliderJoint::DescribeDof (nothing in the initial assembly, where it has no
// unknowns) and DescribeEq: the contact coordinate and the three reactions, the two (classic) or
// three (spline) moment multipliers, then the friction state.
void BeamSlider::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  if (initial) return;
  describe_range(os, prefix, first, 1, "contact local coordinate");
  os << prefix << first + 2 << "->" << first + 4 << ": reaction forces [fx,fy,fz]\n";
  const int m = rotation_multipliers();
  if (m > 0) os << prefix << first + 5 << "->" << first + 4 + m << ": reaction moments " << (m == 2 ? "[my, mz]\n" : "[mx, my, mz]\n");
  if (p_.friction) p_.friction->describe(os, prefix, first + 4 + m, false);
}

void BeamSlider::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  describe_range(os, prefix, first, 1, "reaction force component tangent to the beam");
  os << prefix << first + 2 << "->" << first + 4 << ": contact position along the beam\n";
  const int m = rotation_multipliers();
  if (m > 0) os << prefix << first + 5 << "->" << first + 4 + m << ": orientation constraints\n";
  if (p_.friction) p_.friction->describe(os, prefix, first + 4 + m, true, true);
}

}  // namespace mbl::elements

// ---- reader ------------------------------------------------------------------------------------

#include "elements/joints/friction_input.hpp"
#include "elements/joints/joint_input.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `(Vec3) f [, orientation, R]` in the frame of `node`; `same` (if `previous`) repeats the last
/// node of the previous beam.
void read_beam_point(CardReader& in, const StructNode& node, const BeamSlider::Segment* previous, Vec3& f, Mat3& R) {
  if (previous && in.keyword_is("same")) {
    f = previous->f_N[2];
  } else {
    in.keyword_is("position");
    f = in.position(node.frame());
  }
  if (!in.keyword_is("orientation") && !in.keyword_is("hinge")) return;
  if (previous && in.keyword_is("same")) {
    R = previous->R_N[2];
  } else {
    R = in.orientation(node.frame());
  }
}

// §8.12.4: slider node, offset [, orientation, R] [, type, {spherical|classic|spline}], number of
// beams, each beam with its three offsets (and orientations), [initial beam, initial node,
// smearing, friction].
void read_beam_slider(CardReader& in, BuildContext& ctx, unsigned label) {
  BeamSlider::Params p;
  p.slider.node = &ctx.struct_node(in);
  in.keyword_is("position");
  p.slider.offset_N = in.position(p.slider.node->frame());
  if (in.keyword_is("orientation") || in.keyword_is("hinge")) p.slider.R_NH = in.orientation(p.slider.node->frame());
  const parser::SourceLocation type_at = in.location();
  if (in.keyword_is("type")) {
    if (in.keyword_is("spherical")) {
      p.type = BeamSlider::Type::Spherical;
    } else if (in.keyword_is("classic")) {
      p.type = BeamSlider::Type::Classic;
    } else if (in.keyword_is("spline")) {
      p.type = BeamSlider::Type::Spline;
      in.context().report({type_at, "warning",
                           "beam slider type spline: as in MBDyn 2024, its third rotation multiplier (the moment "
                           "about the sliding line) has no equation, so the Jacobian is singular and the run stops "
                           "in the derivatives phase"});
    } else {
      in.fail_expected("a beam slider type (spherical, classic, spline)");
    }
  }
  const parser::SourceLocation count_at = in.location();
  const long n = in.integer();
  if (n < 1) throw parser::InputError(count_at, "expected a positive number of beams, found " + std::to_string(n));
  for (long k = 0; k < n; ++k) {
    const parser::SourceLocation at = in.location();
    const unsigned beam_label = in.label();
    const auto* beam = dynamic_cast<const Beam*>(ctx.model().find_element("beam", beam_label));
    if (!beam || beam->node_count() != 3)
      throw parser::InputError(at, "expected the label of a defined three-node beam, found " + std::to_string(beam_label));
    BeamSlider::Segment seg;
    seg.beam = beam;
    const BeamSlider::Segment* previous = p.beams.empty() ? nullptr : &p.beams.back();
    for (int i = 0; i < 3; ++i) read_beam_point(in, beam->node(i), i == 0 ? previous : nullptr, seg.f_N[i], seg.R_N[i]);
    p.beams.push_back(seg);
  }
  if (in.keyword_is("initial beam")) {
    const parser::SourceLocation at = in.location();
    const long b = in.integer();
    if (b < 1 || b > n) throw parser::InputError(at, fmt::format("expected an initial beam in 1..{}, found {}", n, b));
    p.initial_beam = static_cast<int>(b - 1);
  }
  if (in.keyword_is("initial node")) {
    const parser::SourceLocation at = in.location();
    const long i = in.integer();
    if (i < 1 || i > 3) throw parser::InputError(at, fmt::format("expected an initial node in 1..3, found {}", i));
    p.initial_node = static_cast<int>(i);
  }
  if (in.keyword_is("smearing")) {
    const parser::SourceLocation at = in.location();
    p.smearing = in.real();
    if (p.smearing < 0.0 || p.smearing > 0.4)
      throw parser::InputError(at, fmt::format("expected a smearing factor in [0, 0.4], found {}", p.smearing));
  }
  if (!read_friction(in, ctx, "beam slider", FrictionRadius::None, p.friction)) return;
  add_joint(in, ctx, std::make_unique<BeamSlider>(label, std::move(p)));
}

const bool registered = CardRegistry::family("joint").add("beam slider", read_beam_slider);

}  // namespace
}  // namespace mbl::elements
