#include "elements/forces/external_modal_force.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <istream>
#include <ostream>

#include "elements/aero/air_properties.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/step_observer.hpp"

namespace mbl::elements {

namespace {

void put(std::ostream& os, const Vec3& v) { os << v[0] << ' ' << v[1] << ' ' << v[2]; }

}  // namespace

ExternalModalForce::ExternalModalForce(unsigned label, ExternalModalParams p)
    : ExternalForceElement(label, p.communicator, fmt::format("external modal force {}", label)), p_(std::move(p)),
      f_modal_(p_.modal ? std::size_t(modes()) : 0, 0.0) {
  if (!p_.mapping) return;
  const std::size_t n = p_.mapping->nodes.size();
  const StructNode* r = p_.node;
  for (const StructNode* node : p_.mapping->nodes) {  // the input configuration, as MBDyn's constructor
    x0_.push_back(r ? Vec3(r->R_WN().transpose() * (node->x_W() - r->x_W())) : node->x_W());
    R0_.push_back(r ? Mat3(r->R_WN().transpose() * node->R_WN()) : node->R_WN());
  }
  x_.assign(6 * n, 0.0);
  xp_.assign(6 * n, 0.0);
  q_.assign(std::size_t(modes()), 0.0);
  qp_.assign(q_.size(), 0.0);
  f_nodes_.assign(6 * n, 0.0);
  F_node_.assign(n, Vec3::Zero());
  M_node_.assign(n, Vec3::Zero());
}

void ExternalModalForce::setup(Model& m) {
  ExternalForceElement::setup(m);
  // The EDGE rigid-body velocity is relative to the airstream, when there is one (as MBDyn).
  air_ = dynamic_cast<const aero::AirProperties*>(m.find_element("air properties", 1));
}

int ExternalModalForce::modes() const { return p_.joint ? p_.joint->modes() : p_.mapping ? p_.mapping->H.rows() : 0; }
double ExternalModalForce::q(int j) const {
  return p_.mapping ? q_[std::size_t(j)] : (*context_->y)[p_.joint->first_index() + j];
}
double ExternalModalForce::qp(int j) const {
  return p_.mapping ? qp_[std::size_t(j)] : (*context_->y)[p_.joint->first_index() + modes() + j];
}

namespace {

/// MBDyn's MatR2LinParam: the axial vector of the skew part of R.
Vec3 axial(const Mat3& R) {
  return {0.5 * (R(2, 1) - R(1, 2)), 0.5 * (R(0, 2) - R(2, 0)), 0.5 * (R(1, 0) - R(0, 1))};
}

}  // namespace

void ExternalModalForce::map_motion() const {
  if (!p_.mapping || !p_.modal) return;
  const StructNode* r = p_.node;
  // The reference node's motion is that of the rigid part (MBDyn's ModalMappingExt::Send).
  const bool moving = r && p_.rigid;
  const Vec3 X = moving ? r->x_W() : Vec3::Zero(), V = moving ? r->v_W() : Vec3::Zero();
  const Vec3 W = moving ? r->w_W() : Vec3::Zero();
  const Mat3 R = moving ? r->R_WN() : Mat3::Identity();
  for (std::size_t i = 0; i < p_.mapping->nodes.size(); ++i) {
    const StructNode& n = *p_.mapping->nodes[i];
    Vec3 dx, th, v, w;
    if (r) {
      const Vec3 rel = n.x_W() - X;
      dx = R.transpose() * rel - x0_[i];
      th = axial(R.transpose() * (n.R_WN() * R0_[i].transpose()));
      v = R.transpose() * (n.v_W() - V + rel.cross(W));
      w = R.transpose() * (n.w_W() - W);
    } else {
      dx = n.x_W() - x0_[i];
      th = axial(n.R_WN() * R0_[i].transpose());
      v = n.v_W();
      w = n.w_W();
    }
    for (int c = 0; c < 3; ++c) {
      x_[6 * i + c] = dx[c];
      x_[6 * i + 3 + c] = th[c];
      xp_[6 * i + c] = v[c];
      xp_[6 * i + 3 + c] = w[c];
    }
  }
  p_.mapping->H.multiply(x_, q_);
  p_.mapping->H.multiply(xp_, qp_);
}

void ExternalModalForce::map_loads() {
  if (!p_.mapping) return;
  const StructNode* r = p_.node;
  if (p_.modal) p_.mapping->H.multiply_transposed(f_modal_, f_nodes_);
  ReferenceNodeLoads& rl = reference_loads_;
  rl.F0 = F_;
  rl.M0 = M_;
  rl.clear_resultant();
  for (std::size_t i = 0; i < F_node_.size(); ++i) {
    const Vec3 f = Eigen::Map<const Vec3>(&f_nodes_[6 * i]), m = Eigen::Map<const Vec3>(&f_nodes_[6 * i + 3]);
    F_node_[i] = r ? Vec3(r->R_WN() * f) : f;
    M_node_[i] = r ? Vec3(r->R_WN() * m) : m;
    const StructNode* n = p_.mapping->nodes[i];
    if (r && n != r) rl.add(F_node_[i], M_node_[i], n->x_W() - r->x_W());
  }
  // Without `use rigid body forces` the reference node takes nothing (MBDyn leaves F1, M1 zero).
  if (r && p_.mapping->use_reference_forces) rl.share(r->R_WN(), p_.mapping->rotate_reference_forces);
}

void ExternalModalForce::mapped_residual(ResidualSink& r) {
  if (p_.rigid) {
    r.add(p_.node->eq_index(), reference_loads_.F1);
    r.add(p_.node->eq_index() + 3, reference_loads_.M1);
  }
  if (p_.modal)
    for (std::size_t i = 0; i < F_node_.size(); ++i) {
      r.add(p_.mapping->nodes[i]->eq_index(), F_node_[i]);
      r.add(p_.mapping->nodes[i]->eq_index() + 3, M_node_[i]);
    }
}

void ExternalModalForce::mapped_output(OutputSink& out, std::ostream& os) const {
  if (p_.rigid) {
    os << label() << '@' << p_.node->label();
    for (const Vec3* v : reference_loads_.columns()) out.write(os, *v);
    os << '\n';
  }
  if (!p_.modal) return;
  for (std::size_t j = 0; j < f_modal_.size(); ++j) {
    os << label() << '.' << j + 1;
    for (double v : {f_modal_[j], q_[j], qp_[j]}) out.write(os, v);
    os << '\n';
  }
  for (std::size_t i = 0; i < F_node_.size(); ++i) {
    os << label() << '#' << p_.mapping->nodes[i]->label();
    out.write(os, F_node_[i]);
    out.write(os, M_node_[i]);
    for (std::size_t k = 0; k < 6; ++k) out.write(os, x_[6 * i + k]);
    for (std::size_t k = 0; k < 6; ++k) out.write(os, xp_[6 * i + k]);
    os << '\n';
  }
}

std::uint32_t ExternalModalForce::negotiation_mask() const { return MBC_MODAL_NODAL_MASK | MBC_REF_NODE; }  // modalext.cc

std::array<std::uint32_t, 2> ExternalModalForce::negotiation() const {
  return {MBC_MODAL | (p_.rigid ? MBC_REF_NODE : 0u), std::uint32_t(modes())};
}

void ExternalModalForce::write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const {
  map_motion();
  const StructNode* n = p_.node;
  if (kind == ExternalCommunicator::Kind::Edge) {
    if (p_.rigid) {
      Vec3 v = n->v_W();
      if (air_) v -= air_->velocity(n->x_W(), context_->t);
      const Mat3& R = n->R_WN();
      const Vec3 v_N = R.transpose() * v, w_N = R.transpose() * n->w_W();
      os << "* MBDyn to EDGE rigid body dynamics\nbody_dynamics,N,0,0,3\n"
            "* Body linear velocity in body axes\nVRELV,R,1,3,0\n";
      put(os, v_N);
      os << "\n* Body angular velocity in body axes\nVRELM,R,1,3,0\n";
      put(os, w_N);
      os << "\n* Body reference frame cosines (listed by columns)\nOMGMAN,R,3,3,0\n";
      for (int c = 0; c < 3; ++c) os << R(0, c) << ' ' << R(1, c) << ' ' << R(2, c) << '\n';
    } else {
      const int N = modes();
      os << "* MBDyn to EDGE modal dynamics\nmodal_state,N,0,0,2\nmodal_coordinate,R," << N << ",1,0\n";
      for (int j = 0; j < N; ++j) os << (j ? " " : "") << q(j);
      os << "\nmodal_velocity,R," << N << ",1,0\n";
      for (int j = 0; j < N; ++j) os << (j ? " " : "") << qp(j);
      os << '\n';
    }
    return;
  }
  if (p_.rigid) {
    const Mat3& R = n->R_WN();
    put(os, n->x_W());
    os << '\n';
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) os << R(a, b) << (a == 2 && b == 2 ? '\n' : ' ');
    put(os, n->v_W());
    os << '\n';
    put(os, n->w_W());
    os << '\n';
  }
  if (p_.modal)
    for (int j = 0; j < modes(); ++j) os << q(j) << ' ' << qp(j) << '\n';
}

