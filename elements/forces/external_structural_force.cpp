#include "elements/forces/external_structural_force.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <istream>
#include <ostream>

#include "mbdyn-like/core/orientation_output.hpp"
#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::elements {

std::size_t ExternalStructuralForce::point_of_label(unsigned label) const {
  return std::size_t(std::find_if(p_.points.begin(), p_.points.end(), [&](const auto& pt) { return pt.label == label; }) -
                     p_.points.begin());
}

namespace {

using Orientation = ExternalStructuralParams::Orientation;

void append(std::vector<char>& buf, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  buf.insert(buf.end(), p, p + n);
}
void append(std::vector<char>& buf, const Vec3& v) { append(buf, v.data(), 3 * sizeof(double)); }

Vec3 vec3_at(const char* at) {
  Vec3 v;
  std::memcpy(v.data(), at, 3 * sizeof(double));
  return v;
}

/// The orientation as exchanged: R (9 values, row by row or column by column), or the rotation
/// vector or the Euler 123 angles in degrees (the core's output numbers).
struct OrientationValues {
  std::array<double, 9> v{};
  std::size_t n = 0;
  const double* begin() const { return v.data(); }
  const double* end() const { return v.data() + n; }
};

OrientationValues orientation_values(const Mat3& R, Orientation o, bool row_major) {
  OrientationValues out;
  if (o == Orientation::None) return out;
  if (o == Orientation::Matrix) {
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) out.v[out.n++] = row_major ? R(a, b) : R(b, a);
    return out;
  }
  const Vec3 t = orientation_numbers(R, o == Orientation::Vector ? OrientationOutput::OrientationVector : OrientationOutput::Euler123);
  for (int k = 0; k < 3; ++k) out.v[out.n++] = t[k];
  return out;
}

void put(std::ostream& os, const Vec3& v) { os << v[0] << ' ' << v[1] << ' ' << v[2]; }

}  // namespace

ExternalStructuralForce::ExternalStructuralForce(unsigned label, ExternalStructuralParams p)
    : ExternalForceElement(label, p.communicator, fmt::format("external structural force {}", label)), p_(std::move(p)),
      force_(p_.points.size(), Vec3::Zero()), moment_(p_.points.size(), Vec3::Zero()) {
  negotiated(negotiation()[0]);  // until a peer says otherwise
}

std::uint32_t ExternalStructuralForce::negotiation_mask() const {
  return MBC_MODAL_NODAL_MASK | MBC_REF_NODE | MBC_ROT_MASK | MBC_LABELS | MBC_ACCELS;  // strext.cc
}

void ExternalStructuralForce::negotiated(std::uint32_t flags) {
  std::uint32_t r = (flags & MBC_REF_NODE_ROT_MASK) >> 4;
  if (r == 0) r = std::uint32_t(p_.orientation);
  if (r == 0) r = MBC_ROT_THETA;
  reference_orientation_ = Orientation(r);
}

std::array<std::uint32_t, 2> ExternalStructuralForce::negotiation() const {
  return {MBC_NODAL | std::uint32_t(p_.orientation) | (p_.reference ? MBC_REF_NODE : 0u) | (p_.labels ? MBC_LABELS : 0u) |
              (p_.accelerations ? MBC_ACCELS : 0u),
          std::uint32_t(p_.points.size())};
}

void append_reference_motion(std::vector<char>& buf, const StructNode& reference, std::uint32_t format, bool labels,
                             bool accelerations) {
  if (labels) {
    const std::uint32_t l[2] = {reference.label(), 0};  // two words: the doubles stay aligned
    append(buf, l, sizeof l);
  }
  const ExternalPointMotion r = external_reference_motion(reference);
  append(buf, r.x);
  const OrientationValues rv = orientation_values(r.R, Orientation(format), false);
  append(buf, rv.v.data(), rv.n * sizeof(double));
  append(buf, r.v);
  append(buf, r.w);
  if (accelerations) {
    append(buf, r.a);
    append(buf, r.wp);
  }
}

std::size_t reference_load_bytes(bool labels) { return (labels ? 2 * sizeof(std::uint32_t) : 0) + 6 * sizeof(double); }

const char* read_reference_loads(const char* at, const StructNode& reference, bool labels, Vec3& F, Vec3& M,
                                 std::string_view who) {
  if (labels) {
    std::uint32_t l[2];
    std::memcpy(l, at, sizeof l);
    at += sizeof l;
    if (l[0] != reference.label())
      throw EvaluationError(fmt::format("{}: the peer sent the reference node's loads as label {}, the reference node "
                                        "is {}", who, l[0], reference.label()));
  }
  F = vec3_at(at);
  M = vec3_at(at + 3 * sizeof(double));
  return at + 6 * sizeof(double);
}

