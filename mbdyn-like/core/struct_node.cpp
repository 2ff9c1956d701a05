#include "mbdyn-like/core/struct_node.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

#include "mbdyn-like/core/dof_description.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl {

namespace {
constexpr double kRadToDeg = 180.0 / M_PI;
}  // namespace

StructNode::StructNode(unsigned label, Type type, const InitialConditions& ic)
    : Node(label), type_(type), ic_(ic), x_W_(ic.x_W), v_W_(ic.v_W), w_W_(ic.w_W), R_WN_(ic.R_WN),
      x_prev_W_(ic.x_W), v_prev_W_(ic.v_W), w_prev_W_(ic.w_W), R_prev_WN_(ic.R_WN) {
  // Canonical form at t0: g = 0, g' = omega, so the reference carries no angular velocity.
  R_ref_ = ic.R_WN;
  w_ref_.setZero();
}

std::string_view StructNode::type_name() const {
  switch (type_) {
    case Type::Static: return "static";
    case Type::Dynamic: return "dynamic";
    case Type::Modal: return "modal";
    case Type::DummyOffset:
    case Type::DummyRelativeFrame: return "dummy";
    // MBDyn's NetCDF calls displacement-only nodes static or dynamic too.
    case Type::StaticDisplacement: return "static";
    case Type::DynamicDisplacement: return "dynamic";
  }
  return "static";
}

int StructNode::dof_count() const {
  switch (type_) {
    case Type::Dynamic:
    case Type::Modal: return 12;
    case Type::Static:
    case Type::DynamicDisplacement: return 6;
    case Type::StaticDisplacement: return 3;
    default: return 0;
  }
}

// The texts of MBDyn's StructDispNode/StructNode/DynamicStruct*Node/ModalNode DescribeDof and
// DescribeEq (struct/strnode.cc), with their numbering (the displacement node's initial velocity
// equations are numbered from first + 7, as MBDyn writes them).
void StructNode::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  if (is_dummy()) return;
  describe_range(os, prefix, first, 3, "position [px,py,pz]");
  if (is_displacement()) {
    if (initial) describe_range(os, prefix, first + 3, 3, "linear velocity [vx,vy,vz]");
    else if (is_dynamic()) describe_range(os, prefix, first + 3, 3, "momentum [Bx,By,Bz]");
    return;
  }
  describe_range(os, prefix, first + 3, 3, "orientation parameters [gx,gy,gz]");
  if (initial) {
    describe_range(os, prefix, first + 6, 3, "linear velocity [vx,vy,vz]");
    describe_range(os, prefix, first + 9, 3, "angular velocity [wx,wy,wz]");
  } else if (type_ == Type::Dynamic) {
    describe_range(os, prefix, first + 6, 3, "momentum [Bx,By,Bz]");
    describe_range(os, prefix, first + 9, 3, "momenta moment [Gx,Gy,Gz]");
  } else if (type_ == Type::Modal) {
    describe_range(os, prefix, first + 6, 3, "velocity [vx,vy,vz]");
    describe_range(os, prefix, first + 9, 3, "angular velocity [wx,wy,wz]");
  }
}

void StructNode::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  if (is_dummy()) return;
  if (initial) {
    describe_range(os, prefix, first, 3, "position [Px,Py,Pz]");
    if (is_displacement()) {
      describe_range(os, prefix, first + 6, 3, "linear velocity [vx,vy,vz]");
      return;
    }
    describe_range(os, prefix, first + 3, 3, "orientation [gx,gy,gz]");
    describe_range(os, prefix, first + 6, 3, "linear velocity [vx,vy,vz]");
    describe_range(os, prefix, first + 9, 3, "angular velocity [wx,wy,wz]");
    return;
  }
  if (type_ == Type::DynamicDisplacement) describe_range(os, prefix, first, 3, "momentum definition [Bx,By,Bz]");
  if (type_ == Type::Dynamic) {
    describe_range(os, prefix, first, 3, "momentum definition [Bx,By,Bz]");
    describe_range(os, prefix, first + 3, 3, "momenta moment definition [Gx,Gy,Gz]");
  }
  if (type_ == Type::Modal) {
    describe_range(os, prefix, first, 3, "linear velocity definition [vx,vy,vz]");
    describe_range(os, prefix, first + 3, 3, "angular velocity definition [wx,wy,wz]");
  }
  const int eq = first + (has_inertia_block() ? kinematic_dof_count() : 0);
  describe_range(os, prefix, eq, 3, "force equilibrium [Fx,Fy,Fz]");
  if (!is_displacement()) describe_range(os, prefix, eq + 3, 3, "moment equilibrium [Mx,My,Mz]");
}