void ExternalModalForce::append_motion_bytes(std::vector<char>& buf) const {
  map_motion();
  auto append = [&](double v) {
    const auto* p = reinterpret_cast<const char*>(&v);
    buf.insert(buf.end(), p, p + sizeof v);
  };
  if (p_.rigid) {
    const StructNode* n = p_.node;
    const Mat3& R = n->R_WN();
    for (int k = 0; k < 3; ++k) append(n->x_W()[k]);
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a) append(R(a, b));  // column-major
    for (int k = 0; k < 3; ++k) append(n->v_W()[k]);
    for (int k = 0; k < 3; ++k) append(n->w_W()[k]);
  }
  if (p_.modal) {
    for (int j = 0; j < modes(); ++j) append(q(j));
    for (int j = 0; j < modes(); ++j) append(qp(j));
  }
}

std::size_t ExternalModalForce::load_bytes() const { return ((p_.rigid ? 6 : 0) + f_modal_.size()) * sizeof(double); }

void ExternalModalForce::read_loads(std::span<const char> record) {
  std::size_t k = 0;
  auto take = [&]() {
    double v;
    std::memcpy(&v, record.data() + sizeof(double) * k++, sizeof v);
    if (!std::isfinite(v))
      require_finite_load(v, fmt::format("external modal force {}", label()), fmt::format("load (value {} of the record)", k));
    return v;
  };
  if (p_.rigid) {
    for (int c = 0; c < 3; ++c) F_[c] = take();
    for (int c = 0; c < 3; ++c) M_[c] = take();
  }
  for (double& f : f_modal_) f = take();
  map_loads();
}