ExternalPointMotion external_reference_motion(const StructNode& r) {
  return {r.x_W(), r.v_W(), r.w_W(), r.xpp_W(), r.wp_W(), r.R_WN()};
}

ExternalPointMotion external_point_motion(const StructNode& n, const Vec3& offset_N, const StructNode* reference) {
  const Vec3 f = n.R_WN() * offset_N;
  const Vec3 x = n.x_W() + f, v = n.v_W() + n.w_W().cross(f);
  const Vec3 a = n.xpp_W() + n.wp_W().cross(f) + n.w_W().cross(n.w_W().cross(f));
  if (!reference) return {x, v, n.w_W(), a, n.wp_W(), n.R_WN()};
  const ExternalPointMotion r = external_reference_motion(*reference);
  const Mat3 RrT = r.R.transpose();
  const Vec3 dx = x - r.x, dv = v - r.v - r.w.cross(dx);
  return {RrT * dx,
          RrT * dv,
          RrT * (n.w_W() - r.w),
          RrT * (a - r.a - r.wp.cross(dx) - r.w.cross(r.w.cross(dx) + 2.0 * dv)),
          RrT * (n.wp_W() - r.wp - r.w.cross(n.w_W())),
          RrT * n.R_WN()};
}

ExternalStructuralForce::Motion ExternalStructuralForce::reference_motion() const {
  return external_reference_motion(*p_.reference);
}

ExternalStructuralForce::Motion ExternalStructuralForce::motion(std::size_t i) const {
  return external_point_motion(*p_.points[i].node, p_.points[i].offset_N, p_.reference);
}

const std::vector<ExternalStructuralForce::Motion>& ExternalStructuralForce::motions() const {
  motions_.resize(p_.points.size());
  for (std::size_t i = 0; i < motions_.size(); ++i) motions_[i] = motion(i);
  return motions_;
}

void ExternalStructuralForce::write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const {
  if (kind == ExternalCommunicator::Kind::Edge) return write_edge_motion(os);
  auto line = [&](unsigned label, const Motion& m) {
    if (p_.labels) os << label << ' ';
    put(os, m.x);
    for (double d : orientation_values(m.R, p_.orientation, true)) os << ' ' << d;
    os << ' ';
    put(os, m.v);
    if (rotations()) os << ' ', put(os, m.w);
    if (p_.accelerations) {
      os << ' ';
      put(os, m.a);
      if (rotations()) os << ' ', put(os, m.wp);
    }
    os << '\n';
  };
  if (p_.reference) {
    os << "# reference node\n";
    line(p_.reference->label(), reference_motion());
  }
  os << "# regular nodes\n";
  for (std::size_t i = 0; i < p_.points.size(); ++i) line(p_.points[i].node->label(), motion(i));
}

void ExternalStructuralForce::write_edge_motion(std::ostream& os) const {
  const std::size_t n = p_.points.size();
  os << "ext_model, N, 0, 0, 3\n*\ngrid_idents, IF, 1, " << n << ", 0\n";
  for (std::size_t i = 0; i < n; ++i) os << (i == 0 ? "" : i % 6 == 0 ? "\n" : " ") << p_.points[i].label;
  os << '\n';
  const std::vector<Motion>& m = motions();
  for (const char* block : {"str_coordinates", "velocity"}) {
    os << block << ", RF, 3, " << n << ", 0\n";
    for (int c = 0; c < 3; ++c) {
      std::vector<double> values;
      for (const Motion& mi : m) values.push_back(block[0] == 's' ? mi.x[c] : mi.v[c]);
      write_edge_values(os, values);
    }
  }
}

void ExternalStructuralForce::append_motion_bytes(std::vector<char>& buf) const {
  const std::size_t n = p_.points.size();
  auto orientation = [&](const Motion& m) {
    const OrientationValues v = orientation_values(m.R, p_.orientation, false);  // R column-major
    append(buf, v.v.data(), v.n * sizeof(double));
  };
  // libmbc's rigid record (mbc_rigid_init); MBDyn's strext.cc writes the points' format and skips
  // omega without rotations: both agree whenever libmbc's peers can read MBDyn's record.
  if (p_.reference)
    append_reference_motion(buf, *p_.reference, std::uint32_t(reference_orientation_), p_.labels, p_.accelerations);
  if (p_.labels) {
    for (const auto& pt : p_.points) {
      const std::uint32_t l = pt.node->label();  // node labels, as MBDyn
      append(buf, &l, sizeof l);
    }
    if (n % 2) buf.insert(buf.end(), sizeof(std::uint32_t), 0);  // padded: the doubles stay aligned
  }
  const std::vector<Motion>& m = motions();
  for (const Motion& mi : m) append(buf, mi.x);
  for (const Motion& mi : m) orientation(mi);
  for (const Motion& mi : m) append(buf, mi.v);
  if (rotations())
    for (const Motion& mi : m) append(buf, mi.w);
  if (p_.accelerations) {
    for (const Motion& mi : m) append(buf, mi.a);
    if (rotations())
      for (const Motion& mi : m) append(buf, mi.wp);
  }
}