void StructNode::initial_state(Vector& y, Vector& yp) const {
  if (dof_count() == 0) return;
  const int i = dof_index();
  y.segment<3>(i) = ic_.x_W;
  yp.segment<3>(i) = ic_.v_W;
  if (!is_displacement()) {
    y.segment<3>(i + 3).setZero();  // g relative to the initial orientation
    yp.segment<3>(i + 3) = ic_.w_W;  // g' = omega at g = 0
  }
  if (is_dynamic()) {
    yp.segment<3>(momentum_dof_index()) = initial_beta_dot;
    if (!is_displacement()) yp.segment<3>(momentum_dof_index() + 3) = initial_gamma_dot;
  }
  if (type_ == Type::Modal) {
    y.segment<3>(i + 6) = ic_.v_W;
    y.segment<3>(i + 9) = ic_.w_W;
    yp.segment<6>(i + 6).setZero();
  }
  // Momenta are set by the bodies (Element::initial_state adds m v + w x s, ...).
}

void StructNode::update(const Vector& y, const Vector& yp) {
  if (dof_count() == 0) return;
  const int i = dof_index();
  x_W_ = y.segment<3>(i);
  v_W_ = yp.segment<3>(i);
  if (is_displacement()) {
    if (is_dynamic()) {
      beta_ = y.segment<3>(momentum_dof_index());
      beta_dot_ = yp.segment<3>(momentum_dof_index());
    }
    return;
  }
  g_ = y.segment<3>(i + 3);
  gp_ = yp.segment<3>(i + 3);
  // Seed 000 §3.2: R = R(g) R_ref, omega = G(g) g' + R(g) w_ref.
  const Mat3 R_delta = rot::cgr_to_R(g_);
  R_WN_ = R_delta * R_ref_;
  w_W_ = rot::cgr_G(g_) * gp_ + R_delta * w_ref_;
  if (is_dynamic()) {
    beta_ = y.segment<3>(i + 6);
    gamma_ = y.segment<3>(i + 9);
    beta_dot_ = yp.segment<3>(i + 6);
    gamma_dot_ = yp.segment<3>(i + 9);
  }
  if (type_ == Type::Modal) {
    xpp_W_ = yp.segment<3>(i + 6);
    wp_W_ = yp.segment<3>(i + 9);
  }
}

// MBDyn's automatic structural element (technical manual §8.1.1): the momentum definitions
// beta = sum(m v + w x s), gamma = sum(s x v + J w) get -beta, -gamma here (bodies add the
// rest); the equilibrium gets the inertia force beta' and moment gamma' + v x beta.
void StructNode::residual(ResidualSink& r, const StepContext&) {
  if (!is_dynamic()) return;
  r.add(momentum_eq_index(), -beta_);
  r.add(eq_index(), -beta_dot_);
  if (is_displacement()) return;
  r.add(momentum_eq_index() + 3, -gamma_);
  r.add(eq_index() + 3, Vec3(-gamma_dot_ - v_W_.cross(beta_)));
}