void ExternalModalForce::read_loads(std::istream& is, ExternalCommunicator::Kind kind) {
  if (kind == ExternalCommunicator::Kind::Edge) {
    read_edge_loads(is);
  } else {
    if (p_.rigid) is >> F_[0] >> F_[1] >> F_[2] >> M_[0] >> M_[1] >> M_[2];
    for (double& f : f_modal_) is >> f;
    if (!is) throw EvaluationError(fmt::format("external modal force {}: the input file has too few values", label()));
  }
  map_loads();
}

void ExternalModalForce::read_edge_loads(std::istream& is) {
  auto fail = [&](const std::string& what) {
    throw EvaluationError(fmt::format("external modal force {}: EDGE data file: {}", label(), what));
  };
  const std::string N = std::to_string(f_modal_.size());
  for (std::string line; std::getline(is, line);) {
    if (line.empty() || line[0] == '*') continue;
    const std::vector<std::string> f = edge_fields(line);
    if (p_.rigid && edge_header_is(f, "body_forces", {"R", "1", "6", "0"})) {
      is >> F_[0] >> F_[1] >> F_[2] >> M_[0] >> M_[1] >> M_[2];
    } else if (p_.modal && edge_header_is(f, "modal_force_flow", {"R", N, "1", "0"})) {
      for (double& v : f_modal_) is >> v;
    } else {
      fail(fmt::format("unexpected line \"{}\"", line));
    }
    if (!is) fail(fmt::format("too few values after \"{}\"", line));
    std::getline(is, line);
  }
}

void ExternalModalForce::residual(ResidualSink& r, const StepContext& c) {
  if (!exchange_before_residual(c)) return;
  if (p_.mapping) return mapped_residual(r);
  if (p_.rigid) {
    r.add(p_.node->eq_index(), F_);
    r.add(p_.node->eq_index() + 3, M_);
  }
  for (std::size_t j = 0; j < f_modal_.size(); ++j) r.add(p_.joint->modal_equation(int(j)), f_modal_[j]);
}

void ExternalModalForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  std::ostream* os = out.text(OutputFile::Frc);
  if (!os) return;
  if (p_.mapping) return mapped_output(out, *os);
  if (p_.rigid) {
    *os << label() << '#' << p_.node->label();
    out.write(*os, F_);
    out.write(*os, M_);
    *os << '\n';
  }
  for (std::size_t j = 0; j < f_modal_.size(); ++j) {
    *os << label() << '.' << p_.joint->body().mode_numbers[j];
    out.write(*os, f_modal_[j]);
    *os << '\n';
  }
}

}  // namespace mbl::elements