std::size_t ExternalStructuralForce::load_bytes() const {
  const std::size_t n = p_.points.size(), per_point = rotations() ? 6 : 3;
  const std::size_t labels = p_.labels ? (n + n % 2) * sizeof(std::uint32_t) : 0;
  // libmbc's rigid record always has the force and the moment.
  const std::size_t reference = p_.reference ? reference_load_bytes(p_.labels) : 0;
  return reference + labels + per_point * n * sizeof(double);
}

void ExternalStructuralForce::read_loads(std::span<const char> record) {
  const std::size_t n = p_.points.size();
  const char* at = record.data();
  if (p_.reference)
    at = read_reference_loads(at, *p_.reference, p_.labels, reference_loads_.F0, reference_loads_.M0, fmt::format("external structural force {}", label()));
  const char* labels = at;
  if (p_.labels) at += (n + n % 2) * sizeof(std::uint32_t);
  const char* forces = at;
  const char* moments = at + 3 * n * sizeof(double);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = k;
    if (!p_.sorted) {  // records come in any order, recognised by their label
      std::uint32_t l;
      std::memcpy(&l, labels + k * sizeof l, sizeof l);
      i = point_of_label(l);
      if (i == n)
        throw EvaluationError(fmt::format("external structural force {}: the peer sent loads for an unknown label {}",
                                          label(), l));
    }
    force_[i] = vec3_at(forces + 3 * k * sizeof(double));
    moment_[i] = rotations() ? vec3_at(moments + 3 * k * sizeof(double)) : Vec3::Zero();
    if (!force_[i].allFinite() || !moment_[i].allFinite())
      require_finite_load(force_[i].allFinite() ? moment_[i].norm() : force_[i].norm(),
                          fmt::format("external structural force {}", label()),
                          fmt::format("load for point {}", p_.points[i].label));
  }
  const Vec3 &F0 = reference_loads_.F0, &M0 = reference_loads_.M0;
  if (!F0.allFinite() || !M0.allFinite())
    require_finite_load(F0.allFinite() ? M0.norm() : F0.norm(), fmt::format("external structural force {}", label()),
                        "load for the reference node");
}

void ExternalStructuralForce::read_loads(std::istream& is, ExternalCommunicator::Kind kind) {
  if (kind == ExternalCommunicator::Kind::Edge) return read_edge_loads(is);
  read_text_loads(is);
}

void ExternalStructuralForce::read_text_loads(std::istream& is) {
  const std::size_t n = p_.points.size();
  auto fail = [&](const std::string& what) {
    throw EvaluationError(fmt::format("external structural force {}: {}", label(), what));
  };
  auto read_vec3 = [&](Vec3& v) { is >> v[0] >> v[1] >> v[2]; };
  if (p_.reference) {
    unsigned l = 0;
    if (p_.labels) is >> l;
    read_vec3(reference_loads_.F0);
    if (rotations()) read_vec3(reference_loads_.M0);
  }
  if (!p_.sorted) {
    std::vector<bool> done(n, false);
    std::size_t count = 0;
    for (;; ++count) {
      unsigned l = 0;
      Vec3 f, m = Vec3::Zero();
      is >> l;
      read_vec3(f);
      if (rotations()) read_vec3(m);
      if (!is) break;
      const std::size_t i = point_of_label(l);
      if (i == n) fail(fmt::format("unknown label {} as record {} of the input file", l, count + 1));
      if (done[i]) fail(fmt::format("label {} given twice in the input file", l));
      done[i] = true;
      force_[i] = f;
      moment_[i] = m;
    }
    if (count != n) fail(fmt::format("{} records in the input file, expected {}", count, n));
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    Vec3 f, m = Vec3::Zero();
    if (p_.labels) {
      unsigned l = 0;
      is >> l;
      if (is && l != p_.points[i].node->label())
        fail(fmt::format("record {} of the input file has label {}, expected {}", i + 1, l, p_.points[i].node->label()));
    }
    read_vec3(f);
    if (rotations()) read_vec3(m);
    if (!is) break;  // as MBDyn: the remaining points keep their loads
    force_[i] = f;
    moment_[i] = m;
  }
}