void StructNode::jacobian(JacobianSink& J, const StepContext& c) {
  if (!is_dynamic()) return;
  const Mat3 I = Mat3::Identity();
  const int mom = momentum_dof_index();
  J.add(momentum_eq_index(), mom, c.dCoef * I);
  J.add(eq_index(), mom, I);
  if (is_displacement()) return;
  J.add(momentum_eq_index() + 3, mom + 3, c.dCoef * I);
  J.add(eq_index() + 3, mom + 3, I);
  // d(v x beta) = -beta x dv + v x dbeta
  J.add(eq_index() + 3, dof_index(), Mat3(-skew(beta_)));
  J.add(eq_index() + 3, mom, Mat3(c.dCoef * skew(v_W_)));
}

void StructNode::after_convergence(Vector& y, Vector& yp) {
  x_prev_W_ = x_W_;
  v_prev_W_ = v_W_;
  w_prev_W_ = w_W_;
  R_prev_WN_ = R_WN_;
  if (!rebases()) return;
  if (history_.empty()) {
    own_history_ = std::make_unique<HistoryPoint[]>(kHistoryDepth);
    history_ = {own_history_.get(), std::size_t(kHistoryDepth)};
  }
  const int depth = int(history_.size());
  history_newest_ = (history_newest_ + depth - 1) % depth;
  history_[std::size_t(history_newest_)] = {R_WN_, w_W_};
  history_size_ = std::min(history_size_ + 1, depth);
  ++history_pushes_;
  // Canonical form: the converged orientation becomes the reference (g = 0, g' = omega).
  const int i = dof_index();
  y.segment<3>(i + 3).setZero();
  yp.segment<3>(i + 3) = w_W_;
  R_ref_ = R_WN_;
  w_ref_.setZero();  // omega = G(g) g' with g' = omega in canonical form
  g_.setZero();
  gp_ = w_W_;
}

void StructNode::use_history(std::span<HistoryPoint> ring) {
  const int kept = std::min(history_size_, int(ring.size()));
  for (int j = 0; j < kept; ++j) ring[std::size_t(j)] = history(j);
  history_ = ring;
  own_history_.reset();
  history_newest_ = 0;
  history_size_ = kept;
}

StructNode::Checkpoint StructNode::checkpoint() const {
  return {R_ref_, R_prev_WN_, w_ref_, x_prev_W_, v_prev_W_, w_prev_W_, history_pushes_, history_newest_, history_size_};
}

void StructNode::restore(const Checkpoint& c) {
  R_ref_ = c.R_ref;
  w_ref_ = c.w_ref;
  R_prev_WN_ = c.R_prev_WN;
  x_prev_W_ = c.x_prev_W;
  v_prev_W_ = c.v_prev_W;
  w_prev_W_ = c.w_prev_W;
  // Each point converged since took the slot of the oldest one: those points are gone.
  const long pushed = history_pushes_ - c.history_pushes;
  history_pushes_ = c.history_pushes;
  history_newest_ = c.history_newest;
  history_size_ = int(std::min<long>(c.history_size, std::max<long>(long(history_.size()) - pushed, 0)));
}

void StructNode::rebase_history(int j, Vector& y, Vector& yp) const {
  if (!rebases() || j == 0 || j >= history_size_) return;
  // Seed 000 §3.1: g_{N-1-j} = g(R_{N-1-j} R_{N-1}^T), g' = G(g)^{-1} omega_{N-1-j}.
  const Mat3& R_newest = history(0).R_WN;
  const auto& [R_j, w_j] = history(j);
  const Vec3 g = rot::R_to_cgr(R_j * R_newest.transpose());
  const int i = dof_index();
  y.segment<3>(i + 3) = g;
  yp.segment<3>(i + 3) = rot::cgr_G_inverse(g) * w_j;
}

void StructNode::after_predict(Vector& y, Vector& yp) {
  if (!rebases()) return;
  const int i = dof_index();
  const Vec3 g0 = y.segment<3>(i + 3);
  const Vec3 gp0 = yp.segment<3>(i + 3);
  const Mat3& R_prev = history_size_ == 0 ? R_ref_ : history(0).R_WN;
  // Seed 000 §3.1-3.2: predicted orientation and angular velocity become the reference of the
  // Newton corrections; the incremental parameters restart from zero.
  R_ref_ = rot::cgr_to_R(g0) * R_prev;
  w_ref_ = rot::cgr_G(g0) * gp0;
  y.segment<3>(i + 3).setZero();
  yp.segment<3>(i + 3).setZero();
}

