// Scalar nodes: abstract (§6.1), electric (§6.2), parameter (§6.4) and thermal (§6.6) nodes, their
// readers and outputs.
#include "elements/nodes/abstract_node.hpp"
#include "elements/nodes/parameter_node.hpp"
#include "elements/nodes/node_scale.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/errors.hpp"
#include "parser/output_flag.hpp"

#include <fmt/format.h>

namespace mbl::elements {

void AbstractNode::initial_state(Vector& y, Vector& yp) const {
  y[first_index()] = x0_;
  yp[first_index()] = differential_ ? xp0_ : 0.0;
}

void AbstractNode::update(const Vector& y, const Vector& yp) {
  x_ = y[first_index()];
  xp_ = differential_ ? yp[first_index()] : 0.0;
}

void AbstractNode::output(OutputSink& out) const {
  if (!output_enabled()) return;
  // .abs (.thn): label, value [, derivative when differential].
  if (std::ostream* os = out.text(file_)) {
    out.write_label(*os, label());
    out.write(*os, x_);
    if (differential_) out.write(*os, xp_);
    *os << '\n';
  }
}

namespace {
void write_parameter(OutputSink& out, unsigned label, double value) {
  if (std::ostream* os = out.text(OutputFile::Prm)) {
    out.write_label(*os, label);
    out.write(*os, value);
    *os << '\n';
  }
}
}  // namespace

void ParameterNode::output(OutputSink& out) const {
  if (output_enabled()) write_parameter(out, label(), value());
}

void SampleAndHoldNode::output(OutputSink& out) const {
  if (output_enabled()) write_parameter(out, label(), value());
}

namespace {

using parser::CardReader;

void read_output_option(CardReader& in, Node& n) {
  if (!in.keyword_is("output")) return;
  if (const auto out = parser::output_flag(in)) n.set_output_enabled(*out);
}

/// `<kind>: <label> [, {differential|algebraic}] [, [value,] <x0> [, derivative, <xp0>]]`; the
/// electric and thermal nodes read the same card as the abstract node, without the order (MBDyn
/// reads all three as scalar differential nodes).
void read_scalar_node(CardReader& in, BuildContext& ctx, unsigned label, std::string_view kind, OutputFile file,
                      const char* output_family) {
  bool differential = true;
  // Only the abstract node may be algebraic (§6.1); electric and thermal nodes are differential.
  if (kind == "abstract") {
    if (in.keyword_is("algebraic")) differential = false;
    else in.keyword_is("differential");
  }
  double x0 = 0.0, xp0 = 0.0;
  // `[value,] x0 [, derivative, xp0]`: MBDyn also reads the older form without `value`.
  const bool value = in.keyword_is("value");
  if (value || (!in.at_end() && !in.peek_keyword_is("output") && !in.peek_keyword_is("derivative") &&
                !in.peek_keyword_is("scale")))
    x0 = in.real();
  if (in.keyword_is("derivative")) xp0 = in.real();
  if (in.keyword_is("scale")) read_node_scale(in);
  auto n = std::make_unique<AbstractNode>(label, differential, x0, xp0, kind, file);
  n->where = in.card_location();
  n->set_output_enabled(ctx.output_defaults().enabled(output_family));
  read_output_option(in, *n);
  ctx.model().add_node(std::move(n));
}

/// MBDyn's ReadScalarDof without dof order (dataman3.cc): `<node label>, <node type>` and, for
/// a node with several unknowns (structural), the 1-based index of one; the datum it reads.
std::pair<const parser::PrivateDataOwner*, unsigned> read_scalar_dof_value(CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation label_at = in.location();
  const unsigned node_label = in.label();
  const std::string type = in.keyword();
  const Node* node = ctx.model().find_node(type, node_label);
  if (!node) ctx.skip_if_depends_on_skipped(in, type, node_label);
  if (!node) throw parser::InputError(label_at, fmt::format("expected an existing node, found no {} node {}", type, node_label));
  if (type != "structural") return {node, node->private_data_index("x")};
  const parser::SourceLocation index_at = in.location();
  const std::int64_t i = in.integer();
  if (i < 1 || i > 6)
    throw parser::InputError(index_at, fmt::format("expected a dof index in [1, 6] of structural node {}, found {}", node_label, i));
  // StructNode::dGetDofValue (strnode.cc): "unable to return angles" for dofs 4-6 of order 0.
  if (i > 3)
    throw parser::InputError(index_at, fmt::format("expected a position dof in [1, 3] of structural node {} (MBDyn "
                                                   "cannot return its angles), found {}", node_label, i));
  return {node, node->private_data_index(fmt::format("X[{}]", i))};
}

void read_parameter(CardReader& in, BuildContext& ctx, unsigned label) {
  double value = 0.0;
  // `sample and hold` (alias `sample'n'hold`), dataman3.cc ReadNodes: <scalar dof>, <period>.
  if (in.keyword_is("sample and hold") || in.keyword_is("sample'n'hold")) {
    const auto [source, index] = read_scalar_dof_value(in, ctx);
    const double period = parser::checked_real(in, [](double T) { return T > 0.0; }, "a sample period > 0");
    auto n = std::make_unique<SampleAndHoldNode>(label, *source, index, period, ctx.model().drive_env().time);
    n->where = in.card_location();
    n->set_output_enabled(ctx.output_defaults().enabled("parameter nodes"));
    read_output_option(in, *n);
    ctx.model().add_node(std::move(n));
    return;
  }
  // `beam strain gage` (alias `strain gage`, deprecated): <y>, <z>; bound by a `bind` card.
  const bool gage = in.keyword_is("beam strain gage") || in.keyword_is("strain gage");
  double gage_y = 0.0, gage_z = 0.0;
  if (gage) {
    gage_y = in.real();
    gage_z = in.real();
  }
  // `element`: bound later by a `bind` card; otherwise an optional constant value.
  if (!gage && !in.keyword_is("element") && in.keyword_is("value")) value = in.real();
  auto n = std::make_unique<ParameterNode>(label, value);
  if (gage) n->set_strain_gage(gage_y, gage_z);
  n->where = in.card_location();
  n->set_output_enabled(ctx.output_defaults().enabled("parameter nodes"));
  read_output_option(in, *n);
  ctx.model().add_node(std::move(n));
}

const bool registered =
    CardRegistry::family("node").add("abstract",
                                     [](CardReader& in, BuildContext& c, unsigned l) {
                                       read_scalar_node(in, c, l, "abstract", OutputFile::Abs, "abstract nodes");
                                     }) &&
    CardRegistry::family("node").add("electric",
                                     [](CardReader& in, BuildContext& c, unsigned l) {
                                       read_scalar_node(in, c, l, "electric", OutputFile::Abs, "electric nodes");
                                     }) &&
    CardRegistry::family("node").add("thermal",
                                     [](CardReader& in, BuildContext& c, unsigned l) {
                                       read_scalar_node(in, c, l, "thermal", OutputFile::Thn, "thermal nodes");
                                     }) &&
    CardRegistry::family("node").add("parameter", read_parameter);

}  // namespace
}  // namespace mbl::elements
