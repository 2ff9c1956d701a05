// Readers of the `external structural` (input manual §8.8.10) and `external modal` (§8.8.12)
// forces and of their communicators (§8.8.9), in the order MBDyn's extforce.cc, extedge.cc,
// extsocket.cc, strext.cc and modalext.cc read them. The exchange is implemented for the
// external structural force with the socket communicator and tight coupling; the other
// combinations are read, checked and reported not implemented.
#include <fmt/format.h>

#include "elements/forces/external_structural_force.hpp"
#include "elements/input/file_path.hpp"
#include "elements/joints/modal/modal_joint.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {
namespace {

using parser::CardReader;

struct Communicator {
  enum class Kind { File, Edge, Socket } kind = Kind::File;
  SocketAddress address;
  bool create = false;
  enum class Coupling { None, Staggered, Loose, Tight } coupling = Coupling::Loose;
  long coupling_steps = 1;  ///< tight: exchange every that many iterations
  bool send_after_predict = false;
};

/// `[sleep time, t] [, precision, {default | n}]`: they pace file exchanges only.
void read_common_parameters(CardReader& in) {
  if (in.keyword_is("sleep time")) {
    const parser::SourceLocation at = in.location();
    if (in.real() < 0.0) throw parser::InputError(at, "expected a sleep time >= 0");
  }
  if (in.keyword_is("precision") && !in.keyword_is("default")) {
    const parser::SourceLocation at = in.location();
    if (in.integer() < 0) throw parser::InputError(at, "expected a precision >= 0");
  }
}

Communicator read_communicator(CardReader& in) {
  Communicator c;
  if (in.keyword_is("edge")) {
    c.kind = Communicator::Kind::Edge;
    (void)in.string();  // flag file
    (void)in.string();  // data file
    read_common_parameters(in);
  } else if (in.keyword_is("socket")) {
    c.kind = Communicator::Kind::Socket;
    if (in.keyword_is("create")) c.create = in.boolean();
    const parser::SourceLocation where = in.location();
    if (in.keyword_is("local") || in.keyword_is("path")) {
      c.address.local = true;
      c.address.path = resolve_path(where, in.string());
    }
    if (in.keyword_is("port")) {
      if (c.address.local) throw parser::InputError(where, "a local socket has no port");
      const parser::SourceLocation at = in.location();
      const auto port = in.integer();
      if (port < 1 || port > 65535) throw parser::InputError(at, fmt::format("expected a port number, found {}", port));
      c.address.port = int(port);
    }
    if (in.keyword_is("host")) {
      if (c.address.local) throw parser::InputError(where, "a local socket has no host");
      c.address.host = in.string();
    } else if (!c.address.local && !c.create) {
      throw parser::InputError(in.location(), "expected `host, \"<host>\"` (MBDyn connects to the peer's socket)");
    }
    if (!c.address.local && c.address.port == 0) throw parser::InputError(where, "expected `path, \"<path>\"` or `port, <port>`");
    if (in.keyword_is("socket type") && !in.keyword_is("tcp")) {
      if (!in.keyword_is("udp")) in.fail_expected("`tcp` or `udp`");
    }
    while (in.keyword_is("signal") || in.keyword_is("no signal")) {
    }
    read_common_parameters(in);
  } else {
    (void)in.string();  // input file
    in.keyword_is("unlink");
    (void)in.string();  // output file
    in.keyword_is("no clobber");
    read_common_parameters(in);
  }
  if (in.keyword_is("coupling")) {
    if (in.keyword_is("none")) c.coupling = Communicator::Coupling::None;
    else if (in.keyword_is("staggered")) c.coupling = Communicator::Coupling::Staggered;
    else if (in.keyword_is("loose")) c.coupling = Communicator::Coupling::Loose;
    else if (in.keyword_is("tight")) c.coupling = Communicator::Coupling::Tight;
    else {
      const parser::SourceLocation at = in.location();
      c.coupling_steps = long(in.integer());
      if (c.coupling_steps < 1) throw parser::InputError(at, fmt::format("expected a number of iterations >= 1, found {}", c.coupling_steps));
      c.coupling = Communicator::Coupling::Tight;
    }
  }
  if (c.coupling == Communicator::Coupling::Loose || c.coupling == Communicator::Coupling::Tight) {
    c.send_after_predict = true;
    if (in.keyword_is("send after predict")) c.send_after_predict = in.boolean();
  }
  return c;
}

/// What of the exchange is not implemented, or empty.
std::string missing_exchange(const Communicator& c) {
  if (c.kind == Communicator::Kind::File) return "the file communicator (MBDyn 2024 rejects it too)";
  if (c.kind == Communicator::Kind::Edge) return "the EDGE communicator";
  if (c.coupling != Communicator::Coupling::Tight || c.coupling_steps != 1) return "coupling other than `tight`";
  return {};
}

void read_external_structural(CardReader& in, BuildContext& ctx, unsigned label) {
  const Communicator c = read_communicator(in);
  ExternalStructuralParams p;
  p.address = c.address;
  p.create = c.create;
  p.send_after_predict = c.send_after_predict;
  const StructNode* reference = nullptr;
  if (in.keyword_is("reference node")) reference = &ctx.struct_node(in);
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
      if (!reference) throw parser::InputError(in.location(), "`use reference node forces` needs a `reference node`");
      if (in.boolean() && in.keyword_is("rotate reference node forces")) (void)in.boolean();
    } else break;
  }
  if (!p.labels && !p.sorted)
    throw parser::InputError(in.location(), "`sorted, no` needs `labels, yes` (records are recognised by their label)");
  const parser::SourceLocation count_at = in.location();
  const auto n = in.integer();
  if (n < 1) throw parser::InputError(count_at, fmt::format("expected a number of points >= 1, found {}", n));
  for (long i = 0; i < n; ++i) {
    ExternalStructuralParams::Point pt;
    pt.node = &ctx.struct_node(in);
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
  if (in.keyword_is("echo")) (void)in.string();
  std::string missing = missing_exchange(c);
  if (missing.empty() && reference) missing = "the reference node";
  if (missing.empty() && in.peek_keyword_is("kinematics")) missing = "the `kinematics` output";
  if (!missing.empty()) return in.not_implemented(fmt::format("external structural force: the exchange with its peer through {}", missing));
  auto e = std::make_unique<ExternalStructuralForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

void read_external_modal(CardReader& in, BuildContext& ctx, unsigned) {
  const Communicator c = read_communicator(in);
  bool rigid_possible = true, modal_possible = false;
  if (in.keyword_is("reference node")) {
    (void)ctx.struct_node(in);
  } else {
    const parser::SourceLocation at = in.location();
    const unsigned joint_label = in.label();
    const auto* joint = dynamic_cast<const ModalJoint*>(ctx.model().find_element("joint", joint_label));
    if (!joint) ctx.skip_if_depends_on_skipped(in, "joint", joint_label);
    if (!joint) throw parser::InputError(at, fmt::format("expected a modal joint, found no modal joint {}", joint_label));
    modal_possible = true;
  }
  in.keyword_is("accelerations");
  bool rigid = rigid_possible, modal = modal_possible;
  const parser::SourceLocation type_at = in.location();
  if (in.keyword_is("type")) {
    if (in.keyword_is("rigid")) rigid = true, modal = false;
    else if (in.keyword_is("modal")) rigid = false, modal = true;
    else if (in.keyword_is("all")) rigid = modal = true;
    else in.fail_expected("`rigid`, `modal` or `all`");
  }
  if (modal && !modal_possible) throw parser::InputError(type_at, "the modal part needs a modal joint (not a `reference node`)");
  if (c.kind == Communicator::Kind::Edge && rigid && modal)
    throw parser::InputError(type_at, "the EDGE communicator exchanges either the rigid or the modal part (`type, rigid` or `type, modal`)");
  in.not_implemented("external modal force: the exchange with its peer");
}

const bool registered = CardRegistry::family("force type").add("external structural", read_external_structural) &&
                        CardRegistry::family("force type").add("external modal", read_external_modal);

}  // namespace
}  // namespace mbl::elements
