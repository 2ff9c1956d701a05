// Thermal elements and their card: `thermal: <label>, <type>, <data> [, output, {yes|no}];`
// (input manual §8.18).
#include "elements/thermal/thermal_elements.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"

namespace mbl::elements::thermal {

void ThermalCapacitance::assemble(LocalAssembly& a, const StepContext&, bool) {
  a.reserve(1);
  a.add(node_.first_index(), AD(-capacitance_ * temperature_rate(a, node_)));
}

void ThermalResistance::assemble(LocalAssembly& a, const StepContext&, bool) {
  a.reserve(2);
  const AD T1 = temperature(a, node1_), T2 = temperature(a, node2_);
  const AD q21 = (T2 - T1) / resistance_;
  a.add(node1_.first_index(), q21);
  a.add(node2_.first_index(), AD(-q21));
}

void ThermalSource::assemble(LocalAssembly& a, const StepContext& c, bool) {
  a.reserve(0);
  a.add(node_.first_index(), a.constant(source_->value(c.t)));
}

namespace {

using parser::CardReader;

const AbstractNode& thermal_node(CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  auto* n = dynamic_cast<AbstractNode*>(ctx.find_node("thermal", label));
  if (!n) ctx.skip_if_depends_on_skipped(in, "thermal", label);
  if (!n) throw parser::InputError(at, fmt::format("expected a thermal node label, found {} (no such node)", label));
  return *n;
}

double positive(CardReader& in, const char* what) {
  return parser::checked_real(in, [](double v) { return v > 0.0; }, fmt::format("a positive {}", what));
}

void add(CardReader& in, BuildContext& ctx, std::unique_ptr<ThermalElement> e) {
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "thermal elements");
  ctx.model().add_element(std::move(e));
}

void read_capacitance(CardReader& in, BuildContext& ctx, unsigned label) {
  const AbstractNode& n = thermal_node(in, ctx);
  add(in, ctx, std::make_unique<ThermalCapacitance>(label, n, positive(in, "thermal capacitance")));
}

void read_resistance(CardReader& in, BuildContext& ctx, unsigned label) {
  const AbstractNode& n1 = thermal_node(in, ctx);
  const AbstractNode& n2 = thermal_node(in, ctx);
  add(in, ctx, std::make_unique<ThermalResistance>(label, n1, n2, positive(in, "thermal resistance")));
}

void read_source(CardReader& in, BuildContext& ctx, unsigned label) {
  const AbstractNode& n = thermal_node(in, ctx);
  add(in, ctx, std::make_unique<ThermalSource>(label, n, read_drive(in, ctx)));
}

void read_thermal(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("thermal").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "thermal", "thermal element type");
}

const bool registered = CardRegistry::family("element").add("thermal", read_thermal) &&
                        CardRegistry::family("thermal").add("capacitance", read_capacitance) &&
                        CardRegistry::family("thermal").add("resistance", read_resistance) &&
                        CardRegistry::family("thermal").add("source", read_source);

}  // namespace
}  // namespace mbl::elements::thermal
