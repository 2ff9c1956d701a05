#include "elements/joints/total_joint.hpp"

#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "elements/joints/deformable_kinematics.hpp"
#include "elements/misc/driven.hpp"
#include "mbdyn-like/core/dof_description.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
void add_total_reaction_residual(ResidualSink& r, const TotalSide& a, const TotalSide& b, const Vec3& lx,
                                 const Vec3& lt) {
  if (a.node) {
    const Vec3 b1 = b.point_W() - a.x_W();
    r.add(a.node->eq_index(), lx);
    r.add(a.node->eq_index() + 3, Vec3(b1.cross(lx) + lt));
  }
  if (b.node) {
    r.add(b.node->eq_index(), Vec3(-lx));
    r.add(b.node->eq_index() + 3, Vec3(-b.f_W().cross(lx) - lt));
  }
}

void add_total_reaction_jacobian(JacobianSink& J, double dC, const TotalSide& a, const TotalSide& b,
                                 const Mat3& R_ah, const Mat3& R_ahr, const std::array<int, 3>& pos_cols,
                                 const std::array<int, 3>& rot_cols, const Vec3& lx, const Vec3& lt) {
  StructNode* na = a.node;
  StructNode* nb = b.node;
  const Vec3 b1 = b.point_W() - a.x_W(), fb_W = b.f_W();
  const Mat3 Lx = skew(lx), Lt = skew(lt), B1 = skew(b1), Fb = skew(fb_W);
  // Columns of the multipliers.
  for (int i = 0; i < 3; ++i) {
    if (pos_cols[i] >= 0) {
      const int col = pos_cols[i];
      const Vec3 e = R_ah.col(i);
      if (na) {
        J.add(na->eq_index(), col, Vec3(-e));
        J.add(na->eq_index() + 3, col, Vec3(-b1.cross(e)));
      }
      if (nb) {
        J.add(nb->eq_index(), col, e);
        J.add(nb->eq_index() + 3, col, Vec3(fb_W.cross(e)));
      }
    }
    if (rot_cols[i] >= 0) {
      const int col = rot_cols[i];
      const Vec3 e = R_ahr.col(i);
      if (na) J.add(na->eq_index() + 3, col, Vec3(-e));
      if (nb) J.add(nb->eq_index() + 3, col, e);
    }
  }
  // Geometric stiffness: the frames and arms rotate with their nodes.
  if (na) {
    const int pa = na->eq_index(), ra = pa + 3, xa = na->dof_index(), ga = xa + 3;
    J.add(pa, ga, Mat3(dC * Lx));
    J.add(ra, xa, Mat3(-dC * Lx));
    J.add(ra, ga, Mat3(dC * (B1 * Lx + Lt)));
    if (nb) {
      J.add(ra, nb->dof_index(), Mat3(dC * Lx));
      J.add(ra, nb->dof_index() + 3, Mat3(-dC * Lx * Fb));
    }
  }
  if (nb) {
    const int pb = nb->eq_index(), rb = pb + 3, gb = nb->dof_index() + 3;
    J.add(rb, gb, Mat3(dC * Lx * Fb));
    if (na) {
      J.add(pb, na->dof_index() + 3, Mat3(-dC * Lx));
      J.add(rb, na->dof_index() + 3, Mat3(-dC * (Fb * Lx + Lt)));
    }
  }
}

TotalJoint::TotalJoint(unsigned label, Params p) : Joint(label), p_(std::move(p)) {
  // A total internal reaction has no multipliers of its own (it applies its equation's).
  if (p_.flavor != Flavor::Reaction) {
    for (int i = 0; i < 3; ++i)
      if (p_.position[i] != Status::Inactive) pos_dof_[i] = n_dofs_++;
    for (int i = 0; i < 3; ++i)
      if (p_.rotation[i] != Status::Inactive) rot_dof_[i] = n_dofs_++;
    const auto n_rot = std::count(p_.rotation.begin(), p_.rotation.end(), Status::Position);
    partial_rotation_ = n_rot > 0 && n_rot < 3;
  }
  R_WJ_ = p_.a.R_h_W();
  R_WJm_ = p_.a.R_hr_W();
  k_ = kinematics();
}

int TotalJoint::initial_dof_count() const {
  switch (p_.flavor) {
    case Flavor::DriveDisplacement:
    case Flavor::DriveDisplacementPin:
    case Flavor::DriveHinge: return 6;
    case Flavor::AxialRotation: return 11;
    default: return 2 * n_dofs_;
  }
}

