#include "elements/forces/structural_force.hpp"

#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {

StructuralForce::StructuralForce(unsigned label, Kind kind, Frame frame, const Attachment& a,
                                 const Attachment* b_internal, std::function<Vec3(double)> value)
    : Element(label), kind_(kind), frame_(frame), a_(a), value_(std::move(value)) {
  if (b_internal) {
    internal_ = true;
    b_ = *b_internal;
  }
}

std::string_view StructuralForce::type_name() const {
  if (kind_ == Kind::Force)
    return frame_ == Frame::Absolute ? (internal_ ? "internal absolute force" : "absolute force")
                                     : (internal_ ? "internal follower force" : "follower force");
  return frame_ == Frame::Absolute ? (internal_ ? "internal absolute couple" : "absolute couple")
                                   : (internal_ ? "internal follower couple" : "follower couple");
}

std::string StructuralForce::log_line() const {
  // Appendix E.2.26: "structural [internal] {absolute|follower} {force|couple}: <label> <node 1>
  // <arm 1> [<node 2> <arm 2>]", arms in the node frames.
  const char* frame = frame_ == Frame::Absolute ? "absolute" : "follower";
  const char* what = kind_ == Kind::Force ? "force" : "couple";
  std::string line = fmt::format("structural {}{} {}: {} {} {}", internal_ ? "internal " : "", frame, what, label(),
                                 a_.node->label(), log_text(a_.offset_N));
  if (internal_) line += fmt::format(" {} {}", b_.node->label(), log_text(b_.offset_N));
  return line;
}

Vec3 StructuralForce::load_W(double t) const {
  const Vec3 v = value_(t);
  return frame_ == Frame::Absolute ? v : Vec3(a_.node->R_WN() * v);
}

void StructuralForce::residual(ResidualSink& r, const StepContext& c) {
  t_ = c.t;
  const Vec3 L = load_W(c.t);
  // Node a gets +L, node b (internal) gets -L at its own point.
  for (const auto& [att, sign] : {std::pair{&a_, 1.0}, std::pair{&b_, -1.0}}) {
    if (att->grounded() || (sign < 0 && !internal_)) continue;
    if (kind_ == Kind::Force) {
      r.add(att->node->eq_index(), Vec3(sign * L));
      r.add(att->node->eq_index() + 3, Vec3(sign * att->b_W().cross(L)));
    } else {
      r.add(att->node->eq_index() + 3, Vec3(sign * L));
    }
  }
}

void StructuralForce::jacobian(JacobianSink& J, const StepContext& c) {
  // Linearised at the nodes' reference orientations as MBDyn's forces and couples do
  // (jacobian_R_WN).
  const Vec3 v = value_(c.t);
  const Vec3 L = frame_ == Frame::Absolute ? v : Vec3(a_.jac_R_WN(c) * v);
  const int col_ga = a_.node->dof_index() + 3;
  for (const auto& [att, sign] : {std::pair{&a_, 1.0}, std::pair{&b_, -1.0}}) {
    if (att->grounded() || (sign < 0 && !internal_)) continue;
    const StructNode& n = *att->node;
    const Mat3 bx = skew(att->jac_b_W(c));
    // f = -r. Offset rotation: d(b x L)/dth_own = L x b x (for fixed L).
    if (kind_ == Kind::Force)
      J.add(n.eq_index() + 3, n.dof_index() + 3, Mat3(-c.dCoef * sign * skew(L) * bx));
    if (frame_ == Frame::Follower) {
      // L = R_a l: dL = th_a x L = -L x th_a.
      const Mat3 dL = -skew(L);
      if (kind_ == Kind::Force) {
        J.add(n.eq_index(), col_ga, Mat3(-c.dCoef * sign * dL));
        J.add(n.eq_index() + 3, col_ga, Mat3(-c.dCoef * sign * bx * dL));
      } else {
        J.add(n.eq_index() + 3, col_ga, Mat3(-c.dCoef * sign * dL));
      }
    }
  }
}

void StructuralForce::output_setup(OutputSink& out) {
  if (!out.netcdf() || !output_enabled()) return;
  // elem.force.<L> / elem.couple.<L> with MBDyn's type attribute ("absolute", "internal follower").
  const bool force = kind_ == Kind::Force;
  const std::string base = std::string(force ? "elem.force." : "elem.couple.") + std::to_string(label());
  const std::string frame = frame_ == Frame::Absolute ? "absolute" : "follower";
  out.declare_entity(base, internal_ ? "internal " + frame : frame);
  if (force) {
    nc_value_ = output::nc_declare(out, base, output::nc::force_F);
    if (internal_) {
      nc_arm1_ = output::nc_declare(out, base, output::nc::force_Arm1);
      nc_arm2_ = output::nc_declare(out, base, output::nc::force_Arm2);
    } else {
      nc_arm1_ = output::nc_declare(out, base, output::nc::force_Arm);
    }
  } else {
    nc_value_ = output::nc_declare(out, base, output::nc::couple_M);
  }
}

void StructuralForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  // `output relative`: the follower load as given, in node 1's frame.
  const Vec3 L = output_relative ? value_(t_) : load_W(t_);
  if (out.netcdf() && nc_value_ >= 0) {
    out.put(nc_value_, L);
    if (nc_arm1_ >= 0) out.put(nc_arm1_, a_.x_W());
    if (nc_arm2_ >= 0) out.put(nc_arm2_, b_.x_W());
  }
  if (std::ostream* os = out.text(OutputFile::Frc)) {
    out.write_label(*os, label());
    if (kind_ == Kind::Force) {
      *os << ' ' << a_.node->label();
      out.write(*os, L);
      out.write(*os, a_.x_W());
      if (internal_) {
        *os << ' ' << b_.node->label();
        out.write(*os, Vec3(-L));
        out.write(*os, b_.x_W());
      }
    } else {
      *os << ' ' << a_.node->label();
      out.write(*os, L);
      if (internal_) {
        *os << ' ' << b_.node->label();
        out.write(*os, Vec3(-L));
      }
    }
    *os << '\n';
  }
}

}  // namespace mbl::elements