void StructNode::derivatives_update(Vector& y, Vector& yp) const {
  if (dof_count() == 0) return;
  // Configuration and velocities stay as given; momenta keep their update.
  y.segment<3>(dof_index()) = x_W_;
  yp.segment<3>(dof_index()) = ic_.v_W;
  if (is_displacement()) return;
  y.segment<3>(dof_index() + 3) = g_;
  yp.segment<3>(dof_index() + 3) = ic_.w_W;
}

void StructNode::set_kinematics(const Vec3& x, const Mat3& R, const Vec3& v, const Vec3& w) {
  x_W_ = x;
  R_WN_ = R;
  v_W_ = v;
  w_W_ = w;
  R_ref_ = R;
  w_ref_ = w;
}

void StructNode::set_initial(const InitialConditions& ic) {
  ic_ = ic;
  x_W_ = x_prev_W_ = ic.x_W;
  v_W_ = v_prev_W_ = ic.v_W;
  w_W_ = w_prev_W_ = ic.w_W;
  R_WN_ = R_prev_WN_ = ic.R_WN;
  R_ref_ = ic.R_WN;
  w_ref_.setZero();
  g_.setZero();
  gp_ = ic.w_W;
  history_size_ = 0;
}

void StructNode::update_dummy() {
  if (!dummy_base) return;
  const StructNode& b = *dummy_base;
  if (type_ == Type::DummyOffset) {
    // Technical manual (8.27).
    const Vec3 o_W = b.R_WN() * dummy_offset_B;
    x_W_ = b.x_W() + o_W;
    R_WN_ = b.R_WN() * dummy_R_BH;
    v_W_ = b.v_W() + b.w_W().cross(o_W);
    w_W_ = b.w_W();
    xpp_W_ = b.xpp_W() + b.wp_W().cross(o_W) + b.w_W().cross(b.w_W().cross(o_W));
    wp_W_ = b.wp_W();
  } else if (dummy_reference) {
    // Technical manual (8.28): the base node's motion in the frame R_r R_h at x_r + R_r f_h,
    // i.e. x_n = x_r + R_r (f_h + R_h x) (MBDyn subtracts R_h^T f_h).
    const StructNode& r = *dummy_reference;
    const Mat3 RT = dummy_R_BH.transpose() * r.R_WN().transpose();
    const Vec3 d = b.x_W() - r.x_W();
    x_W_ = RT * d - dummy_R_BH.transpose() * dummy_offset_B;
    R_WN_ = RT * b.R_WN();
    v_W_ = RT * (b.v_W() - r.v_W() - r.w_W().cross(d));
    w_W_ = RT * (b.w_W() - r.w_W());
    // Relative acceleration: the Coriolis term 2 w_r x (v_n - v_r) includes 2 w_r x (w_r x d),
    // hence + w_r x (w_r x d) (the centripetal part of the frame's own motion is -w_r x (w_r x d)).
    xpp_W_ = RT * (b.xpp_W() - r.xpp_W() - r.wp_W().cross(d) - 2.0 * r.w_W().cross(b.v_W() - r.v_W()) +
                   r.w_W().cross(r.w_W().cross(d)));
    wp_W_ = RT * (b.wp_W() - r.wp_W() - r.w_W().cross(b.w_W()));
    if (dummy_pivot) {
      // The relative motion placed on the pivot node's frame R_p R_h2 at x_p + R_p f_h2.
      const StructNode& p = *dummy_pivot;
      const Mat3 R2 = p.R_WN() * dummy_R_pivot;
      const Vec3 x_rel_W = p.R_WN() * (dummy_R_pivot * x_W_ + dummy_pivot_offset);
      wp_W_ = p.wp_W() + p.w_W().cross(R2 * w_W_) + R2 * wp_W_;
      xpp_W_ = p.xpp_W() + p.wp_W().cross(x_rel_W) + p.w_W().cross(p.w_W().cross(x_rel_W)) +
               2.0 * p.w_W().cross(R2 * v_W_) + R2 * xpp_W_;
      w_W_ = p.w_W() + R2 * w_W_;
      v_W_ = p.v_W() + p.w_W().cross(x_rel_W) + R2 * v_W_;
      R_WN_ = R2 * R_WN_;
      x_W_ = p.x_W() + x_rel_W;
    }
  }
}