namespace {

/// "<prefix><a>[-><b>]: <what> [<item>,<item>]" over the components `active` selects, MBDyn's
/// TotalJoint::DescribeDof/DescribeEq lines: from `first` (0-based), "-><end>" when `count` > 1.
/// `numbered` false: the text alone, as TotalPinJoint::DescribeDof writes it for a kind of
/// constraint it does not have (no prefix, no indices, empty brackets).
template <class Item>
void describe_components(std::ostream& os, std::string_view prefix, int first, int count, int end, std::string_view what,
                         const std::array<bool, 3>& active, Item item, bool numbered = true) {
  if (numbered) {
    os << prefix << first + 1;
    if (count > 1) os << "->" << end;
    os << ": ";
  }
  os << what << " [";
  bool comma = false;
  for (int i = 0; i < 3; ++i)
    if (active[i]) {
      if (comma) os << ',';
      comma = true;
      os << item(i);
    }
  os << "]\n";
}

constexpr char kXyz[] = "xyz";

/// MBDyn's TotalJoint bookkeeping: the constrained components (position or velocity), those held
/// in position (whose derivatives the initial assembly adds), and their counts.
struct ActiveComponents {
  std::array<bool, 3> pos_any{}, rot_any{}, pos_held{}, rot_held{};
  int n_pos_any = 0, n_rot_any = 0, n_pos = 0, n_rot = 0;
  ActiveComponents(const std::array<TotalJoint::Status, 3>& position, const std::array<TotalJoint::Status, 3>& rotation) {
    using S = TotalJoint::Status;
    for (int i = 0; i < 3; ++i) {
      pos_any[i] = position[i] != S::Inactive, rot_any[i] = rotation[i] != S::Inactive;
      pos_held[i] = position[i] == S::Position, rot_held[i] = rotation[i] == S::Position;
      n_pos_any += pos_any[i], n_rot_any += rot_any[i], n_pos += pos_held[i], n_rot += rot_held[i];
    }
  }
};

}  // namespace

void TotalJoint::describe_dofs(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  switch (p_.flavor) {
    case Flavor::DriveDisplacement:
    case Flavor::DriveDisplacementPin:  // drvdisp.cc
      describe_range(os, prefix, first, 3, "reaction forces [fx,fy,fz]");
      if (initial) describe_range(os, prefix, first + 3, 3, "reaction force derivatives [fPx,fPy,fPz]");
      return;
    case Flavor::DriveHinge:  // drvhinge.cc
      describe_range(os, prefix, first, 3, "reaction couples [mx,my,mz]");
      if (initial) describe_range(os, prefix, first + 3, 3, "reaction couple derivatives [mPx,mPy,mPz]");
      return;
    case Flavor::AxialRotation:  // planej.cc AxialRotationJoint
      describe_range(os, prefix, first, 3, "reaction forces [Fx,Fy,Fz]");
      describe_range(os, prefix, first + 3, 3, "reaction couples [mx,my,mz]");
      if (initial) {
        describe_range(os, prefix, first + 6, 3, "reaction force derivatives [FPx,FPy,FPz]");
        describe_range(os, prefix, first + 9, 2, "reaction couple derivatives [mPx,mPy]");
      }
      if (p_.friction) p_.friction->describe(os, prefix, first + (initial ? 12 : 6), false);
      return;
    case Flavor::Total:
    case Flavor::ImposedDisplacement:
    case Flavor::Equation:  // totalequation.cc TotalEquation: TotalJoint's text
    case Flavor::TotalPin:
    case Flavor::ImposedDisplacementPin: break;
    default: return;
  }
  const ActiveComponents a(p_.position, p_.rotation);
  const auto& [pos_any, rot_any, pos_held, rot_held, n_pos_any, n_rot_any, n_pos, n_rot] = a;
  auto named = [](const char* s) { return [s](int i) { return std::string(s) + kXyz[i]; }; };
  const int d = first + n_pos_any + n_rot_any;  // the initial assembly's derivatives follow
  // totalj.cc TotalPinJoint::DescribeDof writes each line, numbered only when it has such
  // constraints; TotalJoint and TotalEquation leave out the lines they have none of.
  const bool pin = p_.flavor == Flavor::TotalPin || p_.flavor == Flavor::ImposedDisplacementPin;
  if (pin || n_pos_any > 0)
    describe_components(os, prefix, first, n_pos_any, first + n_pos_any, "reaction force(s)", pos_any, named("F"), n_pos_any > 0);
  if (pin || n_rot_any > 0)
    describe_components(os, prefix, first + n_pos_any, n_rot_any, d, "reaction couple(s)", rot_any, named("m"), n_rot_any > 0);
  if (!initial) return;
  if (pin || n_pos > 0)
    describe_components(os, prefix, d, n_pos, d + n_pos, "reaction force(s) derivative(s)", pos_held, named("FP"), n_pos > 0);
  if (pin || n_rot > 0)
    describe_components(os, prefix, d + n_pos, n_rot, d + n_pos_any + n_rot_any, "reaction couple(s) derivative(s)", rot_held,
                        named("mP"), n_rot > 0);
}

