// Readers of the `external structural` (input manual §8.8.10) and `external modal` (§8.8.12)
// forces and of their communicators (§8.8.9), in the order MBDyn's extforce.cc, extedge.cc,
// extsocket.cc, strext.cc and modalext.cc read them.
#include <fmt/format.h>

#include <ctime>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "elements/input/file_path.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "parser/math/math_parser.hpp"

#include "parser/file_name.hpp"
#include "elements/forces/external_modal_force.hpp"
#include "elements/forces/external_structural_force.hpp"
#include "elements/forces/external_structural_mapping.hpp"
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
  // After `output`; it turns the output on (strext.cc ReadStructExtForce).
  if (in.keyword_is("kinematics")) e->enable_kinematics_output();
  ctx.model().add_element(std::move(e));
}

/// A yes/no option given at most once (MBDyn's `bGot...` checks).
bool read_once(CardReader& in, bool& given, std::string_view what) {
  if (given) throw parser::InputError(in.location(), fmt::format("`{}` given twice", what));
  given = true;
  return in.boolean();
}

/// `echo, "<file>" [, precision | surface | output | order | basenode | weight ...] [, stop]`:
/// the points' positions (relative to the reference node, in its frame) for the tools that build
/// H (MBDyn's contrib/MLS), written now from the input configuration, as MBDyn writes them.
void read_mapping_echo(CardReader& in, const ExternalMappingParams& p, unsigned label) {
  const std::string path = parser::read_file_name(in);
  int precision = 6;
  std::map<std::string, std::string> written;  // the values written verbatim, by keyword
  bool precision_given = false;
  auto once = [&](const std::string& what, auto read) {
    if (written.count(what) || (what == "precision" && precision_given))
      throw parser::InputError(in.location(), fmt::format("`{}` given twice", what));
    read();
  };
  for (;;) {
    if (in.keyword_is("precision")) {
      once("precision", [&] {
        precision = int(parser::checked_integer(in, [](std::int64_t v) { return v > 0 && v < 40; }, "a precision > 0"));
        precision_given = true;
      });
    } else if (in.keyword_is("surface")) {
      once("surface", [&] { written["surface"] = parser::read_file_name(in); });
    } else if (in.keyword_is("output")) {
      once("output", [&] { written["output"] = parser::read_file_name(in); });
    } else if (in.keyword_is("order")) {
      once("order", [&] {
        written["order"] = std::to_string(
            parser::checked_integer(in, [](std::int64_t v) { return v >= 1 && v <= 3; }, "an order from 1 to 3"));
      });
    } else if (in.keyword_is("basenode")) {
      once("basenode", [&] {
        written["basenode"] = std::to_string(
            parser::checked_integer(in, [](std::int64_t v) { return v > 0; }, "a number of nodes > 0"));
      });
    } else if (in.keyword_is("weight")) {
      once("weight", [&] {
        written["weight"] = in.keyword_is("inf") ? std::string("inf")
                                                 : std::to_string(parser::checked_integer(
                                                       in, [](std::int64_t v) { return v >= -2; }, "a weight >= -2 or `inf`"));
      });
    } else {
      break;
    }
  }
  std::ofstream os(path);
  os << std::scientific << std::setprecision(precision);
  auto vec = [&](const Vec3& v) { os << v[0] << ' ' << v[1] << ' ' << v[2]; };
  const std::time_t now = std::time(nullptr);
  const char* user = std::getenv("USER");
  const char* host = std::getenv("HOSTNAME");
  os << "# Generated by MBDyn StructMappingExtForce(" << label << ")\n# " << (user ? user : "nobody") << '@'
     << (host ? host : "unknown") << "\n# " << std::ctime(&now) << "# labels: " << (p.labels ? "on" : "off") << '\n';
  Vec3 x_ref = Vec3::Zero();
  Mat3 R_ref = Mat3::Identity();
  if (p.reference) {
    x_ref = p.reference->x_W();
    R_ref = p.reference->R_WN();
    os << "# reference: " << p.reference->label() << "\n# position: ";
    vec(x_ref);
    os << "\n# orientation: ";
    vec(orientation_numbers(R_ref, OrientationOutput::Euler123));
    os << '\n';
  }
  os << "# points: " << p.point_count() << '\n';
  for (const char* key : {"surface", "output", "order", "basenode", "weight"})
    if (written.count(key)) os << "# " << key << ": " << written[key] << '\n';
  for (const auto& np : p.nodes) {
    Vec3 normal = Vec3::Zero();
    if (np.membrane[0]) {
      const auto& c = np.membrane;
      normal = (c[1]->x_W() - c[0]->x_W()).cross(c[3]->x_W() - c[2]->x_W());
      normal /= normal.norm();
    }
    for (const auto& pt : np.points) {
      if (p.labels) os << pt.label << ' ';
      const Vec3 offset = np.membrane[0] ? Vec3(normal * pt.membrane_h) : Vec3(np.node->R_WN() * pt.offset_N);
      vec(R_ref.transpose() * (np.node->x_W() + offset - x_ref));
      os << '\n';
    }
  }
  if (in.keyword_is("stop")) {
    os.close();
    throw math::StopRequest(0, fmt::format("external structural mapping force {}: echo written to \"{}\" (stop)", label, path));
  }
}

