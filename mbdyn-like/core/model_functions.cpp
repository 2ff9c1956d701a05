// The `model::` namespace of the math language (input manual §2.2.1, tables 2.6-2.7): functions
// of the current configuration of structural nodes, `current("...")` values published by the
// reader of the card being read, and `node::<type>` / `element::<type>` private data.
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl {
namespace {

using math::Value;

struct Kinematics {
  Vec3 x, v, w;
  Mat3 R;
};

/// Registers `name`, `xname`, `yname`, `zname` (and `name2` if `squared`) for a vector quantity.
template <class F>
void register_vector(math::MathParser& mp, const std::string& name, bool squared, F f) {
  mp.register_function("model", name, [f](std::span<const Value> a) { return Value(f(a).norm()); });
  if (squared)
    mp.register_function("model", name + "2", [f](std::span<const Value> a) { return Value(f(a).squaredNorm()); });
  for (int k = 0; k < 3; ++k)
    mp.register_function("model", std::string(1, char('x' + k)) + name,
                         [f, k](std::span<const Value> a) { return Value(f(a)[k]); });
}

}  // namespace

void Model::install_model_functions() {
  math::MathParser& mp = math_;
  // Node lookup with a clear message; `prev` selects the last converged configuration.
  auto node = [this](const Value& label, const char* fn) -> const StructNode& {
    const auto l = label.to_integer();
    const StructNode* n = find_struct_node(static_cast<unsigned>(l));
    if (!n) throw std::invalid_argument(fmt::format("model::{}: no structural node {}", fn, l));
    return *n;
  };
  auto kin = [node](const Value& label, const char* fn, bool prev) {
    const StructNode& n = node(label, fn);
    if (prev) return Kinematics{n.x_prev_W(), n.v_prev_W(), n.w_prev_W(), n.R_prev_WN()};
    return Kinematics{n.x_W(), n.v_W(), n.w_W(), n.R_WN()};
  };
  auto need = [](std::span<const Value> a, std::size_t n, const char* fn) {
    if (a.size() != n) throw std::invalid_argument(fmt::format("model::{} takes {} argument(s)", fn, n));
  };
  for (bool prev : {false, true}) {
    const std::string sfx = prev ? "_prev" : "";
    register_vector(mp, "position" + sfx, true, [=](std::span<const Value> a) {
      need(a, 1, "position");
      return kin(a[0], "position", prev).x;
    });
    register_vector(mp, "distance" + sfx, true, [=](std::span<const Value> a) {
      need(a, 2, "distance");
      return Vec3(kin(a[1], "distance", prev).x - kin(a[0], "distance", prev).x);
    });
    register_vector(mp, "unitvec" + sfx, false, [=](std::span<const Value> a) {
      need(a, 2, "unitvec");
      return Vec3((kin(a[1], "unitvec", prev).x - kin(a[0], "unitvec", prev).x).normalized());
    });
    register_vector(mp, "angle" + sfx, false, [=](std::span<const Value> a) {
      need(a, 1, "angle");
      return rot::R_to_rotvec(kin(a[0], "angle", prev).R);
    });
    register_vector(mp, "anglerel" + sfx, false, [=](std::span<const Value> a) {
      need(a, 2, "anglerel");
      return rot::R_to_rotvec(kin(a[1], "anglerel", prev).R * kin(a[0], "anglerel", prev).R.transpose());
    });
    register_vector(mp, "velocity" + sfx, true, [=](std::span<const Value> a) {
      need(a, 1, "velocity");
      return kin(a[0], "velocity", prev).v;
    });
    register_vector(mp, "vrel" + sfx, true, [=](std::span<const Value> a) {
      need(a, 2, "vrel");
      return Vec3(kin(a[1], "vrel", prev).v - kin(a[0], "vrel", prev).v);
    });
    register_vector(mp, "angvel" + sfx, true, [=](std::span<const Value> a) {
      need(a, 1, "angvel");
      return kin(a[0], "angvel", prev).w;
    });
    register_vector(mp, "angvrel" + sfx, true, [=](std::span<const Value> a) {
      need(a, 2, "angvrel");
      return Vec3(kin(a[1], "angvrel", prev).w - kin(a[0], "angvrel", prev).w);
    });
    mp.register_function("model", "distancep" + sfx, [=](std::span<const Value> a) {
      need(a, 2, "distancep");
      const Kinematics k1 = kin(a[0], "distancep", prev), k2 = kin(a[1], "distancep", prev);
      const Vec3 d = k2.x - k1.x;
      return Value(d.normalized().dot(k2.v - k1.v));
    });
  }
  mp.register_function("model", "current", [this](std::span<const Value> a) {
    if (a.size() != 1) throw std::invalid_argument("model::current takes one string argument");
    const std::string& key = a[0].to_string_value();
    auto it = current_values_.find(key);
    if (it == current_values_.end())
      throw std::invalid_argument(fmt::format("model::current(\"{}\"): not available in this context", key));
    return Value(it->second);
  });
  // node::<type>(label, "name") and element::<type>([label,] "name"): private data.
  for (const char* kind : {"structural", "abstract", "electric", "hydraulic", "parameter", "thermal"}) {
    mp.register_function("model", std::string("node::") + kind, [this, kind](std::span<const Value> a) {
      if (a.size() != 2) throw std::invalid_argument(fmt::format("model::node::{} takes (label, \"name\")", kind));
      const auto label = static_cast<unsigned>(a[0].to_integer());
      const Node* n = find_node(kind, label);
      if (!n) throw std::invalid_argument(fmt::format("model::node::{}: no {} node {}", kind, kind, label));
      const unsigned i = n->private_data_index(a[1].to_string_value());
      if (i == 0) throw std::invalid_argument(fmt::format("model::node::{}: node {} has no private datum \"{}\"", kind, label, a[1].to_string_value()));
      return Value(n->private_data(i));
    });
  }
  for (const char* kind : {"joint", "body", "beam", "force", "couple", "genel", "gravity", "inertia", "loadable"}) {
    mp.register_function("model", std::string("element::") + kind, [this, kind](std::span<const Value> a) {
      if (a.size() != 2) throw std::invalid_argument(fmt::format("model::element::{} takes (label, \"name\")", kind));
      const auto label = static_cast<unsigned>(a[0].to_integer());
      const Element* e = find_element(kind, label);
      if (!e) throw std::invalid_argument(fmt::format("model::element::{}: no {} {}", kind, kind, label));
      const unsigned i = e->private_data_index(a[1].to_string_value());
      if (i == 0) throw std::invalid_argument(fmt::format("model::element::{}: {} {} has no private datum \"{}\"", kind, kind, label, a[1].to_string_value()));
      return Value(e->private_data(i));
    });
  }
}

}  // namespace mbl
