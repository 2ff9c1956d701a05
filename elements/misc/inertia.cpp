#include "elements/misc/inertia.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include "elements/joints/modal/modal_joint.hpp"

#include "mbdyn-like/core/log_text.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <sstream>

#include "elements/bodies/body.hpp"
#include "elements/bodies/variable_mass_body.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {

bool body_mass_properties(const Element& e, MassProperties& out) {
  // A rigid body of mass m, centre of mass offset b_N and inertia J_cm_N (node frame) on `n`.
  auto fill = [&out](const StructNode& n, double m, const Vec3& b_N, const Mat3& J_cm_N) {
    const Vec3 b_W = n.R_WN() * b_N;
    out.m = m;
    out.x_cm = n.x_W() + b_W;
    out.v_cm = n.v_W() + n.w_W().cross(b_W);
    out.w = n.w_W();
    out.J_cm = n.R_WN() * J_cm_N * n.R_WN().transpose();
    return true;
  };
  if (const auto* b = dynamic_cast<const Body*>(&e))
    return fill(b->node(), b->params().mass, b->params().b_N, b->params().J_cm_N);
  if (const auto* b = dynamic_cast<const VariableMassBody*>(&e)) {
    const double t = b->time();
    return fill(b->node(), b->mass(t), b->b_N(t), b->J_cm_N(t));
  }
  // A modal joint's rigid-body invariants (mass, Inv2, Inv7 about the FEM origin).
  if (const auto* j = dynamic_cast<const ModalJoint*>(&e)) {
    const ModalBody& mb = j->body();
    const double m = mb.mass;
    const Vec3 c = m != 0.0 ? Vec3(mb.S / m) : Vec3::Zero();
    const Mat3 J_cm = mb.J + m * skew(c) * skew(c);
    if (const StructNode* n = j->modal_node()) return fill(*n, m, c, J_cm);
    const Vec3 c_W = j->R_WF() * c;
    out = {m, j->x_WF() + c_W, Vec3::Zero(), Vec3::Zero(), j->R_WF() * J_cm * j->R_WF().transpose()};
    return true;
  }
  return false;
}

namespace {
/// Inertia of a point mass m at r from the reference point: m (|r|^2 I - r r^T).
Mat3 transport(double m, const Vec3& r) { return m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose()); }
}  // namespace

InertiaSummary combine(const std::vector<MassProperties>& parts, const Vec3& x_ref) {
  InertiaSummary s;
  Vec3 s_moment = Vec3::Zero();
  for (const MassProperties& p : parts) {
    s.m += p.m;
    s_moment += p.m * p.x_cm;
    s.beta += p.m * p.v_cm;
    s.J_X += p.J_cm + transport(p.m, p.x_cm - x_ref);
  }
  if (s.m != 0.0) {
    s.x_cg = s_moment / s.m;
    s.v_cg = s.beta / s.m;
  }
  for (const MassProperties& p : parts) {
    s.J_cg += p.J_cm + transport(p.m, p.x_cm - s.x_cg);
    s.gamma += p.J_cm * p.w + (p.x_cm - s.x_cg).cross(p.m * p.v_cm);
  }
  // The angular velocity of the equivalent rigid body: Jcg w = gamma.
  Eigen::FullPivLU<Mat3> lu(s.J_cg);
  if (lu.isInvertible()) s.w_cg = lu.solve(s.gamma);
  Eigen::SelfAdjointEigenSolver<Mat3> eig(s.J_cg);
  s.J_p = eig.eigenvalues();
  s.R_p = eig.eigenvectors();
  if (s.R_p.determinant() < 0.0) s.R_p.col(2) *= -1.0;
  return s;
}

Inertia::Inertia(unsigned label, std::vector<const Element*> bodies, Vec3 x_ref, Mat3 R_ref, Log log, bool always)
    : Element(label), bodies_(std::move(bodies)), x_ref_(x_ref), R_ref_(R_ref), log_(log), always_(always) {}

InertiaSummary Inertia::summary() const {
  std::vector<MassProperties> parts;
  for (const Element* e : bodies_) {
    MassProperties p;
    if (body_mass_properties(*e, p)) parts.push_back(p);
  }
  return combine(parts, x_ref_);
}