// ---- output ---------------------------------------------------------------------------------

namespace {
Vec3 orientation_angles(const Mat3& R, StructNode::OrientationOutput kind) {
  switch (kind) {
    case StructNode::OrientationOutput::Euler123: return rot::R_to_euler123(R) * kRadToDeg;
    case StructNode::OrientationOutput::Euler313: return rot::R_to_euler313(R) * kRadToDeg;
    case StructNode::OrientationOutput::Euler321: return rot::R_to_euler321(R) * kRadToDeg;
    case StructNode::OrientationOutput::OrientationVector: return rot::R_to_rotvec(R);
    case StructNode::OrientationOutput::Matrix: break;
  }
  return Vec3::Zero();
}
}  // namespace

void StructNode::output_setup(OutputSink& out) {
  if (!out.netcdf() || !output_enabled()) return;
  const std::string base = fmt::format("node.struct.{}", label());
  out.declare_entity(base, std::string(type_name()));
  nc_X_ = out.declare(base + ".X", NcShape::Vec3, "Length", "global position vector (X, Y, Z)");
  switch (orientation_output) {
    case OrientationOutput::Matrix:
      nc_R_ = out.declare(base + ".R", NcShape::Mat3, "-",
                          "global orientation matrix (R11, R21, R31, R12, R22, R32, R13, R23, R33)");
      break;
    case OrientationOutput::OrientationVector:
      nc_R_ = out.declare(base + ".Phi", NcShape::Vec3, "radian",
                          "global orientation vector (Phi_X, Phi_Y, Phi_Z)");
      break;
    default: {
      const char* seq = orientation_output == OrientationOutput::Euler313   ? "313"
                        : orientation_output == OrientationOutput::Euler321 ? "321"
                                                                            : "123";
      nc_R_ = out.declare(base + ".E", NcShape::Vec3, "deg",
                          fmt::format("global orientation Euler angles ({}) (E_X, E_Y, E_Z)", seq));
    }
  }
  nc_XP_ = out.declare(base + ".XP", NcShape::Vec3, "Velocity", "global velocity vector (v_X, v_Y, v_Z)");
  nc_W_ = out.declare(base + ".Omega", NcShape::Vec3, "Angular velocity",
                      "global angular velocity vector (omega_X, omega_Y, omega_Z)");
  if (compute_accelerations) {
    nc_XPP_ = out.declare(base + ".XPP", NcShape::Vec3, "Acceleration",
                          "global acceleration vector (a_X, a_Y, a_Z)");
    nc_WP_ = out.declare(base + ".OmegaP", NcShape::Vec3, "Angular acceleration",
                         "global angular acceleration vector (omegaP_X, omegaP_Y, omegaP_Z)");
  }
}

