#include "elements/forces/external_structural_force.hpp"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "mbdyn-like/core/rotations.hpp"
#include "mbdyn-like/core/step_observer.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::elements {

namespace {

// libmbc/mbc.h
enum : std::uint8_t { ES_REGULAR_DATA = 2, ES_GOTO_NEXT_STEP = 4, ES_ABORT = 5, ES_REGULAR_DATA_AND_GOTO_NEXT_STEP = 6, ES_NEGOTIATION = 7, ES_OK = 8 };
enum : std::uint32_t { MBC_NODAL = 0x0002, MBC_ACCELS = 0x0008, MBC_LABELS = 0x0010 };

void append(std::vector<char>& buf, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  buf.insert(buf.end(), p, p + n);
}
void append(std::vector<char>& buf, const Vec3& v) { append(buf, v.data(), 3 * sizeof(double)); }

}  // namespace

ExternalStructuralForce::ExternalStructuralForce(unsigned label, ExternalStructuralParams p)
    : Element(label), p_(std::move(p)),
      channel_(p_.address, p_.create, fmt::format("external structural force {}", label)),
      force_W_(p_.points.size(), Vec3::Zero()), moment_W_(p_.points.size(), Vec3::Zero()) {}

ExternalStructuralForce::~ExternalStructuralForce() {
  if (!channel_.connected()) return;
  const std::uint8_t u = ES_ABORT;
  try {
    channel_.send(&u, 1);
  } catch (const std::runtime_error&) {
  }
}

std::uint32_t ExternalStructuralForce::negotiation_flags() const {
  return MBC_NODAL | std::uint32_t(p_.orientation) | (p_.labels ? MBC_LABELS : 0u) |
         (p_.accelerations ? MBC_ACCELS : 0u);
}

std::vector<char> ExternalStructuralForce::motion_record() const {
  using O = ExternalStructuralParams::Orientation;
  const std::size_t n = p_.points.size();
  std::vector<char> buf;
  if (p_.labels) {
    std::vector<std::uint32_t> labels(n + n % 2, 0u);  // padded: the doubles stay aligned
    for (std::size_t i = 0; i < n; ++i) labels[i] = p_.points[i].node->label();  // node labels, as MBDyn
    append(buf, labels.data(), labels.size() * sizeof(std::uint32_t));
  }
  // The point: x + R f, moving with v + w x R f (§8.8.10 "offset").
  auto arm = [&](std::size_t i) { return Vec3(p_.points[i].node->R_WN() * p_.points[i].offset_N); };
  for (std::size_t i = 0; i < n; ++i) append(buf, Vec3(p_.points[i].node->x_W() + arm(i)));
  for (std::size_t i = 0; i < n; ++i) {
    const Mat3& R = p_.points[i].node->R_WN();
    switch (p_.orientation) {
      case O::None: break;
      case O::Matrix: append(buf, R.data(), 9 * sizeof(double)); break;  // Eigen: column-major
      case O::Vector: append(buf, rot::R_to_rotvec(R)); break;
      case O::Euler123: append(buf, Vec3(rot::R_to_euler123(R) * (180.0 / M_PI))); break;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const StructNode& node = *p_.points[i].node;
    append(buf, Vec3(node.v_W() + node.w_W().cross(arm(i))));
  }
  if (p_.orientation != O::None)
    for (const auto& pt : p_.points) append(buf, pt.node->w_W());
  if (p_.accelerations) {
    for (std::size_t i = 0; i < n; ++i) {
      const StructNode& node = *p_.points[i].node;
      const Vec3 f = arm(i);
      append(buf, Vec3(node.xpp_W() + node.wp_W().cross(f) + node.w_W().cross(node.w_W().cross(f))));
    }
    if (p_.orientation != O::None)
      for (const auto& pt : p_.points) append(buf, pt.node->wp_W());
  }
  return buf;
}

void ExternalStructuralForce::start() {
  started_ = true;
  std::uint8_t u = 0;
  std::uint32_t request[2] = {0, 0};
  const std::uint32_t n = std::uint32_t(p_.points.size());
  try {
    if (p_.create) {  // MBDyn is the server: the peer asks
      if (!channel_.receive(&u, 1) || u != ES_NEGOTIATION || !channel_.receive(request, sizeof request))
        throw EvaluationError(fmt::format("external structural force {}: no negotiation request from the peer", label()));
      const bool ok = request[0] == negotiation_flags() && request[1] == n;
      const std::uint8_t answer = ok ? ES_OK : ES_ABORT;
      channel_.send(&answer, 1);
      if (!ok)
        throw EvaluationError(fmt::format("external structural force {}: the peer asks for flags {:#x} and {} points, "
                                          "the card has {:#x} and {}", label(), request[0], request[1],
                                          negotiation_flags(), n));
    } else {  // MBDyn is the client: it asks
      u = ES_NEGOTIATION;
      request[0] = negotiation_flags();
      request[1] = n;
      if (!channel_.send(&u, 1) || !channel_.send(request, sizeof request) || !channel_.receive(&u, 1) || u != ES_OK)
        throw EvaluationError(fmt::format("external structural force {}: the peer refused the negotiation", label()));
    }
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const EvaluationError*>(&e)) throw;
    throw EvaluationError(e.what());
  }
}