void TotalJoint::describe_equations(std::ostream& os, std::string_view prefix, int first, bool initial) const {
  switch (p_.flavor) {
    case Flavor::DriveDisplacement:
    case Flavor::DriveDisplacementPin:  // drvdisp.cc
      describe_range(os, prefix, first, 3, "position constraints [px1=px2,py1=py2,pz1=pz2]");
      if (initial) describe_range(os, prefix, first + 3, 3, "velocity constraints [vx1=vx2,vy1=vy2,vz1=vz2]");
      return;
    case Flavor::DriveHinge:  // drvhinge.cc
      describe_range(os, prefix, first, 3, "orientation constraints [gx1=gx2,gy1=gy2,gz1=gz2]");
      if (initial) describe_range(os, prefix, first + 3, 3, "angular velocity constraints [wx1=wx2,wy1=wy2,wz1=wz2]");
      return;
    case Flavor::AxialRotation:  // planej.cc AxialRotationJoint (its texts as MBDyn writes them)
      describe_range(os, prefix, first, 3, "position constraints [Px1=Px2,Py1=Py2,Pz1=Pz2]");
      describe_range(os, prefix, first + 3, 2, "orientation constraints [gx1=gx2,gy1=gy2]");
      describe_range(os, prefix, first + 5, 1, "angular velocity constraint wz2-wz1=Omega]");
      if (initial) {
        describe_range(os, prefix, first + 6, 3, "velocity constraints [vx1=vx2,vy1=vy2,vz1=vz2]");
        describe_range(os, prefix, first + 9, 2, "reaction couple derivatives [wx1=wx2,wy1=wy2]");
      }
      if (p_.friction) p_.friction->describe(os, prefix, first + (initial ? 12 : 6), true);
      return;
    case Flavor::Total:
    case Flavor::ImposedDisplacement:
    case Flavor::Equation:
    case Flavor::TotalPin:
    case Flavor::ImposedDisplacementPin: break;
    default: return;
  }
  using S = Status;
  const ActiveComponents a(p_.position, p_.rotation);
  const auto& [pos_any, rot_any, pos_held, rot_held, n_pos_any, n_rot_any, n_pos, n_rot] = a;
  const bool pin = p_.flavor == Flavor::TotalPin || p_.flavor == Flavor::ImposedDisplacementPin;
  // Node 1 against node 2 ("Px1=Px2"); a pin against its fixed point ("Px=Px0", TotalPinJoint);
  // TotalEquation names the rotation "g" where TotalJoint says "theta".
  const auto pair = [pin](const char* a, int i) {
    return pin ? fmt::format("{0}{1}={0}{1}0", a, kXyz[i]) : fmt::format("{0}{1}1={0}{1}2", a, kXyz[i]);
  };
  const char* rotation = p_.flavor == Flavor::Equation ? "g" : "theta";
  const int d = first + n_pos_any + n_rot_any;  // the initial assembly's derivatives follow
  if (n_pos_any > 0)
    describe_components(os, prefix, first, n_pos_any, first + n_pos_any, "position/velocity constraint(s)", pos_any,
                        [&](int i) { return pair(p_.position[i] == S::Position ? "P" : "V", i); });
  if (n_rot_any > 0)
    describe_components(os, prefix, first + n_pos_any, n_rot_any, d, "orientation/angular velocity constraint(s)", rot_any,
                        [&](int i) { return pair(p_.rotation[i] == S::Position ? rotation : "W", i); });
  if (!initial) return;
  // TotalPinJoint::DescribeEq writes "->" on its velocity line even for one constraint.
  if (n_pos > 0)
    describe_components(os, prefix, d, pin ? 2 : n_pos, d + n_pos, "velocity constraint(s)", pos_held,
                        [&](int i) { return pair("v", i); });
  if (n_rot > 0)
    describe_components(os, prefix, d + n_pos, n_rot, d + n_pos_any + n_rot_any, "angular velocity constraint(s)", rot_held,
                        [&](int i) { return pair("w", i); });
}

std::string_view TotalJoint::type_name() const {
  switch (p_.flavor) {
    case Flavor::TotalPin:
    case Flavor::ImposedDisplacementPin: return "Total pin joint";
    // MBDyn's NetCDF types (drvdisp.cc, drvhinge.cc, totalequation.cc, planej.cc)
    case Flavor::DriveDisplacement: return "Drive displacement";
    case Flavor::DriveDisplacementPin: return "Drive displacement pin";
    case Flavor::DriveHinge: return "Drive Hinge";
    case Flavor::Equation: return "Total equation";
    case Flavor::Reaction: return "Total reaction";
    case Flavor::AxialRotation: return "axial rotation";
    default: return "Total joint";
  }
}

TotalJoint::Kinematics TotalJoint::kinematics() const {
  const TotalSide &a = p_.a, &b = p_.b;
  Kinematics k;
  k.R_ah = a.R_h_W();
  k.R_ahr = a.R_hr_W();
  k.fb_W = b.f_W();
  const Vec3 xb_point = b.point_W();
  k.b1 = xb_point - a.x_W();
  k.X = k.R_ah.transpose() * (xb_point - a.point_W());
  k.u_W = b.v_W() + b.w_W().cross(k.fb_W) - a.v_W() - a.w_W().cross(k.b1);
  k.V = k.R_ah.transpose() * k.u_W;
  k.R_rel = k.R_ahr.transpose() * b.R_hr_W();
  k.theta = rot::R_to_rotvec(k.R_rel);
  k.Omega = k.R_ahr.transpose() * (b.w_W() - a.w_W());
  return k;
}