void StructNode::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Mov)) {
    out.write_label(*os, label());
    out.write(*os, x_W_);
    if (is_displacement()) {
      // Input manual §6.5: the meaningless fields of a 3-dof node are zeros.
      for (int k = 0; k < (orientation_output == OrientationOutput::Matrix ? 9 : 3); ++k) out.write(*os, 0.0);
    } else if (orientation_output == OrientationOutput::Matrix) {
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out.write(*os, R_WN_(r, c));
    } else {
      out.write(*os, orientation_angles(R_WN_, orientation_output));
    }
    out.write(*os, v_W_);
    out.write(*os, w_W_);
    if (compute_accelerations) {
      out.write(*os, xpp_W_);
      out.write(*os, wp_W_);
    }
    *os << '\n';
  }
  if (out.netcdf() && nc_X_ >= 0) {
    out.put(nc_X_, x_W_);
    if (is_displacement() && orientation_output == OrientationOutput::Matrix)
      out.put(nc_R_, Mat3(Mat3::Zero()));
    else if (is_displacement())
      out.put(nc_R_, Vec3(Vec3::Zero()));
    else if (orientation_output == OrientationOutput::Matrix)
      out.put(nc_R_, R_WN_);
    else
      out.put(nc_R_, orientation_angles(R_WN_, orientation_output));
    out.put(nc_XP_, v_W_);
    out.put(nc_W_, w_W_);
    if (nc_XPP_ >= 0) {
      out.put(nc_XPP_, xpp_W_);
      out.put(nc_WP_, wp_W_);
    }
  }
}

// ---- private data (input manual, structural node "Private data") -----------------------------
namespace {
/// MBDyn's names and numbering (strnode.cc StructNode::iGetPrivDataIdx): each name expands to
/// [1], [2], [3] at 1-based indices first + 1 .. first + 3, except "PE" (Euler parameters,
/// [0] .. [3] at 31 .. 34). The `index, n` form of node drives uses these numbers.
struct PrivateVector {
  const char* name;
  unsigned first;
  const char* meaning;
};
constexpr std::array<PrivateVector, 16> kPrivateVectors = {{{"X", 0, "position, global frame"},
                                                            {"x", 3, "position, node frame (R^T X)"},
                                                            {"Phi", 6, "rotation vector"},
                                                            {"XP", 9, "velocity, global frame"},
                                                            {"xP", 12, "velocity, node frame"},
                                                            {"Omega", 15, "angular velocity, global frame"},
                                                            {"omega", 18, "angular velocity, node frame"},
                                                            {"E", 21, "Euler angles 1-2-3 (also E123)"},
                                                            {"E313", 24, "Euler angles 3-1-3"},
                                                            {"E321", 27, "Euler angles 3-2-1"},
                                                            {"PE", 30, "Euler parameters e0, e1, e2, e3"},
                                                            {"XPP", 34, "acceleration, global frame"},
                                                            {"xPP", 37, "acceleration, node frame"},
                                                            {"OmegaP", 40, "angular acceleration, global frame"},
                                                            {"omegaP", 43, "angular acceleration, node frame"},
                                                            {"phi", 46, "rotation vector, node frame"}}};
constexpr unsigned kPrivateCount = 49;

/// Euler parameters (e0, e) of R by the largest of 1 + tr R and 1 - tr R + 2 R_ii, as MBDyn's
/// MatR2EulerParams (matvec3.cc) picks them (ties to the later one), so that the sign agrees.
std::array<double, 4> euler_parameters(const Mat3& R) {
  const double t = R.trace();
  const double T[4] = {1.0 + t, 1.0 - t + 2.0 * R(0, 0), 1.0 - t + 2.0 * R(1, 1), 1.0 - t + 2.0 * R(2, 2)};
  int k = 0;
  for (int i = 1; i <= 3; ++i)
    if (std::fabs(T[i]) >= std::fabs(T[k])) k = i;
  const double ek = 0.5 * std::sqrt(T[k]), d = 4.0 * ek;
  switch (k) {
    case 0: return {ek, (R(2, 1) - R(1, 2)) / d, (R(0, 2) - R(2, 0)) / d, (R(1, 0) - R(0, 1)) / d};
    case 1: return {(R(2, 1) - R(1, 2)) / d, ek, (R(1, 0) + R(0, 1)) / d, (R(2, 0) + R(0, 2)) / d};
    case 2: return {(R(0, 2) - R(2, 0)) / d, (R(0, 1) + R(1, 0)) / d, ek, (R(2, 1) + R(1, 2)) / d};
    default: return {(R(1, 0) - R(0, 1)) / d, (R(0, 2) + R(2, 0)) / d, (R(1, 2) + R(2, 1)) / d, ek};
  }
}
}  // namespace