void ExternalStructuralForce::send_motion() {
  std::vector<char> buf{char(ES_REGULAR_DATA)};
  const std::vector<char> record = motion_record();
  buf.insert(buf.end(), record.begin(), record.end());
  if (!channel_.send(buf.data(), buf.size())) exchanging_ = false;
  motion_sent_ = true;
}

void ExternalStructuralForce::receive_forces() {
  motion_sent_ = false;
  std::uint8_t u = 0;
  if (!channel_.receive(&u, 1)) {
    exchanging_ = false;
    return;
  }
  if (u == ES_GOTO_NEXT_STEP) {  // the peer converged: the last forces stay
    exchanging_ = false;
    return;
  }
  if (u == ES_ABORT) {
    exchanging_ = false;
    throw math::StopRequest(0, fmt::format("external structural force {}: the peer ended the simulation", label()));
  }
  if (u != ES_REGULAR_DATA && u != ES_REGULAR_DATA_AND_GOTO_NEXT_STEP)
    throw EvaluationError(fmt::format("external structural force {}: unknown command {} from the peer", label(), unsigned(u)));
  const std::size_t n = p_.points.size();
  const bool moments = p_.orientation != ExternalStructuralParams::Orientation::None;
  std::vector<std::uint32_t> labels(p_.labels ? n + n % 2 : 0);
  std::vector<double> f(3 * n), m(moments ? 3 * n : 0);
  if (!channel_.receive(labels.data(), labels.size() * sizeof(std::uint32_t)) ||
      !channel_.receive(f.data(), f.size() * sizeof(double)) || !channel_.receive(m.data(), m.size() * sizeof(double))) {
    exchanging_ = false;
    return;
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = k;
    if (!p_.sorted) {  // records come in any order, recognised by their label
      i = n;
      for (std::size_t j = 0; j < n; ++j)
        if (p_.points[j].label == labels[k]) i = j;
      if (i == n)
        throw EvaluationError(fmt::format("external structural force {}: the peer sent forces for an unknown label {}",
                                          label(), labels[k]));
    }
    force_W_[i] = Vec3(f[3 * k], f[3 * k + 1], f[3 * k + 2]);
    moment_W_[i] = moments ? Vec3(m[3 * k], m[3 * k + 1], m[3 * k + 2]) : Vec3::Zero();
  }
  if (u == ES_REGULAR_DATA_AND_GOTO_NEXT_STEP) exchanging_ = false;
}

void ExternalStructuralForce::after_predict(const StepContext&) {
  if (!started_) start();
  exchanging_ = true;
  motion_sent_ = false;
  if (p_.send_after_predict) send_motion();
}

void ExternalStructuralForce::residual(ResidualSink& r, const StepContext& c) {
  if (exchanging_ && !c.initial_assembly) {
    if (!motion_sent_) send_motion();  // the motion after the last Newton update
    if (exchanging_) receive_forces();
  }
  for (std::size_t i = 0; i < p_.points.size(); ++i) {
    const StructNode& node = *p_.points[i].node;
    const Vec3 arm_W = node.R_WN() * p_.points[i].offset_N;
    r.add(node.eq_index(), force_W_[i]);
    if (node.kinematic_dof_count() == 6) r.add(node.eq_index() + 3, Vec3(moment_W_[i] + arm_W.cross(force_W_[i])));
  }
}

void ExternalStructuralForce::after_convergence(const StepContext&) {
  // Our Newton converged before the peer did: finish the step's exchange so that both sides go
  // to the next step together (MBDyn would iterate on with the peer's forces).
  while (exchanging_) {
    if (!motion_sent_) send_motion();
    if (exchanging_) receive_forces();
  }
}

void ExternalStructuralForce::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Frc)) {
    for (std::size_t i = 0; i < p_.points.size(); ++i) {
      *os << label() << '@' << p_.points[i].node->label();
      out.write(*os, force_W_[i]);
      out.write(*os, moment_W_[i]);
      *os << '\n';
    }
  }
}

std::string ExternalStructuralForce::log_line() const {
  std::string s = fmt::format("externalstructural: {}", label());
  for (const auto& pt : p_.points) s += fmt::format(" {}", pt.node->label());
  return s;
}

}  // namespace mbl::elements
