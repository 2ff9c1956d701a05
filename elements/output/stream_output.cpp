#include "elements/output/stream_output.hpp"

#include <fmt/format.h>

#include "mbdyn-like/core/step_observer.hpp"
#include "parser/math/math_parser.hpp"

namespace mbl::elements {

StreamOutput::StreamOutput(unsigned label, StreamOutputParams p)
    : Element(label), p_(std::move(p)), channel_(p_.address, p_.create, fmt::format("stream output {}", label)) {
  // The channel count, without evaluating the drives (a stream file driver would open its socket
  // while the deck is read).
  if (!p_.echo.path.empty()) echo_.open(p_.echo, "SocketStreamElem", label, channel_count(), false);
}

std::size_t StreamOutput::channel_count() const {
  if (p_.motion_flags == 0) return p_.values.size();
  std::size_t per_node = 0;
  for (unsigned flag : {StreamOutputParams::Position, StreamOutputParams::Velocity, StreamOutputParams::AngularVelocity})
    if (p_.motion_flags & flag) per_node += 3;
  for (unsigned flag : {StreamOutputParams::Orientation, StreamOutputParams::OrientationTranspose})
    if (p_.motion_flags & flag) per_node += 9;
  return per_node * p_.nodes.size();
}

std::vector<double> StreamOutput::record(double t) const {
  std::vector<double> r;
  if (p_.motion_flags == 0) {
    for (const auto& v : p_.values) r.push_back(v->value(t));
    return r;
  }
  auto put = [&](const Vec3& v) { r.insert(r.end(), {v.x(), v.y(), v.z()}); };
  for (const StructNode* n : p_.nodes) {
    if (p_.motion_flags & StreamOutputParams::Position) put(n->x_W());
    const Mat3& R = n->R_WN();
    if (p_.motion_flags & StreamOutputParams::Orientation)
      for (int i = 0; i < 3; ++i) put(R.row(i).transpose());
    if (p_.motion_flags & StreamOutputParams::OrientationTranspose)
      for (int j = 0; j < 3; ++j) put(R.col(j));
    if (p_.motion_flags & StreamOutputParams::Velocity) put(n->v_W());
    if (p_.motion_flags & StreamOutputParams::AngularVelocity) put(n->w_W());
  }
  return r;
}

void StreamOutput::exchange(double t) {
  if (channel_.abandoned()) return;
  const std::vector<double> r = record(t);
  echo_.write(r);
  bool sent = false;
  try {
    sent = channel_.send(r.data(), r.size() * sizeof(double));
  } catch (const std::runtime_error& e) {
    throw EvaluationError(e.what());
  }
  // A broken connection ends the exchange (the default) or the simulation (MBDyn's NoErr).
  if (!sent && p_.abort_if_broken)
    throw math::StopRequest(0, fmt::format("stream output {}: the peer is gone (abort if broken)", label()));
}

void StreamOutput::after_convergence(const StepContext& c) {
  if (counter_ < 0) {  // the initial time (MBDyn's SetValue)
    counter_ = 0;
    if (p_.send_first) exchange(c.t);
    return;
  }
  if (p_.send_after_predict) return;
  if (++counter_ < p_.output_every) return;
  counter_ = 0;
  exchange(c.t);
}

void StreamOutput::after_predict(const StepContext& c) {
  if (!p_.send_after_predict || counter_ < 0) return;
  if (++counter_ < p_.output_every) return;
  counter_ = 0;
  exchange(c.t);
}

std::string StreamOutput::log_line() const {
  const SocketAddress& a = p_.address;
  std::string s = a.local ? fmt::format("outputelement: {} stream UNIX {} {}", label(), p_.stream_name, a.path)
                          : fmt::format("outputelement: {} stream INET {} {} {}", label(), p_.stream_name, a.host, a.port);
  s += fmt::format(" tcp {:d} {:d} {:d} {:d}", p_.create, p_.non_blocking, p_.send_first, p_.abort_if_broken);
  if (p_.motion_flags == 0) return s + fmt::format(" values {}", p_.values.size());
  s += " motion";
  for (const StructNode* n : p_.nodes) s += fmt::format(" {}", n->label());
  return s;
}

}  // namespace mbl::elements