void TotalJoint::setup(Model& m) {
  if (p_.flavor != Flavor::Reaction) return;
  // The equation may be wrapped in `driven` (deck t.invdyn.aero.oneblade-rf).
  const Element* found = m.find_element("joint", p_.equation_label);
  if (const auto* driven = dynamic_cast<const Driven*>(found)) found = &driven->inner();
  const auto* eq = dynamic_cast<const TotalJoint*>(found);
  if (!eq || !eq->is_equation())
    throw parser::InputError(where, fmt::format("total internal reaction {}: expected a total equation, found no "
                                                "total equation {}",
                                                label(), p_.equation_label));
  int active = 0;
  for (int i = 0; i < 3; ++i) active += (p_.position[i] != Status::Inactive) + (p_.rotation[i] != Status::Inactive);
  if (active > eq->n_dofs_)
    throw parser::InputError(where, fmt::format("total internal reaction {}: expected at most {} active components "
                                                "(the multipliers of total equation {}), found {}",
                                                label(), eq->n_dofs_, p_.equation_label, active));
  equation_ = eq;
}

std::array<int, 3> TotalJoint::columns(bool rotation) const {
  std::array<int, 3> cols{-1, -1, -1};
  if (!equation_) {
    const std::array<int, 3>& dofs = rotation ? rot_dof_ : pos_dof_;
    for (int i = 0; i < 3; ++i)
      if (dofs[i] >= 0) cols[i] = first_index() + dofs[i];
    return cols;
  }
  // The equation's multipliers in order, positions first (MBDyn's TotalReaction::AssRes).
  int next = equation_->first_index();
  if (rotation)
    for (Status s : p_.position) next += s != Status::Inactive;
  for (int i = 0; i < 3; ++i)
    if ((rotation ? p_.rotation : p_.position)[i] != Status::Inactive) cols[i] = next++;
  return cols;
}

Vec3 TotalJoint::multipliers(bool rotation, const StepContext& c) const {
  const std::array<int, 3> cols = columns(rotation);
  Vec3 l = Vec3::Zero();
  for (int i = 0; i < 3; ++i)
    if (cols[i] >= 0) l[i] = (*c.y)[cols[i]];
  return l;
}

Vec3 TotalJoint::theta_target(double t) const {
  Vec3 theta = imposed_theta(t);
  if (!partial_rotation_) return theta;
  for (int i = 0; i < 3; ++i)
    if (p_.rotation[i] != Status::Position) theta[i] = 0.0;
  return theta + theta_remnant_;
}

void TotalJoint::residual(ResidualSink& r, const StepContext& c) {
  const Kinematics k = kinematics();
  if (p_.flavor != Flavor::Equation)
    add_total_reaction_residual(r, p_.a, p_.b, k.R_ah * lambda_position(c), k.R_ahr * lambda_rotation(c));
  const Vec3 x0 = imposed_x(c.t), th0 = imposed_theta(c.t);
  const Vec3 theta_d = rot::R_to_rotvec(k.R_rel * rot::rotvec_to_R(theta_target(c.t)).transpose());
  for (int i = 0; i < 3; ++i) {
    if (pos_dof_[i] >= 0)
      r.add(first_index() + pos_dof_[i], p_.position[i] == Status::Position ? (k.X[i] - x0[i]) / c.dCoef
                                                                              : k.V[i] - x0[i]);
    if (rot_dof_[i] >= 0)
      r.add(first_index() + rot_dof_[i], p_.rotation[i] == Status::Position ? theta_d[i] / c.dCoef
                                                                              : k.Omega[i] - th0[i]);
  }
  if (p_.friction) {
    // (w_a - w_b) . e3 r, e3 axis 3 of side a's rotation frame; normal force |F|.
    const Vec3 e3 = k.R_ahr.col(2);
    const double M3 = p_.friction->residual(r, c, first_index() + n_dofs_, (p_.a.w_W() - p_.b.w_W()).dot(e3),
                                            lambda_position(c).norm());
    if (!c.initial_assembly) add_friction_load(r, p_.a.node->eq_index() + 3, p_.b.node->eq_index() + 3, e3, M3);
  }
}

