// Readers of the `external structural` (input manual §8.8.10) and `external modal` (§8.8.12)
// forces and of their communicators (§8.8.9), in the order MBDyn's extforce.cc, extedge.cc,
// extsocket.cc, strext.cc and modalext.cc read them.
#include <fmt/format.h>

#include "parser/file_name.hpp"
#include "elements/forces/external_modal_force.hpp"
#include "elements/forces/external_structural_force.hpp"
#include "elements/input/socket_options.hpp"
#include "elements/input/stream_echo.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

/// `[sleep time, t] [, precision, {default | n}]` (MBDyn's ReadExtFileParams): the sleep time
/// is at least `min_sleep` (1 s for files and EDGE, 0 for sockets).
void read_common_parameters(CardReader& in, ExternalCommunicator& c, double min_sleep) {
  c.sleep_s = min_sleep;
  if (in.keyword_is("sleep time"))
    c.sleep_s = parser::checked_real(in, [min_sleep](double t) { return t >= min_sleep; },
                                     fmt::format("a sleep time >= {} s", min_sleep));
  if (in.keyword_is("precision") && !in.keyword_is("default"))
    c.precision = read_text_precision(in, 0);
}

/// The communicator and the coupling (MBDyn's ReadExtForce); nullopt when the card was reported
/// not implemented. Exchange files are named from the working directory, as MBDyn opens them.
std::optional<ExternalCommunicator> read_communicator(CardReader& in) {
  ExternalCommunicator c;
  if (in.keyword_is("edge")) {
    c.kind = ExternalCommunicator::Kind::Edge;
    c.flag_file = parser::read_file_name(in);
    c.data_file = parser::read_file_name(in);
    read_common_parameters(in, c, 1.0);
  } else if (in.keyword_is("socket")) {
    c.kind = ExternalCommunicator::Kind::Socket;
    // No default port, a host to connect to; over udp MBDyn creates the socket.
    const auto socket = read_socket_options(in, {.connect_needs_host = true, .udp_creates = false, .udp_create = true,
                                                 .udp_feature = "external force socket communicator over udp"});
    if (!socket) return std::nullopt;
    c.address = socket->address;
    c.create = socket->create;
    while (in.keyword_is("signal") || in.keyword_is("no signal")) {
    }
    read_common_parameters(in, c, 0.0);
  } else {
    // The manual's default communicator (MBDyn 2024's reader no longer accepts it; its handler,
    // ExtFileHandler, is still in extforce.cc and is what this follows).
    c.kind = ExternalCommunicator::Kind::File;
    c.input_file = parser::read_file_name(in);
    c.unlink_input = in.keyword_is("unlink");
    c.output_file = parser::read_file_name(in);
    c.no_clobber = in.keyword_is("no clobber");
    read_common_parameters(in, c, 1.0);
  }
  if (in.keyword_is("coupling")) {
    if (in.keyword_is("none")) c.coupling = ExternalCommunicator::kNone;
    else if (in.keyword_is("staggered")) c.coupling = ExternalCommunicator::kStaggered;
    else if (in.keyword_is("loose")) c.coupling = ExternalCommunicator::kLoose;
    else if (in.keyword_is("tight")) c.coupling = 1;
    else
      c.coupling = int(parser::checked_integer(
          in, [](std::int64_t n) { return n >= -1 && n <= 1000000; },
          "`none`, `staggered`, `loose`, `tight` or a number of iterations (-1 staggered, 0 loose, n >= 1 tight)"));
  }
  c.send_after_predict = c.coupling >= ExternalCommunicator::kLoose;
  if (c.send_after_predict && in.keyword_is("send after predict")) c.send_after_predict = in.boolean();
  return c;
}