unsigned StructNode::private_data_count() const { return kPrivateCount; }

parser::PrivateDataOwner::DatumInfo StructNode::private_data_info(unsigned index) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    for (const PrivateVector& v : kPrivateVectors) {
      const bool pe = std::string_view(v.name) == "PE";
      add_indexed(l, v.name, v.meaning, pe ? 4 : 3, pe ? 0 : 1);
    }
    return l;
  }();
  return listed(listing, index);
}

unsigned StructNode::private_data_index(std::string_view name) const {
  const auto lb = name.find('[');
  if (lb == std::string_view::npos || name.back() != ']') return 0;
  std::string_view base = name.substr(0, lb);
  const std::string_view idx = name.substr(lb + 1, name.size() - lb - 2);
  if (idx.size() != 1 || idx[0] < '0' || idx[0] > '3') return 0;
  const unsigned i = static_cast<unsigned>(idx[0] - '0');
  if (base == "E123") base = "E";
  if (base == "PE") return 31 + i;
  if (i == 0) return 0;
  for (const PrivateVector& v : kPrivateVectors)
    if (base == v.name) return v.first + i;
  return 0;
}

double StructNode::private_data(unsigned index) const {
  if (index < 1 || index > kPrivateCount) return 0.0;
  if (index >= 31 && index <= 34) return euler_parameters(R_WN_)[index - 31];
  const unsigned shifted = index > 34 ? index - 1 : index;  // the vectors after PE's four
  const unsigned k = (shifted - 1) / 3, c = (shifted - 1) % 3;
  Vec3 v;
  switch (k) {
    case 0: v = x_W_; break;
    case 1: v = R_WN_.transpose() * x_W_; break;
    case 2: v = rot::R_to_rotvec(R_WN_); break;
    case 3: v = v_W_; break;
    case 4: v = R_WN_.transpose() * v_W_; break;
    case 5: v = w_W_; break;
    case 6: v = R_WN_.transpose() * w_W_; break;
    case 7: v = rot::R_to_euler123(R_WN_); break;
    case 8: v = rot::R_to_euler313(R_WN_); break;
    case 9: v = rot::R_to_euler321(R_WN_); break;
    case 11: v = xpp_W_; break;
    case 12: v = R_WN_.transpose() * xpp_W_; break;
    case 13: v = wp_W_; break;
    case 14: v = R_WN_.transpose() * wp_W_; break;
    default: v = R_WN_.transpose() * rot::R_to_rotvec(R_WN_); break;  // "phi"
  }
  return v[c];
}

}  // namespace mbl

namespace mbl {

// autostr.cc AutomaticStructElem::iGetPrivDataIdx / dGetPrivData.
parser::PrivateDataOwner::DatumInfo AutomaticStructuralData::private_data_info(unsigned index) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_indexed(l, "beta", "momentum, global frame");
    add_indexed(l, "gamma", "momenta moment about the node, global frame");
    add_indexed(l, "betaP", "rate of the momentum");
    add_indexed(l, "gammaP", "rate of the momenta moment");
    return add_datum(l, "KE", "kinetic energy (beta . v + gamma . omega) / 2");
  }();
  return listed(listing, index);
}

double AutomaticStructuralData::private_data(unsigned index) const {
  if (index < 1 || index > 13) return 0.0;
  if (index == 13) return 0.5 * (node_.beta().dot(node_.v_W()) + node_.gamma().dot(node_.w_W()));
  const Vec3* v[] = {&node_.beta(), &node_.gamma(), &node_.beta_dot(), &node_.gamma_dot()};
  return (*v[(index - 1) / 3])[(index - 1) % 3];
}

}  // namespace mbl
