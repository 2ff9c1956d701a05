#include "elements/forces/external_structural_mapping.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "elements/forces/external_structural_force.hpp"
#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::elements {

std::size_t ExternalMappingParams::point_count() const {
  std::size_t n = 0;
  for (const NodePoints& np : nodes) n += np.points.size();
  return n;
}

ExternalStructuralMappingForce::ExternalStructuralMappingForce(unsigned label, ExternalMappingParams p)
    : ExternalForceElement(label, p.communicator, fmt::format("external structural mapping force {}", label)),
      p_(std::move(p)) {
  const std::size_t n = p_.point_count(), m = exchanged_points();
  if (p_.labels) {
    if (p_.mapping) exchanged_labels_ = p_.mapped_labels;
    else
      for (const auto& np : p_.nodes)
        for (const auto& pt : np.points) exchanged_labels_.push_back(pt.label);
  }
  x_.assign(3 * n, 0.0);
  xp_.assign(3 * n, 0.0);
  xpp_.assign(p_.accelerations ? 3 * n : 0, 0.0);
  q_.assign(p_.mapping ? 3 * m : 0, 0.0);
  qp_.assign(q_.size(), 0.0);
  qpp_.assign(p_.accelerations ? q_.size() : 0, 0.0);
  f_peer_.assign(3 * m, 0.0);
  f_.assign(3 * n, 0.0);
  f_point_.assign(n, Vec3::Zero());
  F_node_.assign(p_.nodes.size(), Vec3::Zero());
  M_node_.assign(p_.nodes.size(), Vec3::Zero());
}

std::uint32_t ExternalStructuralMappingForce::negotiation_mask() const {
  // strmappingext.cc compares the kind, the reference node, the points' rotation (none), the
  // reference node's rotation, labels and accelerations.
  return MBC_MODAL_NODAL_MASK | MBC_REF_NODE | MBC_ROT_MASK | MBC_REF_NODE_ROT_MASK | MBC_LABELS | MBC_ACCELS;
}

std::array<std::uint32_t, 2> ExternalStructuralMappingForce::negotiation() const {
  return {MBC_NODAL | ((p_.reference_orientation & MBC_ROT_MASK) << 4) | (p_.reference ? MBC_REF_NODE : 0u) |
              (p_.labels ? MBC_LABELS : 0u) | (p_.accelerations ? MBC_ACCELS : 0u),
          std::uint32_t(exchanged_points())};
}

void ExternalStructuralMappingForce::point_motion() const {
  std::size_t k = 0;
  for (const auto& np : p_.nodes) {
    Vec3 normal = Vec3::Zero();  // `membrane`: the unit normal (x1 - x0) x (x3 - x2)
    if (np.membrane[0]) {
      const auto& c = np.membrane;
      normal = (c[1]->x_W() - c[0]->x_W()).cross(c[3]->x_W() - c[2]->x_W());
      normal /= normal.norm();
    }
    for (const auto& pt : np.points) {
      // A membrane point moves with its node (its offset along the normal, no rate of it).
      const Vec3 offset = np.membrane[0] ? Vec3(normal * pt.membrane_h) : pt.offset_N;
      const ExternalPointMotion m = external_point_motion(*np.node, offset, p_.reference);
      for (int c = 0; c < 3; ++c) {
        x_[3 * k + c] = m.x[c];
        xp_[3 * k + c] = m.v[c];
        if (p_.accelerations) xpp_[3 * k + c] = m.a[c];
      }
      ++k;
    }
  }
}

void ExternalStructuralMappingForce::write_motion(std::ostream&, ExternalCommunicator::Kind) const {
  // Socket only (the reader refuses the other communicators, whose records MBDyn leaves empty).
}

void ExternalStructuralMappingForce::read_loads(std::istream&, ExternalCommunicator::Kind) {}

void ExternalStructuralMappingForce::append_motion_bytes(std::vector<char>& buf) const {
  auto append = [&](const void* data, std::size_t bytes) {
    const auto* c = static_cast<const char*>(data);
    buf.insert(buf.end(), c, c + bytes);
  };
  if (p_.reference)
    append_reference_motion(buf, *p_.reference, p_.reference_orientation, p_.labels, p_.accelerations);
  if (p_.labels) {
    append(exchanged_labels_.data(), exchanged_labels_.size() * sizeof(std::uint32_t));
    if (exchanged_labels_.size() % 2) buf.insert(buf.end(), sizeof(std::uint32_t), 0);  // libmbc's padding
  }
  point_motion();
  auto send = [&](const std::vector<double>& ours, std::vector<double>& mapped) {
    if (!p_.mapping) return append(ours.data(), ours.size() * sizeof(double));
    p_.mapping->multiply(ours, mapped);
    append(mapped.data(), mapped.size() * sizeof(double));
  };
  send(x_, q_);
  send(xp_, qp_);
  if (p_.accelerations) send(xpp_, qpp_);
}