void ExternalStructuralForce::read_edge_loads(std::istream& is) {
  const std::size_t n = p_.points.size();
  auto fail = [&](const std::string& what) {
    throw EvaluationError(fmt::format("external structural force {}: EDGE data file: {}", label(), what));
  };
  std::vector<std::size_t> point_of;  // the point of each record, from `grid_idents`
  const std::string count = std::to_string(n);
  for (std::string line; std::getline(is, line);) {
    if (line.empty() || line[0] == '*') continue;
    const std::vector<std::string> f = edge_fields(line);
    if (edge_header_is(f, "ext_model", {"N", "0", "0", "2"})) continue;
    if (edge_header_is(f, "grid_idents", {"IF", "1", count, "0"})) {
      point_of.clear();
      for (std::size_t k = 0; k < n; ++k) {
        long id = -1;
        is >> id;
        const std::size_t i = id < 0 ? n : point_of_label(static_cast<unsigned>(id));
        if (!is || i == n) fail(fmt::format("grid_idents: unknown label {}", id));
        if (std::find(point_of.begin(), point_of.end(), i) != point_of.end()) fail(fmt::format("grid_idents: label {} twice", id));
        point_of.push_back(i);
      }
      std::getline(is, line);
      continue;
    }
    if (edge_header_is(f, "force", {"RF", "3", count, "0"})) {
      if (point_of.size() != n) fail("`force` before `grid_idents`");
      for (int c = 0; c < 3; ++c)
        for (std::size_t k = 0; k < n; ++k) is >> force_[point_of[k]][c];
      if (!is) fail("fewer force components than points");
      std::getline(is, line);
      continue;
    }
    fail(fmt::format("unexpected line \"{}\"", line));
  }
}

void ExternalStructuralForce::residual(ResidualSink& r, const StepContext& c) {
  if (!exchange_before_residual(c)) return;
  const Mat3 R_ref = p_.reference ? p_.reference->R_WN() : Mat3::Identity();
  reference_loads_.clear_resultant();
  for (std::size_t i = 0; i < p_.points.size(); ++i) {
    const StructNode& node = *p_.points[i].node;
    const Vec3 f = R_ref * force_[i];
    r.add(node.eq_index(), f);
    Vec3 m = Vec3::Zero();
    if (rotations()) {
      m = R_ref * moment_[i] + (node.R_WN() * p_.points[i].offset_N).cross(f);
      r.add(node.eq_index() + 3, m);
    }
    if (p_.reference) reference_loads_.add(f, m, node.x_W() - p_.reference->x_W());
  }
  if (p_.reference && p_.use_reference_forces) {
    reference_loads_.share(R_ref, p_.rotate_reference_forces);
    r.add(p_.reference->eq_index(), reference_loads_.F1);
    if (rotations()) r.add(p_.reference->eq_index() + 3, reference_loads_.M1);
  }
}

void ExternalStructuralForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Frc)) {
    if (p_.reference) {
      *os << label() << '#' << p_.reference->label();
      for (const Vec3* v : reference_loads_.columns()) out.write(*os, *v);
      *os << '\n';
    }
    for (std::size_t i = 0; i < p_.points.size(); ++i) {
      *os << label() << '@' << p_.points[i].label;
      out.write(*os, force_[i]);
      out.write(*os, moment_[i]);
      *os << '\n';
    }
    if (p_.kinematics_output) {
      using O = ExternalStructuralParams::Orientation;
      const OrientationOutput kind = p_.orientation == O::Matrix   ? OrientationOutput::Matrix
                                     : p_.orientation == O::Vector ? OrientationOutput::OrientationVector
                                                                   : OrientationOutput::Euler123;
      for (std::size_t i = 0; i < p_.points.size(); ++i) {
        const Motion m = motion(i);
        *os << label() << '.' << p_.points[i].label;
        out.write(*os, m.x);
        write_orientation(out, *os, m.R, kind);
        out.write(*os, m.v);
        out.write(*os, m.w);
        *os << '\n';
      }
    }
  }
}

std::string ExternalStructuralForce::log_line() const {
  std::string s = fmt::format("externalstructural: {}", label());
  for (const auto& pt : p_.points) s += fmt::format(" {}", pt.node->label());
  return s;
}

}  // namespace mbl::elements