std::string Inertia::log_line() const {
  if (log_ != Log::Log && log_ != Log::Both) return {};
  const InertiaSummary s = summary();
  auto v = [](const Vec3& x) { return log_text(x); };
  auto m = [](const Mat3& a) { return log_text(a); };
  std::ostringstream os;
  os << "inertia: " << label() << (name.empty() ? "" : " \"" + name + "\"") << '\n'
     << "    mass:        " << fmt::format("{:g}", s.m) << '\n'
     << "    J:           " << m(s.J_X) << '\n'
     << "    Xcg:         " << v(s.x_cg) << '\n'
     << "    Jcg:         " << m(s.J_cg) << '\n'
     << "    Vcg:         " << v(s.v_cg) << '\n'
     << "    Wcg:         " << v(s.w_cg) << '\n'
     << "    Xcg-X:       " << v(s.x_cg - x_ref_) << '\n'
     << "    R^T*(Xcg-X): " << v(R_ref_.transpose() * (s.x_cg - x_ref_)) << '\n'
     << "    J(X):        " << m(s.J_X) << '\n'
     << "    R^T*J(X)*R:  " << m(R_ref_.transpose() * s.J_X * R_ref_) << '\n'
     << "    Rp:          " << m(s.R_p) << '\n'
     << "    Thetap:      " << v(rot::R_to_rotvec(s.R_p)) << '\n'
     << "    Jp:          " << v(s.J_p) << '\n'
     << "    beta:        " << v(s.beta) << '\n'
     << "    gamma:       " << v(s.gamma);
  return os.str();
}

// ---- private data: inertia.cc Inertia (numbering of iGetPrivDataIdx/dGetPrivData) ----------------
namespace {
/// Matrix entries J[r,c] in MBDyn's order: r fastest (index first + r + 3 (c - 1)).
void add_matrix(PrivateDataListing& l, const char* base, const char* meaning) {
  for (int c = 1; c <= 3; ++c)
    for (int r = 1; r <= 3; ++r) add_datum(l, fmt::format("{}[{},{}]", base, r, c), meaning);
}
const PrivateDataListing& inertia_listing() {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_indexed(l, "X", "center of mass, global frame");
    add_indexed(l, "Phi", "rotation vector of the principal axes");
    add_indexed(l, "V", "velocity of the center of mass");
    add_indexed(l, "Omega", "angular velocity");
    add_indexed(l, "JP", "principal moments of inertia");
    add_matrix(l, "J", "inertia tensor about the reference point, reference frame");
    add_datum(l, "m", "mass");
    add_indexed(l, "beta", "momentum");
    add_indexed(l, "gamma", "moment of momentum about the center of mass");
    add_matrix(l, "Jcg", "inertia tensor about the center of mass, global frame");
    return l;
  }();
  return listing;
}
}  // namespace

parser::PrivateDataOwner::DatumInfo Inertia::private_data_info(unsigned i) const {
  return always_ ? listed(inertia_listing(), i) : DatumInfo{};
}

unsigned Inertia::private_data_index(std::string_view name) const {
  if (!always_) return 0;
  if (const unsigned i = parser::private_data_index_in_listing(*this, name)) return i;
  // Ours before MBDyn's names: J[r][c], Jcg[r][c].
  for (const char* base : {"J", "Jcg"})
    for (int r = 1; r <= 3; ++r)
      for (int c = 1; c <= 3; ++c)
        if (name == fmt::format("{}[{}][{}]", base, r, c))
          return parser::private_data_index_in_listing(*this, fmt::format("{}[{},{}]", base, r, c));
  return 0;
}

double Inertia::private_data(unsigned i) const {
  if (!always_ || i < 1 || i > 40) return 0.0;
  const InertiaSummary s = summary();
  const unsigned k = i - 1;
  if (k < 3) return s.x_cg[k];
  if (k < 6) return rot::R_to_rotvec(s.R_p)[k - 3];
  if (k < 9) return s.v_cg[k - 6];
  if (k < 12) return s.w_cg[k - 9];
  if (k < 15) return s.J_p[k - 12];
  if (k < 24) {
    const Mat3 J = R_ref_.transpose() * s.J_X * R_ref_;
    return J((k - 15) % 3, (k - 15) / 3);
  }
  if (k == 24) return s.m;
  if (k < 28) return s.beta[k - 25];
  if (k < 31) return s.gamma[k - 28];
  return s.J_cg((k - 31) % 3, (k - 31) / 3);
}

}  // namespace mbl::elements