std::size_t ExternalStructuralMappingForce::load_bytes() const {
  const std::size_t m = exchanged_points();
  return (p_.reference ? reference_load_bytes(p_.labels) : 0) +
         (p_.labels ? (m + m % 2) * sizeof(std::uint32_t) : 0) + 3 * m * sizeof(double);
}

void ExternalStructuralMappingForce::read_loads(std::span<const char> record) {
  const std::string who = fmt::format("external structural mapping force {}", label());
  const char* at = record.data();
  Vec3 &F0 = reference_loads_.F0, &M0 = reference_loads_.M0;
  if (p_.reference) at = read_reference_loads(at, *p_.reference, p_.labels, F0, M0, who);
  const std::size_t m = exchanged_points();
  if (p_.labels) {
    for (std::size_t k = 0; k < m; ++k) {
      std::uint32_t l;
      std::memcpy(&l, at + k * sizeof l, sizeof l);
      if (l != exchanged_labels_[k])  // in order, as MBDyn checks them
        throw EvaluationError(fmt::format("{}: the peer sent label {} for point {}, expected {}", who, l, k + 1,
                                          exchanged_labels_[k]));
    }
    at += (m + m % 2) * sizeof(std::uint32_t);
  }
  std::memcpy(f_peer_.data(), at, f_peer_.size() * sizeof(double));
  for (std::size_t k = 0; k < f_peer_.size(); ++k)
    if (!std::isfinite(f_peer_[k])) require_finite_load(f_peer_[k], who, fmt::format("force of point {}", k / 3 + 1));
  if (!F0.allFinite() || !M0.allFinite())
    require_finite_load(F0.allFinite() ? M0.norm() : F0.norm(), who, "load for the reference node");
  if (p_.mapping) p_.mapping->multiply_transposed(f_peer_, f_);
  else f_ = f_peer_;
  // The nodes' loads in the configuration of the exchange, as MBDyn's RecvFromFileDes.
  const Mat3 R_ref = p_.reference ? p_.reference->R_WN() : Mat3::Identity();
  std::size_t k = 0;
  for (std::size_t n = 0; n < p_.nodes.size(); ++n) {
    const auto& np = p_.nodes[n];
    F_node_[n].setZero();
    M_node_[n].setZero();
    for (const auto& pt : np.points) {
      const Vec3 f(f_[3 * k], f_[3 * k + 1], f_[3 * k + 2]);
      f_point_[k] = p_.reference ? Vec3(R_ref * f) : f;
      F_node_[n] += f_point_[k];
      if (!np.node->is_displacement()) M_node_[n] += (np.node->R_WN() * pt.offset_N).cross(f_point_[k]);
      ++k;
    }
  }
}

void ExternalStructuralMappingForce::residual(ResidualSink& r, const StepContext& c) {
  if (!exchange_before_residual(c)) return;
  reference_loads_.clear_resultant();
  for (std::size_t n = 0; n < p_.nodes.size(); ++n) {
    const StructNode& node = *p_.nodes[n].node;
    r.add(node.eq_index(), F_node_[n]);
    if (!node.is_displacement()) r.add(node.eq_index() + 3, M_node_[n]);
    if (p_.reference) reference_loads_.add(F_node_[n], M_node_[n], node.x_W() - p_.reference->x_W());
  }
  if (p_.reference && p_.use_reference_forces) {
    reference_loads_.share(p_.reference->R_WN(), p_.rotate_reference_forces);
    r.add(p_.reference->eq_index(), reference_loads_.F1);
    r.add(p_.reference->eq_index() + 3, reference_loads_.M1);
  }
}

void ExternalStructuralMappingForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Frc);
  if (!os) return;
  if (p_.reference) {
    *os << label() << '#' << p_.reference->label();
    for (const Vec3* v : reference_loads_.columns()) out.write(*os, *v);
    *os << '\n';
  }
  for (std::size_t n = 0; n < p_.nodes.size(); ++n) {
    *os << label() << '@' << p_.nodes[n].node->label();
    out.write(*os, F_node_[n]);
    out.write(*os, M_node_[n]);
    *os << '\n';
  }
}

}  // namespace mbl::elements