/// `mapped labels file, "<file>"` or the labels on the card (MBDyn's reader).
std::vector<std::uint32_t> read_mapped_labels(CardReader& in, std::size_t count) {
  std::vector<std::uint32_t> labels;
  if (in.keyword_is("mapped labels file")) {
    const parser::SourceLocation at = in.location();
    const std::string given = parser::read_file_name(in);
    std::ifstream is(resolve_path(at, given));
    if (!is) throw parser::InputError(at, fmt::format("mapped labels file \"{}\": cannot be opened", given));
    while (is.peek() == '#') {
      std::string line;
      std::getline(is, line);
    }
    for (std::size_t k = 0; k < count; ++k) {
      long l = -1;
      if (!(is >> l) || l < 0)
        throw parser::InputError(at, fmt::format("mapped labels file \"{}\": expected label {} of {} (>= 0)", given, k + 1, count));
      labels.push_back(std::uint32_t(l));
    }
  } else {
    for (std::size_t k = 0; k < count; ++k)
      labels.push_back(std::uint32_t(parser::checked_integer(
          in, [](std::int64_t v) { return v >= 0 && v <= 0xffffffffLL; }, "a mapped label >= 0")));
  }
  std::set<std::uint32_t> seen;
  for (std::uint32_t l : labels)
    if (!seen.insert(l).second) throw parser::InputError(in.location(), fmt::format("mapped label {} given twice", l));
  return labels;
}

/// `[type, {rigid | modal | all}]` of the external modal forces (modalext.cc, modalmappingext.cc)
/// over the default parts already in `p`; each part must have what it exchanges (`rigid_needs`,
/// `modal_needs` say what) and the EDGE communicator takes one of the two.
void read_modal_type(CardReader& in, ExternalModalParams& p, bool has_modal_source, std::string_view modal_needs,
                     std::string_view rigid_needs) {
  const parser::SourceLocation type_at = in.location();
  if (in.keyword_is("type")) {
    if (in.keyword_is("rigid")) p.rigid = true, p.modal = false;
    else if (in.keyword_is("modal")) p.rigid = false, p.modal = true;
    else if (in.keyword_is("all")) p.rigid = p.modal = true;
    else in.fail_expected("`rigid`, `modal` or `all`");
  }
  if (p.rigid && !p.node) throw parser::InputError(type_at, fmt::format("the rigid part needs {}", rigid_needs));
  if (p.modal && !has_modal_source) throw parser::InputError(type_at, fmt::format("the modal part needs {}", modal_needs));
  if (p.communicator.kind == ExternalCommunicator::Kind::Edge && p.rigid && p.modal)
    throw parser::InputError(type_at, "the EDGE communicator exchanges either the rigid or the modal part (`type, rigid` or `type, modal`)");
}

