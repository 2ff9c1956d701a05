#include "elements/joints/rod.hpp"

#include <fmt/format.h>

#include "elements/joints/deformable_kinematics.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

std::string Rod::log_line() const {
  // Appendix E: "rod: <label> <node 1> <f1> <node 2> <f2>" (zero offsets for the plain rod).
  return fmt::format("rod: {} {} {} {} {}", label(), a_.node ? a_.node->label() : 0u, log_text(a_.offset_N),
                     b_.node ? b_.node->label() : 0u, log_text(b_.offset_N));
}

Rod::Rod(unsigned label, bool with_offset, const Attachment& a, const Attachment& b, double l0,
         std::unique_ptr<ConstitutiveLaw1D> law)
    : Joint(label), with_offset_(with_offset), a_(a), b_(b), l0_(l0), law_(std::move(law)) {}

Rod::State Rod::state() const {
  State s;
  const StructNode& n1 = *a_.node;
  const StructNode& n2 = *b_.node;
  s.f1 = a_.b_W();
  s.f2 = b_.b_W();
  s.l_vec = n2.x_W() + s.f2 - n1.x_W() - s.f1;
  s.l_dot_vec = n2.v_W() + n2.w_W().cross(s.f2) - n1.v_W() - n1.w_W().cross(s.f1);
  s.l = s.l_vec.norm();
  s.u = s.l > 0.0 ? Vec3(s.l_vec / s.l) : Vec3::UnitX();
  s.l_dot = s.u.dot(s.l_dot_vec);
  return s;
}

void Rod::residual(ResidualSink& r, const StepContext& c) {
  const State s = state();
  law_->update(ConstitutiveLaw1D::VecN(s.l / l0_ - 1.0), ConstitutiveLaw1D::VecN(s.l_dot / l0_), c.t);
  const Vec3 F = law_->force()[0] * s.u;
  const int r1 = a_.node->eq_index(), r2 = b_.node->eq_index();
  r.add(r1, F);
  r.add(r1 + 3, Vec3(s.f1.cross(F)));
  r.add(r2, Vec3(-F));
  r.add(r2 + 3, Vec3(-s.f2.cross(F)));
}

// Technical manual eq. 9.234-9.245, over the node perturbations (deformable_kinematics.hpp).
void Rod::jacobian(JacobianSink& J, const StepContext& c) {
  const State s = state();
  law_->update(ConstitutiveLaw1D::VecN(s.l / l0_ - 1.0), ConstitutiveLaw1D::VecN(s.l_dot / l0_), c.t);
  const double f = law_->force()[0], k = law_->stiffness()(0, 0), cv = law_->damping()(0, 0);
  const Mat3 I = Mat3::Identity();
  const StructNode& n1 = *a_.node;
  const StructNode& n2 = *b_.node;
  auto put = [](Lin3& L, int node, int what, const Mat3& m) { L.block<3, 3>(0, lin_col(node, what)) += m; };
  // l = x2 + f2 - x1 - f1, l' = v2 + w2 x f2 - v1 - w1 x f1
  Lin3 dl = Lin3::Zero(), dl_dot = Lin3::Zero();
  put(dl, 0, kX, -I);
  put(dl, 0, kTh, skew(s.f1));
  put(dl, 1, kX, I);
  put(dl, 1, kTh, -skew(s.f2));
  put(dl_dot, 0, kV, -I);
  put(dl_dot, 0, kW, skew(s.f1));
  put(dl_dot, 0, kTh, Mat3(skew(n1.w_W()) * skew(s.f1)));
  put(dl_dot, 1, kV, I);
  put(dl_dot, 1, kW, -skew(s.f2));
  put(dl_dot, 1, kTh, Mat3(-skew(n2.w_W()) * skew(s.f2)));
  const Mat3 P = (I - s.u * s.u.transpose()) / s.l;
  const Lin3 du = P * dl;
  const Lin1 d_eps = s.u.transpose() * dl / l0_;
  const Lin1 d_eps_dot = (s.l_dot_vec.transpose() * du + s.u.transpose() * dl_dot) / l0_;
  const Lin1 df = k * d_eps + cv * d_eps_dot;
  const Vec3 F = f * s.u;
  const Lin3 dF = s.u * df + f * du;
  Lin3 df1 = Lin3::Zero(), df2 = Lin3::Zero();
  put(df1, 0, kTh, -skew(s.f1));
  put(df2, 1, kTh, -skew(s.f2));
  const StructNode* nodes[2] = {&n1, &n2};
  const int r1 = n1.eq_index(), r2 = n2.eq_index();
  add_lin_jacobian(J, r1, nodes, c, dF);
  add_lin_jacobian(J, r1 + 3, nodes, c, Lin3(skew(s.f1) * dF - skew(F) * df1));
  add_lin_jacobian(J, r2, nodes, c, Lin3(-dF));
  add_lin_jacobian(J, r2 + 3, nodes, c, Lin3(-(skew(s.f2) * dF - skew(F) * df2)));
}