void TotalJoint::jacobian(JacobianSink& J, const StepContext& c) {
  Kinematics k = kinematics();
  if (c.inverse_dynamics) {
    // MBDyn's inverse dynamics linearises the constraints with the frames of side a at the node's
    // reference orientation and the rotation rows without Gamma^-1 (totalj.cc, the
    // inverse-dynamics AssJac): the position subproblem's Newton then follows MBDyn's iterates.
    k.R_ah = p_.a.jac_R_h_W(c);
    k.R_ahr = p_.a.jac_R_hr_W(c);
  }
  const Mat3 I = Mat3::Identity();
  const double dC = c.dCoef;
  StructNode* na = p_.a.node;
  StructNode* nb = p_.b.node;
  const Mat3 B1 = skew(k.b1), Fb = skew(k.fb_W);
  if (p_.flavor != Flavor::Equation)
    add_total_reaction_jacobian(J, dC, p_.a, p_.b, k.R_ah, k.R_ahr, position_columns(), rotation_columns(),
                                k.R_ah * lambda_position(c),
                                k.R_ahr * lambda_rotation(c));

  // Constraint rows.
  const Mat3 RahT = k.R_ah.transpose(), RahrT = k.R_ahr.transpose();
  const Vec3 theta_d = rot::R_to_rotvec(k.R_rel * rot::rotvec_to_R(theta_target(c.t)).transpose());
  // Orientation rows: d theta_d = Gamma^-1(theta_d) psi with dR R^T = psi x (MBDyn takes I at
  // theta_d = 0; the exact form keeps Newton quadratic when inactive components carry a finite
  // rotation).
  const Mat3 Ginv = c.inverse_dynamics ? RahrT : Mat3(rotvec_gamma_inverse(theta_d) * RahrT);
  const Vec3 wa = p_.a.w_W(), wb = p_.b.w_W();
  const Mat3 Wa = skew(wa), Wb = skew(wb);
  const Mat3 Wra = na ? skew(na->w_ref()) : Mat3::Zero();
  const Mat3 Wrb = nb ? skew(nb->w_ref()) : Mat3::Zero();
  for (int i = 0; i < 3; ++i) {
    if (pos_dof_[i] >= 0) {
      const int row = first_index() + pos_dof_[i];
      Eigen::RowVector3d dxa, dga, dxb, dgb;  // -d(row)/d(update) blocks
      if (p_.position[i] == Status::Position) {
        dxa = RahT.row(i);
        dga = -(RahT * B1).row(i);
        dxb = -RahT.row(i);
        dgb = (RahT * Fb).row(i);
      } else {
        dxb = -(RahT * (I - dC * Wa)).row(i);
        dxa = -dxb;
        dgb = -(RahT * (-Fb * (I - dC * Wrb) - dC * Wb * Fb + dC * Wa * Fb)).row(i);
        dga = -(RahT * (B1 * (I - dC * Wra) + dC * skew(k.u_W))).row(i);
      }
      if (na) {
        J.add(row, na->dof_index(), dxa);
        J.add(row, na->dof_index() + 3, dga);
      }
      if (nb) {
        J.add(row, nb->dof_index(), dxb);
        J.add(row, nb->dof_index() + 3, dgb);
      }
    }
    if (rot_dof_[i] >= 0) {
      const int row = first_index() + rot_dof_[i];
      Eigen::RowVector3d dga, dgb;
      if (p_.rotation[i] == Status::Position) {
        dga = Ginv.row(i);
        dgb = -Ginv.row(i);
      } else {
        dga = -(RahrT * (dC * skew(Vec3(wb - wa)) - (I - dC * Wra))).row(i);
        dgb = -(RahrT * (I - dC * Wrb)).row(i);
      }
      if (na) J.add(row, na->dof_index() + 3, dga);
      if (nb) J.add(row, nb->dof_index() + 3, dgb);
    }
  }
  if (p_.friction) {
    const Vec3 e3 = k.R_ahr.col(2);
    const Vec3 F = lambda_position(c);
    const double Fn = F.norm();
    LinearForm dF;
    const std::array<int, 3> cols = position_columns();
    if (Fn > 0.0)
      for (int i = 0; i < 3; ++i)
        if (cols[i] >= 0) dF.add(cols[i], F[i] / Fn);
    double M3 = 0.0;
    const LinearForm dM3 = p_.friction->jacobian(J, c, first_index() + n_dofs_, (wa - wb).dot(e3),
                                                 spin_rate_form(*na, *nb, e3, dC), Fn, dF, M3);
    add_friction_load_jacobian(J, na->eq_index() + 3, nb->eq_index() + 3, e3, M3, dM3, na->dof_index() + 3, dC);
  }
}

bool TotalJoint::constraint_time_derivative(double t, Eigen::Ref<Vector> phi_t) const {
  // Rows (X - x0(t)) / dCoef and theta_d / dCoef, theta_d = ax exp^-1(R_rel exp(-theta0(t) x)):
  // MBDyn's XDeltaPrime -= XDrv.GetP(), ThetaDeltaPrime -= RDelta ThetaDrv.GetP() (RDelta at the
  // drive's value, without the free components' remnant; the drive hinge's ThetaPrime -= GetP()
  // takes no RDelta). Velocity rows are not holonomic.
  const Vec3 x0_t = p_.x0 && p_.x0->has_derivative() ? p_.x0->derivative(t) : Vec3::Zero();
  Vec3 th0_t = Vec3::Zero();
  if (p_.theta0 && p_.theta0->has_derivative()) {
    th0_t = p_.theta0->derivative(t);
    if (p_.flavor != Flavor::DriveHinge)
      th0_t = kinematics().R_rel * rot::rotvec_to_R(imposed_theta(t)).transpose() * th0_t;
  }
  for (int i = 0; i < 3; ++i) {
    if (pos_dof_[i] >= 0 && p_.position[i] == Status::Position) phi_t[pos_dof_[i]] = -x0_t[i];
    if (rot_dof_[i] >= 0 && p_.rotation[i] == Status::Position) phi_t[rot_dof_[i]] = -th0_t[i];
  }
  return true;
}

