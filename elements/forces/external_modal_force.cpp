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
    : Element(label), p_(std::move(p)), link_(p_.communicator, fmt::format("external modal force {}", label)),
      f_modal_(p_.modal ? std::size_t(p_.joint->modes()) : 0, 0.0) {}

void ExternalModalForce::setup(Model& m) {
  Element::setup(m);
  // The EDGE rigid-body velocity is relative to the airstream, when there is one (as MBDyn).
  air_ = dynamic_cast<const aero::AirProperties*>(m.find_element("air properties", 1));
}

int ExternalModalForce::modes() const { return p_.joint ? p_.joint->modes() : 0; }
double ExternalModalForce::q(int j) const { return (*context_->y)[p_.joint->first_index() + j]; }
double ExternalModalForce::qp(int j) const { return (*context_->y)[p_.joint->first_index() + modes() + j]; }

std::uint32_t ExternalModalForce::negotiation_mask() const { return MBC_MODAL_NODAL_MASK | MBC_REF_NODE; }  // modalext.cc

std::array<std::uint32_t, 2> ExternalModalForce::negotiation() const {
  return {MBC_MODAL | (p_.rigid ? MBC_REF_NODE : 0u), std::uint32_t(modes())};
}

void ExternalModalForce::write_motion(std::ostream& os, ExternalCommunicator::Kind kind) const {
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
}

void ExternalModalForce::read_loads(std::istream& is, ExternalCommunicator::Kind kind) {
  if (kind == ExternalCommunicator::Kind::Edge) return read_edge_loads(is);
  if (p_.rigid) is >> F_[0] >> F_[1] >> F_[2] >> M_[0] >> M_[1] >> M_[2];
  for (double& f : f_modal_) is >> f;
  if (!is) throw EvaluationError(fmt::format("external modal force {}: the input file has too few values", label()));
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

void ExternalModalForce::after_predict(const StepContext& c) {
  context_ = &c;
  link_.after_predict(*this);
  context_ = nullptr;
}

void ExternalModalForce::after_convergence(const StepContext& c) {
  context_ = &c;
  link_.after_convergence(*this);
  context_ = nullptr;
}

void ExternalModalForce::residual(ResidualSink& r, const StepContext& c) {
  if (c.initial_assembly) return;  // MBDyn's initial assembly has no external loads
  context_ = &c;
  link_.before_residual(*this);
  context_ = nullptr;
  if (!link_.applies_loads()) return;  // `coupling, none`: the motion is sent, nothing comes back
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