void Rod::after_convergence(const StepContext& c) {
  const State s = state();
  law_->update(ConstitutiveLaw1D::VecN(s.l / l0_ - 1.0), ConstitutiveLaw1D::VecN(s.l_dot / l0_), c.t);
  law_->after_convergence();
  l_ = s.l;
  l_dot_ = s.l_dot;
  u_ = s.u;
  f_ = law_->force()[0];
  F_W_ = f_ * s.u;
  M_W_.setZero();
  R_WJ_ = frame_along(s.u);  // local force (f, 0, 0)
}

void Rod::output_extra(OutputSink& out, std::ostream& os) const {
  // §8.12.42 output: length, axis (unit vector, global), length rate.
  out.write(os, l_);
  out.write(os, u_);
  out.write(os, l_dot_);
  // The law's items (e.g. the shock absorber's p, A, Fe, Fv), as MBDyn's OutputAppend.
  for (int i = 0; i < law_->output_count(); ++i) out.write(os, law_->output_value(i));
}

// Appendix C "Rod": l, lP, v (the .jnt extra columns).
void Rod::output_setup_extra(OutputSink& out, const std::string& base) {
  nc_l_ = output::nc_declare(out, base, output::nc::joint_l);
  nc_lP_ = output::nc_declare(out, base, output::nc::joint_lP);
  nc_v_ = output::nc_declare(out, base, output::nc::joint_v);
  // MBDyn's OutputAppendPrepare(name + "CL"): "<base>.CL.<item>".
  nc_law_.clear();
  for (int i = 0; i < law_->netcdf_output_count(); ++i) {
    const LawOutputItem item = law_->output_item(i);
    nc_law_.push_back(out.declare(base + ".CL." + std::string(item.name), NcShape::Scalar, std::string(item.units),
                                  std::string(item.description)));
  }
}

void Rod::output_netcdf_extra(OutputSink& out) const {
  out.put(nc_l_, l_);
  out.put(nc_lP_, l_dot_);
  out.put(nc_v_, u_);
  for (int i = 0; i < static_cast<int>(nc_law_.size()); ++i) out.put(nc_law_[i], law_->output_value(i));
}

unsigned Rod::private_data_index(std::string_view name) const {
  // "L", "LPrime": MBDyn's obsolete spellings, used by real decks; the rest is the listing.
  if (name == "L") return 2;
  if (name == "LPrime") return 3;
  return parser::private_data_index_in_listing(*this, name);
}

// rodj.cc Rod: F, l, lP, then the law's data after "constitutiveLaw.".
parser::PrivateDataOwner::DatumInfo Rod::private_data_info(unsigned i) const {
  switch (i) {
    case 1: return {"F", "axial force"};
    case 2: return {"l", "length"};
    case 3: return {"lP", "rate of the length"};
  }
  return i > 3 ? law_private_data_info(law_.get(), i - 3) : DatumInfo{};
}

double Rod::private_data(unsigned i) const {
  switch (i) {
    case 1: return f_;
    // Length and rate from the current iterate: element drives read them during the iterations.
    case 2: return state().l;
    case 3: return state().l_dot;
  }
  return law_private_data(law_.get(), i - 3);
}

}  // namespace mbl::elements