bool TotalJoint::inverse_dynamics_rates(int order, double t, Eigen::Ref<Vector> rhs) const {
  if (!p_.inverse_dynamics_drives) return false;
  const Kinematics k = kinematics();
  auto value = [t](const drives::TplDriveCallerPtr<Vec3>& d) { return d ? d->value(t) : Vec3::Zero(); };
  // RDelta = R_rel exp(-theta0 x), at the drive's value (MBDyn's R0 = Rot(ThetaDrv.Get())).
  const Mat3 R0 = rot::rotvec_to_R(imposed_theta(t));
  const Mat3 R_delta = k.R_rel * R0.transpose();
  const Vec3 omega0 = value(p_.omega0);
  Vec3 pos, rot;
  if (order == 1) {
    // Phi = X - x0, theta_d: their rates at fixed nodes are -x0', -RDelta omega0.
    pos = -value(p_.x0_p);
    rot = -(R_delta * omega0);
  } else {
    // d2/dt2 of X = R_ah^T d (d = x_b + f_b - x_a) with no acceleration: R_ah^T (w_b x w_b x f_b
    // - 2 w_a x d' + w_a x w_a x d) - x0''; of theta_d: R_ahr^T ((w_b - w_a) x R_bhr R0^T omega0
    // + w_a x w_b) + RDelta omega0', with the sign of the rows (MBDyn's ACCELERATION AssRes).
    const Vec3 wa = p_.a.w_W(), wb = p_.b.w_W();
    const Vec3 d_rate = p_.b.v_W() + wb.cross(k.fb_W) - p_.a.v_W();
    pos = k.R_ah.transpose() * (wb.cross(wb.cross(k.fb_W)) - 2.0 * wa.cross(d_rate) + wa.cross(wa.cross(k.b1))) -
          value(p_.x0_pp);
    const Vec3 w_drive_W = p_.b.R_hr_W() * (R0.transpose() * omega0);
    rot = -(k.R_ahr.transpose() * ((wb - wa).cross(w_drive_W) + wa.cross(wb)) + R_delta * value(p_.omega0_p));
  }
  for (int i = 0; i < 3; ++i) {
    if (pos_dof_[i] >= 0 && p_.position[i] == Status::Position) rhs[pos_dof_[i]] = pos[i];
    if (rot_dof_[i] >= 0 && p_.rotation[i] == Status::Position) rhs[rot_dof_[i]] = rot[i];
  }
  return true;
}

void TotalJoint::after_convergence(const StepContext& c) {
  k_ = kinematics();
  // The private datum keeps counting turns (energy balances integrate "rz"): of the rotation
  // vectors theta + 2 pi k n that give the same orientation, take the closest to the last one.
  const double a = k_.theta.norm();
  if (a > 1e-12) {
    const Vec3 n = k_.theta / a;
    k_.theta += (rot::unwrap_angle(a, theta_converged_.dot(n)) - a) * n;
  }
  theta_converged_ = k_.theta;
  if (partial_rotation_) {
    // The free components of the converged constraint rotation join the target (theta_target).
    Vec3 theta_free = rot::R_to_rotvec(k_.R_rel * rot::rotvec_to_R(theta_target(c.t)).transpose());
    for (int i = 0; i < 3; ++i)
      if (p_.rotation[i] == Status::Position) theta_free[i] = 0.0;
    theta_remnant_ += theta_free;
  }
  x0_ = imposed_x(c.t);
  theta0_ = imposed_theta(c.t);
  // A total equation applies no force itself (its total reaction does).
  const double sign = p_.flavor == Flavor::Equation ? 0.0 : report_sign();
  F_W_ = sign * (k_.R_ah * lambda_position(c));
  M_W_ = sign * (k_.R_ahr * lambda_rotation(c));
  R_WJ_ = k_.R_ah;
  R_WJm_ = k_.R_ahr;
  if (p_.friction) p_.friction->after_convergence(c, first_index() + n_dofs_, (p_.a.w_W() - p_.b.w_W()).dot(k_.R_ahr.col(2)));
}

void TotalJoint::save_step_state() {
  saved_ = step_memory();
  if (p_.friction) p_.friction->save_step_state();
}

void TotalJoint::restore_step_state() {
  step_memory() = saved_;
  if (p_.friction) p_.friction->restore_step_state();
}

void TotalJoint::output_extra(OutputSink& out, std::ostream& os) const {
  switch (p_.flavor) {
    case Flavor::DriveDisplacement:
    case Flavor::DriveDisplacementPin:
      out.write(os, d_W());
      return;
    case Flavor::DriveHinge:
      out.write(os, E_rel_deg());
      out.write(os, theta_written());
      return;
    case Flavor::AxialRotation:
      write_orientation(out, os, k_.R_rel, p_.orientation);
      out.write(os, theta0_[2]);
      out.write(os, k_.Omega);
      if (p_.friction) {
        out.write(os, p_.friction->Q());
        out.write(os, p_.friction->coefficient());
      }
      return;
    default:
      out.write(os, k_.X);
      out.write(os, theta_written());
      out.write(os, k_.V);
      out.write(os, k_.Omega);
  }
}

