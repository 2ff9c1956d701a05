// Scalar nodes: abstract (§6.1), electric (§6.2), parameter (§6.4) and thermal (§6.6) nodes, their
// readers and outputs.
#include "elements/nodes/abstract_node.hpp"
#include "elements/nodes/parameter_node.hpp"
#include "elements/nodes/node_scale.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/output_flag.hpp"

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

void ParameterNode::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Prm)) {
    out.write_label(*os, label());
    out.write(*os, value());
    *os << '\n';
  }
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

void read_parameter(CardReader& in, BuildContext& ctx, unsigned label) {
  double value = 0.0;
  // `sample'n'hold` and `strain gage` are MBDyn 2024's other spellings (dataman3.cc ReadNodes).
  // (Named from the list: `sample'n'hold` is no keyword token of ours, its apostrophes aside.)
  for (const char* other : {"sample and hold", "sample'n'hold", "beam strain gage", "strain gage"})
    if (in.peek_keyword_is(other))
      return in.not_implemented(std::string("parameter node \"") + other + "\" (input manual §6.4)");
  // `element`: bound later by a `bind` card; otherwise an optional constant value.
  if (!in.keyword_is("element") && in.keyword_is("value")) value = in.real();
  auto n = std::make_unique<ParameterNode>(label, value);
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