/// MBDyn's ReadStructMappingExtForce (strmappingext.cc), option by option.
void read_external_structural_mapping(CardReader& in, BuildContext& ctx, unsigned label) {
  ExternalMappingParams p;
  const parser::SourceLocation communicator_at = in.location();
  const auto communicator = read_communicator(in);
  if (!communicator) return;
  if (communicator->kind != ExternalCommunicator::Kind::Socket)
    throw parser::InputError(communicator_at, "expected the `socket` communicator (MBDyn exchanges the external "
                                              "structural mapping force through a socket only)");
  p.communicator = *communicator;
  if (in.keyword_is("reference node")) p.reference = &ctx.struct_node(in);
  p.reference_orientation = p.reference ? std::uint32_t(MBC_ROT_MAT) : 0u;
  bool got_labels = false, got_orientation = false, got_accelerations = false, got_reference_forces = false;
  for (;;) {
    if (in.keyword_is("no labels")) {
      if (got_labels) throw parser::InputError(in.location(), "`labels` given twice");
      got_labels = true;
      p.labels = false;
    } else if (in.keyword_is("labels")) {
      p.labels = read_once(in, got_labels, "labels");
    } else if (in.keyword_is("orientation")) {
      if (got_orientation) throw parser::InputError(in.location(), "`orientation` given twice");
      got_orientation = true;
      const parser::SourceLocation at = in.location();
      if (in.keyword_is("none")) p.reference_orientation = 0;
      else if (in.keyword_is("orientation vector")) p.reference_orientation = MBC_ROT_THETA;
      else if (in.keyword_is("orientation matrix")) p.reference_orientation = MBC_ROT_MAT;
      else if (in.keyword_is("euler 123")) p.reference_orientation = MBC_ROT_EULER_123;
      else in.fail_expected("`none`, `orientation vector`, `orientation matrix` or `euler 123`");
      if (p.reference && p.reference_orientation == 0)
        throw parser::InputError(at, "expected the reference node's orientation format (`orientation vector`, "
                                     "`orientation matrix` or `euler 123`), found `none`");
    } else if (in.keyword_is("accelerations")) {
      p.accelerations = read_once(in, got_accelerations, "accelerations");
    } else if (in.keyword_is("use reference node forces")) {
      if (!p.reference) throw parser::InputError(in.location(), "`use reference node forces` needs a `reference node`");
      p.use_reference_forces = read_once(in, got_reference_forces, "use reference node forces");
      if (p.use_reference_forces && in.keyword_is("rotate reference node forces")) p.rotate_reference_forces = in.boolean();
    } else {
      break;
    }
  }
  if (!in.keyword_is("points number")) in.fail_expected("`points number`");
  const std::size_t n = std::size_t(parser::checked_integer(
      in, [&](std::int64_t v) { return v >= 1 && std::size_t(v) <= in.arguments_left(); }, "a number of points >= 1"));
  std::set<unsigned> seen;
  auto point_label = [&](ExternalMappingParams::Point& pt) {
    if (p.labels)
      pt.label = unsigned(parser::checked_integer(in, [](std::int64_t v) { return v >= 0 && v <= 0xffffffffLL; },
                                                  "a point label >= 0"));
  };
  for (std::size_t count = 0; count < n;) {
    const parser::SourceLocation node_at = in.location();
    ExternalMappingParams::NodePoints np;
    np.node = &ctx.struct_node(in, true);
    if (!seen.insert(np.node->label()).second)
      throw parser::InputError(node_at, fmt::format("expected a node not listed yet (the points of a node come "
                                                    "together), found node {} again", np.node->label()));
    if (p.accelerations && !np.node->has_inertia_block())  // MBDyn asks the node's accelerations
      throw parser::InputError(node_at, fmt::format("expected a dynamic node (`accelerations, yes`), found {} node {}",
                                                    np.node->type_name(), np.node->label()));
    if (in.keyword_is("membrane")) {
      // Two points on the membrane's normal (x1 - x0) x (x3 - x2), at h1 and h2 on either side.
      if (!np.node->is_displacement())
        throw parser::InputError(node_at, fmt::format("expected a displacement node for `membrane`, found {} node {}",
                                                      np.node->type_name(), np.node->label()));
      for (int k = 0; k < 4; ++k) {
        const parser::SourceLocation at = in.location();
        np.membrane[k] = &ctx.struct_node(in, true);
        if (k % 2 && np.membrane[k] == np.membrane[k - 1])
          throw parser::InputError(at, fmt::format("expected a node other than membrane node {}, found it again", k));
      }
      ExternalMappingParams::Point a, b;
      a.membrane_h = parser::checked_real(in, [](double h) { return h != 0.0; }, "a distance h1 != 0");
      point_label(a);
      if (count + 1 == n)
        throw parser::InputError(in.location(), fmt::format("the membrane's second point exceeds the {} points", n));
      const double h1 = a.membrane_h;
      b.membrane_h = parser::checked_real(in, [h1](double h) { return h != 0.0 && h1 * h < 0.0; },
                                          "a distance h2 != 0 on the other side of h1");
      point_label(b);
      np.points = {a, b};
      count += 2;
    } else {
      while (in.keyword_is("offset")) {
        if (count == n)
          throw parser::InputError(in.location(), fmt::format("expected no more than {} points, found another offset", n));
        ExternalMappingParams::Point pt;
        point_label(pt);
        const parser::SourceLocation at = in.location();
        pt.offset_N = in.position(np.node->frame());
        if (np.node->is_displacement() && (!np.points.empty() || !pt.offset_N.isZero(0.0)))
          throw parser::InputError(at, fmt::format("expected one point at displacement node {} with a null offset",
                                                   np.node->label()));
        np.points.push_back(pt);
        ++count;
      }
    }
    if (!np.points.empty()) p.nodes.push_back(np);
  }
  if (in.keyword_is("echo")) read_mapping_echo(in, p, label);
  if (in.keyword_is("mapped points number")) {
    int rows = -1;
    if (!in.keyword_is("from file"))
      rows = 3 * int(parser::checked_integer(in, [](std::int64_t v) { return v >= 1 && v <= 100000000; },
                                             "a number of mapped points >= 1 or `from file`"));
    const parser::SourceLocation at = in.location();
    p.mapping = read_mapping_matrix(in, rows, int(3 * n));
    if (p.mapping->rows() % 3)
      throw parser::InputError(at, fmt::format("expected 3 rows per mapped point, found {} rows", p.mapping->rows()));
    if (p.labels) p.mapped_labels = read_mapped_labels(in, std::size_t(p.mapping->rows() / 3));
  }
  auto e = std::make_unique<ExternalStructuralMappingForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
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
  read_modal_type(in, p, p.joint != nullptr, "a modal joint (not a `reference node`)",
                  "a modal node (the modal joint is clamped)");
  auto e = std::make_unique<ExternalModalForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

/// MBDyn's ReadModalMappingExtForce (modalmappingext.cc), option by option.
void read_external_modal_mapping(CardReader& in, BuildContext& ctx, unsigned label) {
  ExternalModalParams p;
  const parser::SourceLocation communicator_at = in.location();
  const auto communicator = read_communicator(in);
  if (!communicator) return;
  if (communicator->kind == ExternalCommunicator::Kind::File)
    throw parser::InputError(communicator_at, "expected the `socket` or `edge` communicator (MBDyn's external modal "
                                              "mapping force has no file communicator)");
  p.communicator = *communicator;
  ExternalModalParams::Mapping mapping;
  if (in.keyword_is("reference node")) p.node = &ctx.struct_node(in);
  mapping.use_reference_forces = p.node != nullptr;
  if (p.node && in.keyword_is("use rigid body forces")) {
    mapping.use_reference_forces = in.boolean();
    if (mapping.use_reference_forces && in.keyword_is("rotate rigid body forces"))
      mapping.rotate_reference_forces = in.boolean();
  }
  in.keyword_is("accelerations");  // MBDyn reads the keyword and sends no accelerations
  // MBDyn's default is `all`, which needs a reference node; without one, the modal part.
  p.rigid = p.node != nullptr;
  p.modal = true;
  read_modal_type(in, p, true, "", "a `reference node`");
  if (!in.keyword_is("nodes number")) in.fail_expected("`nodes number`");
  const auto n = parser::checked_integer(
      in, [&](std::int64_t v) { return v >= 1 && std::size_t(v) <= in.arguments_left(); }, "a number of nodes >= 1");
  for (std::int64_t i = 0; i < n; ++i) mapping.nodes.push_back(&ctx.struct_node(in));
  if (!in.keyword_is("modes number")) in.fail_expected("`modes number`");
  int modes = -1;
  if (!in.keyword_is("from file"))
    modes = int(parser::checked_integer(in, [](std::int64_t v) { return v >= 1 && v <= 100000000; },
                                        "a number of modes >= 1 or `from file`"));
  mapping.H = read_mapping_matrix(in, modes, int(6 * n));
  p.mapping = std::move(mapping);
  auto e = std::make_unique<ExternalModalForce>(label, std::move(p));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "forces");
  ctx.model().add_element(std::move(e));
}

const bool registered = CardRegistry::family("force type").add("external structural", read_external_structural) &&
                        CardRegistry::family("force type").add("external modal", read_external_modal) &&
                        CardRegistry::family("force type").add("external structural mapping",
                                                               read_external_structural_mapping) &&
                        CardRegistry::family("force type").add("external modal mapping", read_external_modal_mapping);

}  // namespace
}  // namespace mbl::elements