// Appendix C: X, Phi, V, Omega of the total-joint flavours; d (drive displacement), Theta (drive
// hinge, MBDyn's name for the appendix's Phi), E and Omega (axial rotation), as their .jnt columns.
void TotalJoint::output_setup_extra(OutputSink& out, const std::string& base) {
  namespace nc = output::nc;
  switch (p_.flavor) {
    case Flavor::DriveDisplacement: nc_X_ = output::nc_declare(out, base, nc::joint_drive_d); return;
    case Flavor::DriveDisplacementPin: nc_X_ = output::nc_declare(out, base, nc::joint_drive_pin_d); return;
    case Flavor::DriveHinge: nc_Phi_ = output::nc_declare(out, base, nc::joint_drive_Theta); return;
    case Flavor::AxialRotation:
      // MBDyn's AxialRotationJoint::OutputPrepare names it "Relative orientation".
      nc_E_ = declare_orientation(out, base, p_.orientation, "Relative orientation");
      nc_Omega_ = output::nc_declare(out, base, nc::joint_Omega);
      return;
    default:
      nc_X_ = output::nc_declare(out, base, nc::joint_X);
      nc_Phi_ = output::nc_declare(out, base, nc::joint_Phi);
      nc_V_ = output::nc_declare(out, base, nc::joint_V);
      nc_Omega_ = output::nc_declare(out, base, nc::joint_Omega);
  }
}

void TotalJoint::output_netcdf_extra(OutputSink& out) const {
  const bool drive_displacement =
      p_.flavor == Flavor::DriveDisplacement || p_.flavor == Flavor::DriveDisplacementPin;
  if (nc_X_ >= 0) out.put(nc_X_, drive_displacement ? d_W() : k_.X);
  if (nc_Phi_ >= 0) out.put(nc_Phi_, theta_written());
  if (nc_E_ >= 0) put_orientation(out, nc_E_, k_.R_rel, p_.orientation);
  if (nc_V_ >= 0) out.put(nc_V_, k_.V);
  if (nc_Omega_ >= 0) out.put(nc_Omega_, k_.Omega);
}

std::string TotalJoint::log_line() const {
  const TotalSide &a = p_.a, &b = p_.b;
  auto flags = [](const std::array<Status, 3>& s, Status which) {
    return fmt::format("{} {} {}", int(s[0] == which), int(s[1] == which), int(s[2] == which));
  };
  auto side = [](const TotalSide& s) {
    return fmt::format("{} {} {}", log_text(s.f), log_text(s.R_h), log_text(s.R_hr));
  };
  switch (p_.flavor) {
    case Flavor::Total:
    case Flavor::ImposedDisplacement:
      return fmt::format("totaljoint: {} {} {} {} {} {} {} {} {}", label(), a.node->label(), side(a),
                         b.node->label(), side(b), flags(p_.position, Status::Position),
                         flags(p_.position, Status::Velocity), flags(p_.rotation, Status::Position),
                         flags(p_.rotation, Status::Velocity));
    case Flavor::TotalPin:
      return fmt::format("totalpinjoint: {} {} {} {} {} {} {} {}", label(), b.node->label(), side(b),
                         side(a), flags(p_.position, Status::Position), flags(p_.position, Status::Velocity),
                         flags(p_.rotation, Status::Position), flags(p_.rotation, Status::Velocity));
    case Flavor::ImposedDisplacementPin:
      // MBDyn writes no status flags for it (t.joints.impdisp.imppin0).
      return fmt::format("totalpinjoint: {} {} {} {}", label(), b.node->label(), side(b), side(a));
    case Flavor::DriveDisplacement:
      return fmt::format("drivedisplacement: {} {} {} {} {}", label(), a.node->label(), log_text(a.f),
                         b.node->label(), log_text(b.f));
    case Flavor::DriveDisplacementPin:
      // Appendix E.2.15 (no reference file): node, offset, then the ground position.
      return fmt::format("drivedisplacementpin: {} {} {} {}", label(), b.node->label(), log_text(b.f),
                         log_text(a.f));
    case Flavor::Equation:
      return fmt::format("totalequation: {} {} {} {} {}", label(), a.node->label(), side(a), b.node->label(), side(b));
    case Flavor::Reaction:
      return fmt::format("totalreaction: {} {} {} {} {} {}", label(), a.node->label(), side(a), b.node->label(),
                         side(b), p_.equation_label);
    case Flavor::AxialRotation:
      return fmt::format("axialrotation: {} {} {} {} {} {} {}", label(), a.node->label(), log_text(a.f),
                         log_text(a.R_hr), b.node->label(), log_text(b.f), log_text(b.R_hr));
    default: return {};
  }
}

