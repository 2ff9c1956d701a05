// Reader of the `modal` joint card (input manual §8.12.31) and of its FEM file (appendix A.1).
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "elements/input/file_path.hpp"
#include "elements/joints/modal/fem_cache.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;
using parser::InputError;
using parser::SourceLocation;

/// A FEM node label: a quoted string, or (legacy) an integer.
std::string fem_label(CardReader& in) {
  if (in.peek_text().starts_with("\"")) return in.string();
  return std::to_string(in.integer());
}

int positive_count(CardReader& in, std::string_view what) {
  return static_cast<int>(parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, what));
}

void read_modal(CardReader& in, BuildContext& ctx, unsigned label) {
  const SourceLocation card = in.card_location();
  StructNode* modal_node = nullptr;
  Vec3 x0 = Vec3::Zero();
  Mat3 R0 = Mat3::Identity();
  const parser::RigidFrame global;
  if (in.keyword_is("clamped")) {
    if (in.keyword_is("position")) x0 = in.position(global);
    if (in.keyword_is("orientation")) R0 = in.orientation(global);
  } else {
    const SourceLocation at = in.location();
    modal_node = &ctx.struct_node(in);
    if (modal_node->type() != StructNode::Type::Modal)
      throw InputError(at, fmt::format("expected a modal node or `clamped`, found {} node {}",
                                       modal_node->type_name(), modal_node->label()));
  }

  ModalBodyOptions opt;
  const SourceLocation at_modes = in.location();
  const int N = positive_count(in, "a positive number of modes");
  std::vector<SourceLocation> mode_at(N, at_modes);
  if (in.keyword_is("list")) {
    for (int j = 0; j < N; ++j) {
      mode_at[j] = in.location();
      const int m = positive_count(in, "a mode number");
      for (int k : opt.modes)
        if (k == m) throw InputError(mode_at[j], fmt::format("expected a mode not listed yet, found {}", m));
      opt.modes.push_back(m);
    }
  } else {
    for (int j = 1; j <= N; ++j) opt.modes.push_back(j);
  }

  // Initial values override the FEM file's record groups 3 and 4.
  std::vector<std::optional<std::pair<double, double>>> initial(N);
  if (in.keyword_is("initial value")) {
    if (in.keyword_is("mode")) {
      do {
        const SourceLocation at = in.location();
        const int m = positive_count(in, "a mode number");
        int j = 0;
        while (j < N && opt.modes[j] != m) ++j;
        if (j == N) throw InputError(at, fmt::format("expected one of the joint's modes, found {}", m));
        const double q = in.real();
        initial[j] = std::make_pair(q, in.real());
      } while (in.keyword_is("mode"));
    } else {
      for (int j = 0; j < N; ++j) {
        const double q = in.real();
        initial[j] = std::make_pair(q, in.real());
      }
    }
  }

  std::optional<int> fem_nodes;
  SourceLocation at_fem_nodes = in.location();
  if (!in.keyword_is("from file")) fem_nodes = positive_count(in, "a positive number of FEM nodes or `from file`");
  // `scale masses, <s>`, `scale modes, <s>` (MBDyn's modal.cc ReadModal, not in the manual): 1
  // changes nothing; other scales of the FEM data are not implemented.
  for (const char* scale : {"scale masses", "scale modes"}) {
    if (!in.keyword_is(scale)) continue;
    const SourceLocation at = in.location();
    if (in.real() != 1.0) return in.not_implemented(std::string("modal joint `") + scale + "` other than 1", at);
  }

  if (in.keyword_is("no damping")) {
    opt.damping = ModalDamping::None;
  } else if (in.keyword_is("damping from file")) {
    opt.damping = ModalDamping::FromFile;
  } else if (in.keyword_is("rayleigh damping")) {
    opt.damping = ModalDamping::Rayleigh;
    opt.rayleigh_mass = in.real();
    opt.rayleigh_stiffness = in.real();
  } else if (in.keyword_is("single factor damping") || in.keyword_is("proportional damping")) {
    // `proportional damping` is the deprecated name of `single factor damping`.
    opt.damping = ModalDamping::SingleFactor;
    opt.damping_factor = in.real();
  } else if (in.keyword_is("diag damping")) {
    opt.damping = ModalDamping::Diag;
    opt.damping_factors.assign(N, 0.0);
    if (in.keyword_is("all")) {
      for (int j = 0; j < N; ++j) opt.damping_factors[j] = in.real();
    } else {
      const int n = static_cast<int>(parser::checked_integer(
          in, [N](std::int64_t v) { return v > 0 && v <= N; }, fmt::format("a number of damped modes from 1 to {}", N)));
      std::vector<bool> given(N, false);
      for (int k = 0; k < n; ++k) {
        const SourceLocation at = in.location();
        const int j = static_cast<int>(parser::checked_integer(
            in, [N](std::int64_t v) { return v > 0 && v <= N; }, fmt::format("a mode index from 1 to {}", N)));
        if (given[j - 1]) throw InputError(at, fmt::format("expected a mode index not damped yet, found {}", j));
        given[j - 1] = true;
        opt.damping_factors[j - 1] = in.real();
      }
    }
  }

  const SourceLocation at_file = in.location();
  const std::string fem_name = parser::read_file_name(in);
  const std::string path = resolve_path(at_file, fem_name);
  FemThresholds thresholds;
  for (;;) {
    if (in.keyword_is("threshold")) {
      thresholds.mass = thresholds.damping = thresholds.stiffness =
          parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative threshold");
    } else if (in.keyword_is("mass threshold")) {
      thresholds.mass = parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative threshold");
    } else if (in.keyword_is("damping threshold")) {
      thresholds.damping = parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative threshold");
    } else if (in.keyword_is("stiffness threshold")) {
      thresholds.stiffness = parser::checked_real(in, [](double v) { return v >= 0.0; }, "a non-negative threshold");
    } else {
      break;
    }
  }
  FemCacheRequest cache;
  for (;;) {
    if (in.keyword_is("create binary")) cache.create = true;
    else if (in.keyword_is("use binary")) cache.use = true;
    else if (in.keyword_is("update binary")) cache.update = true;
    else break;
  }
  std::optional<std::pair<std::string, SourceLocation>> echo;
  int echo_precision = 13;
  if (in.keyword_is("echo")) {
    const SourceLocation at = in.location();
    echo = std::make_pair(parser::read_file_name(in), at);
    if (in.keyword_is("precision"))
      echo_precision = static_cast<int>(
          parser::checked_integer(in, [](std::int64_t v) { return v > 0 && v < 30; }, "a precision from 1 to 29"));
  }
  if (in.keyword_is("use invariant 9")) opt.use_invariant_9 = true;

  const FemFile fem = load_fem_file(path, at_file, thresholds, cache, fem_cache_path(fem_name));
  if (echo) {
    // Written where MBDyn writes it (the working directory); a folder that cannot take it is
    // reported, not fatal.
    std::ofstream os(echo->first);
    if (os) write_fem_echo(os, fem, opt.modes, echo_precision);
    else ctx.read().report({echo->second, "warning", fmt::format("cannot write the FEM echo file \"{}\"", echo->first)});
  }
  if (fem_nodes && *fem_nodes != fem.node_count)
    throw InputError(at_fem_nodes, fmt::format("expected the FEM file's number of nodes {}, found {}", fem.node_count,
                                               *fem_nodes));
  if (N > fem.mode_count)
    throw InputError(at_modes, fmt::format("expected at most the FEM file's {} modes, found {}", fem.mode_count, N));
  for (int j = 0; j < N; ++j)
    if (opt.modes[j] > fem.mode_count)
      throw InputError(mode_at[j], fmt::format("expected a mode of the FEM file (1 to {}), found {}", fem.mode_count,
                                               opt.modes[j]));

  auto find_node = [&](const std::string& name, const SourceLocation& at) {
    for (int k = 0; k < fem.node_count; ++k)
      if (fem.node_labels[k] == name) return k;
    throw InputError(at, fmt::format("expected a node of the FEM file, found \"{}\"", name));
  };
  if (in.keyword_is("origin node")) {
    const SourceLocation at = in.location();
    opt.origin_node = fem_label(in);
    find_node(*opt.origin_node, at);
  } else if (in.keyword_is("origin position")) {
    opt.origin_position = in.position(global);
  }
  if (in.keyword_is("use invariant 9")) opt.use_invariant_9 = true;
  ModalBody body = build_modal_body(fem, opt);
  for (int j = 0; j < N; ++j)
    if (initial[j]) {
      body.q0[j] = initial[j]->first;
      body.qp0[j] = initial[j]->second;
    }

  // Interface nodes: multibody nodes clamped to FEM nodes.
  const int n_interfaces = static_cast<int>(
      parser::checked_integer(in, [](std::int64_t v) { return v >= 0; }, "a non-negative number of interface nodes"));
  bool all_output = false;
  if (in.keyword_is("output")) all_output = in.boolean();
  double tolerance = 1e-12;
  if (in.keyword_is("interface tolerance"))
    tolerance = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive interface tolerance");
  const Vec3 x_frame = modal_node ? modal_node->x_W() : x0;
  const Mat3 R_frame = modal_node ? modal_node->R_WN() : R0;
  std::vector<ModalJoint::Interface> interfaces;
  for (int i = 0; i < n_interfaces; ++i) {
    ModalJoint::Interface f;
    int k = -1;
    double tol = tolerance;
    const SourceLocation at_fem = in.location();
    const bool closest = in.keyword_is("find closest");
    if (closest) {
      if (in.keyword_is("interface tolerance"))
        tol = parser::checked_real(in, [](double v) { return v > 0.0; }, "a positive interface tolerance");
    } else {
      f.fem_label = fem_label(in);
      k = find_node(f.fem_label, at_fem);
    }
    f.node = &ctx.struct_node(in);
    f.offset_N = in.position(f.node->frame());
    if (in.keyword_is("orientation") || in.keyword_is("hinge")) in.orientation(f.node->frame());
    if (closest) {
      // The FEM node nearest to the multibody point, within the tolerance.
      const Vec3 x_rel = R_frame.transpose() * (f.node->x_W() + f.node->R_WN() * f.offset_N - x_frame);
      double best = tol;
      for (int n = 0; n < fem.node_count; ++n) {
        const double d = (body.x_nodes.col(n) - x_rel).norm();
        if (d < best) {
          best = d;
          k = n;
        }
      }
      if (k < 0)
        throw InputError(at_fem, fmt::format("expected a FEM node within {:g} of node {}, found none", tol,
                                             f.node->label()));
      f.fem_label = fem.node_labels[k];
    }
    f.x_fem = body.x_nodes.col(k);
    f.phi_t.resize(3, N);
    f.phi_r.resize(3, N);
    for (int j = 0; j < N; ++j) {
      f.phi_t.col(j) = body.shape_t[j].col(k);
      f.phi_r.col(j) = body.shape_r[j].col(k);
    }
    f.output = all_output;
    if (in.keyword_is("output")) f.output = in.boolean();
    interfaces.push_back(std::move(f));
  }
  // MBDyn 2024 reads `use invariant 9` here, after the interface nodes (modal.cc, ReadModal,
  // where it builds the invariants from the lumped masses); the body is rebuilt with it.
  if (in.keyword_is("use invariant 9") && !opt.use_invariant_9) {
    opt.use_invariant_9 = true;
    ModalBody rebuilt = build_modal_body(fem, opt);
    rebuilt.q0 = body.q0;
    rebuilt.qp0 = body.qp0;
    body = std::move(rebuilt);
  }
  // Up to MBDyn 1.2.6 an output file name ended the card; it is ignored.
  if (in.peek_text().starts_with("\"")) in.string();

  auto joint = std::make_unique<ModalJoint>(label, std::move(body), modal_node, x0, R0, std::move(interfaces));
  joint->where = card;
  ctx.read_output_flag(in, *joint, "joints");
  ctx.model().add_element(std::move(joint));
}

const bool registered = CardRegistry::family("joint").add("modal", read_modal);

}  // namespace
}  // namespace mbl::elements
