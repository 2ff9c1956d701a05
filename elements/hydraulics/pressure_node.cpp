// Hydraulic node card (input manual §6.3): `hydraulic: <label> [, value], <initial pressure>
// [, output, {yes|no}];`.
#include "elements/hydraulics/pressure_node.hpp"

#include "mbdyn-like/core/card_registry.hpp"
#include "parser/output_flag.hpp"

namespace mbl::elements::hydraulics {

void PressureNode::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (std::ostream* os = out.text(OutputFile::Prs)) {
    out.write_label(*os, label());
    out.write(*os, p_);
    *os << '\n';
  }
}

namespace {

void read_pressure_node(parser::CardReader& in, BuildContext& ctx, unsigned label) {
  double p0 = 0.0;
  // MBDyn's scalar nodes also accept the value without the `value` keyword.
  const bool value = in.keyword_is("value");
  if (value || (!in.at_end() && !in.peek_keyword_is("output"))) p0 = in.real();
  auto n = std::make_unique<PressureNode>(label, p0);
  n->where = in.card_location();
  n->set_output_enabled(ctx.output_defaults().enabled("hydraulic nodes"));
  if (in.keyword_is("output"))
    if (const auto out = parser::output_flag(in)) n->set_output_enabled(*out);
  ctx.model().add_node(std::move(n));
}

const bool registered = CardRegistry::family("node").add("hydraulic", read_pressure_node);

}  // namespace
}  // namespace mbl::elements::hydraulics