void read_external_structural(CardReader& in, BuildContext& ctx, unsigned label) {
  ExternalStructuralParams p;
  const auto communicator = read_communicator(in);
  if (!communicator) return;
  p.communicator = *communicator;
  if (in.keyword_is("reference node")) p.reference = &ctx.struct_node(in);
  for (;;) {
    if (in.keyword_is("unsorted")) p.sorted = false;
    else if (in.keyword_is("sorted")) p.sorted = in.boolean();
    else if (in.keyword_is("no labels")) p.labels = false;
    else if (in.keyword_is("labels")) p.labels = in.boolean();
    else if (in.keyword_is("orientation")) {
      using O = ExternalStructuralParams::Orientation;
      if (in.keyword_is("none")) p.orientation = O::None;
      else if (in.keyword_is("orientation vector")) p.orientation = O::Vector;
      else if (in.keyword_is("orientation matrix")) p.orientation = O::Matrix;
      else if (in.keyword_is("euler 123")) p.orientation = O::Euler123;
      else in.fail_expected("`none`, `orientation vector`, `orientation matrix` or `euler 123`");
    } else if (in.keyword_is("accelerations")) p.accelerations = in.boolean();
    else if (in.keyword_is("use reference node forces")) {
      if (!p.reference) throw parser::InputError(in.location(), "`use reference node forces` needs a `reference node`");
      p.use_reference_forces = in.boolean();
      if (p.use_reference_forces && in.keyword_is("rotate reference node forces")) p.rotate_reference_forces = in.boolean();
    } else break;
  }
  if (!p.labels && !p.sorted)
    throw parser::InputError(in.location(), "`sorted, no` needs `labels, yes` (records are recognised by their label)");
  const parser::SourceLocation count_at = in.location();
  const auto n = in.integer();
  if (n < 1) throw parser::InputError(count_at, fmt::format("expected a number of points >= 1, found {}", n));
  for (long i = 0; i < n; ++i) {
    ExternalStructuralParams::Point pt;
    const parser::SourceLocation node_at = in.location();
    pt.node = &ctx.struct_node(in);
    if (p.accelerations && !pt.node->has_inertia_block())  // MBDyn asks the node's accelerations
      throw parser::InputError(node_at, fmt::format("expected a dynamic node (`accelerations, yes`), found {} node {}",
                                                    pt.node->type_name(), pt.node->label()));
    pt.label = pt.node->label();
    if (p.labels && in.keyword_is("label")) {
      const parser::SourceLocation at = in.location();
      const auto l = in.integer();
      if (l < 0) throw parser::InputError(at, fmt::format("expected a label >= 0, found {}", l));
      pt.label = unsigned(l);
    }
    for (const auto& other : p.points)
      if (p.labels && other.label == pt.label)
        throw parser::InputError(in.location(), fmt::format("point {} has the label {} of an earlier point", i + 1, pt.label));
    if (in.keyword_is("offset")) pt.offset_N = in.position(pt.node->frame());
    p.points.push_back(pt);
  }
  if (in.keyword_is("echo")) (void)parser::read_file_name(in);
  auto e = std::make_unique<ExternalStructuralForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  if (in.keyword_is("kinematics")) return in.not_implemented("external structural force: the `kinematics` output");
  ctx.model().add_element(std::move(e));
}

void read_external_modal(CardReader& in, BuildContext& ctx, unsigned label) {
  ExternalModalParams p;
  const auto communicator = read_communicator(in);
  if (!communicator) return;
  p.communicator = *communicator;
  if (in.keyword_is("reference node")) {
    p.node = &ctx.struct_node(in);
  } else {
    const parser::SourceLocation at = in.location();
    const unsigned joint_label = in.label();
    p.joint = dynamic_cast<const ModalJoint*>(ctx.model().find_element("joint", joint_label));
    if (!p.joint) ctx.skip_if_depends_on_skipped(in, "joint", joint_label);
    if (!p.joint) throw parser::InputError(at, fmt::format("expected a modal joint, found no modal joint {}", joint_label));
    p.node = p.joint->modal_node();
  }
  in.keyword_is("accelerations");  // MBDyn reads it and sends no accelerations
  // The default: both parts, as far as there is a node and a modal joint.
  p.rigid = p.node != nullptr;
  p.modal = p.joint != nullptr;
  const parser::SourceLocation type_at = in.location();
  if (in.keyword_is("type")) {
    if (in.keyword_is("rigid")) p.rigid = true, p.modal = false;
    else if (in.keyword_is("modal")) p.rigid = false, p.modal = true;
    else if (in.keyword_is("all")) p.rigid = p.modal = true;
    else in.fail_expected("`rigid`, `modal` or `all`");
  }
  if (p.rigid && !p.node)
    throw parser::InputError(type_at, "the rigid part needs a modal node (the modal joint is clamped)");
  if (p.modal && !p.joint) throw parser::InputError(type_at, "the modal part needs a modal joint (not a `reference node`)");
  if (p.communicator.kind == ExternalCommunicator::Kind::Edge && p.rigid && p.modal)
    throw parser::InputError(type_at, "the EDGE communicator exchanges either the rigid or the modal part (`type, rigid` or `type, modal`)");
  auto e = std::make_unique<ExternalModalForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("force type").add("external structural", read_external_structural) &&
                        CardRegistry::family("force type").add("external modal", read_external_modal);

}  // namespace
}  // namespace mbl::elements