// ---- private data ---------------------------------------------------------------------------------
// Every flavour lists MBDyn's names in MBDyn's numbering, each name read from one of the 26
// quantities ("slots") of total_datum(): 1-3 p, 4-6 r, 7-9 F, 10-12 M (joint frames), 13-15 d,
// 16-18 t (imposed), 19-21 v, 22-24 w, 25 d and 26 f along the imposed direction, 27-29 F global.
namespace {
struct TotalDatum {
  PrivateDatum info;
  unsigned slot;
};
using TotalListing = std::vector<TotalDatum>;

void add_slots(TotalListing& l, std::string_view base, const char* meaning, unsigned first_slot) {
  for (unsigned c = 0; c < 3; ++c)
    l.push_back({{fmt::format("{}{}", base, char('x' + c)), meaning}, first_slot + c});
}

/// totalj.cc TotalJoint/TotalPinJoint::iGetPrivDataIdx (TotalEquation uses the same names).
TotalListing total_listing(bool imposed) {
  TotalListing l;
  add_slots(l, "p", "relative position, joint frame of node 1", 1);
  add_slots(l, "r", "relative rotation vector, joint frame", 4);
  add_slots(l, "F", "reaction force, joint frame", 7);
  add_slots(l, "M", "reaction moment, joint frame", 10);
  add_slots(l, "d", "imposed relative position (0 when not driven)", 13);
  add_slots(l, "t", "imposed relative rotation (0 when not driven)", 16);
  add_slots(l, "v", "relative velocity, joint frame", 19);
  add_slots(l, "w", "relative angular velocity, joint frame", 22);
  if (imposed) {  // ours: MBDyn 2024 has no imposed displacement card
    l.push_back({{"d", "imposed displacement along the direction", true}, 25});
    l.push_back({{"f", "reaction force along the direction", true}, 26});
  }
  return l;
}

const TotalListing& listing_of(TotalJoint::Flavor f) {
  using F = TotalJoint::Flavor;
  static const TotalListing total = total_listing(false), imposed = total_listing(true);
  // drvdisp.cc DriveDisplacementJoint: dx..dz the imposed displacement, fx..fz the reaction
  // (global: the .jnt's global columns).
  static const TotalListing drive_displacement = [] {
    TotalListing l;
    add_slots(l, "d", "imposed relative position (the drive's value, node 1's frame)", 13);
    add_slots(l, "f", "reaction force, global frame", 27);
    return l;
  }();
  // drvhinge.cc DriveHingeJoint: rx..rz the imposed rotation, Mx..Mz the reaction moment.
  static const TotalListing drive_hinge = [] {
    TotalListing l;
    add_slots(l, "r", "imposed relative rotation vector", 16);
    add_slots(l, "M", "reaction moment, joint frame", 10);
    return l;
  }();
  // planej.cc AxialRotationJoint: rz, wz (the drive's value), then Fx..Fz (global) and Mx..Mz.
  static const TotalListing axial_rotation = [] {
    TotalListing l;
    l.push_back({{"rz", "relative rotation about the hinge axis"}, 6});
    l.push_back({{"wz", "imposed relative angular velocity (the drive's value)"}, 18});
    add_slots(l, "F", "reaction force, global frame", 27);
    add_slots(l, "M", "reaction moment, joint frame", 10);
    return l;
  }();
  // totalequation.cc TotalReaction: the total joint's names without the angular velocity (21).
  static const TotalListing reaction(total.begin(), total.end() - 3);
  switch (f) {
    case F::Reaction: return reaction;
    case F::DriveDisplacement:
    case F::DriveDisplacementPin: return drive_displacement;
    case F::DriveHinge: return drive_hinge;
    case F::AxialRotation: return axial_rotation;
    case F::ImposedDisplacement:
    case F::ImposedDisplacementPin: return imposed;
    default: return total;
  }
}
}  // namespace

unsigned TotalJoint::private_data_count() const { return static_cast<unsigned>(listing_of(p_.flavor).size()); }

parser::PrivateDataOwner::DatumInfo TotalJoint::private_data_info(unsigned i) const {
  const TotalListing& l = listing_of(p_.flavor);
  return i >= 1 && i <= l.size() ? l[i - 1].info : DatumInfo{};
}

unsigned TotalJoint::private_data_index(std::string_view name) const {
  if (const unsigned i = parser::private_data_index_in_listing(*this, name)) return i;
  if (p_.flavor == Flavor::Total || p_.flavor == Flavor::TotalPin) {
    // Indexed aliases of ours: X[i], Phi[i], f[i], m[i], V[i], Omega[i].
    static const std::pair<const char*, unsigned> alias[] = {{"X", 0}, {"Phi", 3}, {"f", 6},
                                                             {"m", 9}, {"V", 18}, {"Omega", 21}};
    for (const auto& [prefix, first] : alias) {
      const std::string p = std::string(prefix) + "[";
      if (name.size() == p.size() + 2 && name.substr(0, p.size()) == p && name.back() == ']' &&
          name[p.size()] >= '1' && name[p.size()] <= '3')
        return first + unsigned(name[p.size()] - '0');
    }
  }
  return 0;
}

double TotalJoint::private_data(unsigned i) const {
  const TotalListing& l = listing_of(p_.flavor);
  return i >= 1 && i <= l.size() ? total_datum(l[i - 1].slot) : 0.0;
}

double TotalJoint::total_datum(unsigned i) const {
  if (i >= 27 && i <= 29) return F_W_[i - 27];  // the reaction force, global frame
  if (i < 1 || i > 26) return 0.0;
  const unsigned c = (i - 1) % 3;
  switch ((i - 1) / 3) {
    case 0: return k_.X[c];
    case 1: return k_.theta[c];
    case 2: return (R_WJ_.transpose() * F_W_)[c];
    case 3: return (R_WJm_.transpose() * M_W_)[c];
    case 4: return x0_[c];
    case 5: return theta0_[c];
    case 6: return k_.V[c];
    case 7: return k_.Omega[c];
    default: break;
  }
  // Imposed displacement: along the direction.
  if (i == 25) return p_.direction.dot(x0_);
  return p_.direction.dot(R_WJ_.transpose() * F_W_);
}

}  // namespace mbl::elements
