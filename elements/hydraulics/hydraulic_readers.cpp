// `hydraulic: <label>, <type>, <data> [, output, {yes|no}];` (input manual §8.11); the argument
// order and defaults are MBDyn 2024's (hydr/preselem.cc) where the manual is silent.
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "elements/hydraulics/accumulator.hpp"
#include "elements/hydraulics/actuator.hpp"
#include "elements/hydraulics/minor_losses.hpp"
#include "elements/hydraulics/pipes.hpp"
#include "elements/hydraulics/tank.hpp"
#include "elements/hydraulics/valves.hpp"
#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"

namespace mbl::elements::hydraulics {
namespace {

using parser::CardReader;
using parser::checked_real;

const PressureNode& pressure_node(CardReader& in, BuildContext& ctx) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  auto* n = dynamic_cast<PressureNode*>(ctx.find_node("hydraulic", label));
  if (!n) ctx.skip_if_depends_on_skipped(in, "hydraulic", label);
  if (!n) throw parser::InputError(at, fmt::format("expected a hydraulic node label, found {} (no such node)", label));
  return *n;
}

double positive(CardReader& in, const char* what) {
  return checked_real(in, [](double v) { return v > 0.0; }, fmt::format("a positive {}", what));
}
double non_negative(CardReader& in, const char* what) {
  return checked_real(in, [](double v) { return v >= 0.0; }, fmt::format("a non-negative {}", what));
}

void add(CardReader& in, BuildContext& ctx, std::unique_ptr<HydraulicElement> e) {
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "hydraulic elements");
  ctx.model().add_element(std::move(e));
}

void read_pipe(CardReader& in, BuildContext& ctx, unsigned label, bool dynamic) {
  PipeParams p;
  p.node1 = &pressure_node(in, ctx);
  p.node2 = &pressure_node(in, ctx);
  p.diameter = positive(in, "diameter");
  p.area = p.diameter * p.diameter * std::numbers::pi / 4.0;
  if (in.keyword_is("area")) p.area = positive(in, "area");
  p.length = positive(in, "length");
  p.turbulent = in.keyword_is("turbulent");
  if (in.keyword_is("initial value")) p.q0 = in.real();
  p.fluid = read_element_fluid(in, ctx);
  if (dynamic) add(in, ctx, std::make_unique<DynamicPipe>(label, std::move(p)));
  else add(in, ctx, std::make_unique<Pipe>(label, std::move(p)));
}

void read_minor_loss(CardReader& in, BuildContext& ctx, unsigned label) {
  const PressureNode& n1 = pressure_node(in, ctx);
  const PressureNode& n2 = pressure_node(in, ctx);
  const double k12 = non_negative(in, "loss coefficient k12");
  const double k21 = non_negative(in, "loss coefficient k21");
  const double area = positive(in, "area");
  add(in, ctx, std::make_unique<MinorLoss>(label, &n1, &n2, k12, k21, area, read_element_fluid(in, ctx)));
}

void read_three_way_minor_loss(CardReader& in, BuildContext& ctx, unsigned label) {
  const PressureNode& n0 = pressure_node(in, ctx);
  const PressureNode& n1 = pressure_node(in, ctx);
  const PressureNode& n2 = pressure_node(in, ctx);
  const double k12 = non_negative(in, "loss coefficient k12");
  const double k31 = non_negative(in, "loss coefficient k31");
  const double area1 = positive(in, "area");
  const double area2 = positive(in, "area");
  add(in, ctx,
      std::make_unique<ThreeWayMinorLoss>(label, &n0, &n1, &n2, k12, k31, area1, area2, read_element_fluid(in, ctx)));
}

void read_orifice(CardReader& in, BuildContext& ctx, unsigned label) {
  const PressureNode& n1 = pressure_node(in, ctx);
  const PressureNode& n2 = pressure_node(in, ctx);
  const double diameter = positive(in, "diameter");
  const double area_orifice = positive(in, "orifice area");
  // MBDyn's default pipe area is 0.785 d^2 (not pi/4 d^2).
  double area_pipe = diameter * diameter * 0.785;
  if (in.keyword_is("area")) area_pipe = positive(in, "pipe area");
  double Re_critical = 10.0;
  if (in.keyword_is("reynolds")) Re_critical = positive(in, "critical Reynolds number");
  const parser::SourceLocation at = in.location();
  auto fluid = read_element_fluid(in, ctx);
  try {
    add(in, ctx, std::make_unique<Orifice>(label, &n1, &n2, diameter, area_orifice, area_pipe, Re_critical, std::move(fluid)));
  } catch (const std::invalid_argument& e) {
    throw parser::InputError(at, e.what());
  }
}

void read_actuator(CardReader& in, BuildContext& ctx, unsigned label) {
  ActuatorParams p;
  p.hyd1 = &pressure_node(in, ctx);
  p.hyd2 = &pressure_node(in, ctx);
  p.node1 = &ctx.struct_node(in);
  p.offset1_N = in.position(p.node1->frame());
  p.node2 = &ctx.struct_node(in);
  p.offset2_N = in.position(p.node2->frame());
  if (in.keyword_is("direction")) {
    const parser::SourceLocation at = in.location();
    const Vec3 axis = in.direction(p.node1->frame());
    if (axis.norm() == 0.0) throw parser::InputError(at, "expected a non-zero direction, found a null vector");
    p.axis_N1 = axis.normalized();
  }
  p.area1 = positive(in, "area 1");
  p.area2 = positive(in, "area 2");
  p.length = positive(in, "cylinder length");
  p.fluid1 = read_element_fluid(in, ctx);
  p.fluid2 = in.keyword_is("same") ? p.fluid1 : read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<Actuator>(label, std::move(p)));
}

void read_control_valve(CardReader& in, BuildContext& ctx, unsigned label, bool flows_as_unknowns) {
  std::array<const PressureNode*, 4> nodes{};
  for (auto& n : nodes) n = &pressure_node(in, ctx);
  const double area_max = positive(in, "area");
  double loss = 0.0;
  if (in.keyword_is("loss")) loss = non_negative(in, "loss factor");
  DriveCallerPtr state = read_drive(in, ctx);
  auto fluid = read_element_fluid(in, ctx);
  if (flows_as_unknowns)
    add(in, ctx, std::make_unique<ControlValve2>(label, nodes, area_max, loss, std::move(state), std::move(fluid)));
  else
    add(in, ctx, std::make_unique<ControlValve>(label, nodes, area_max, loss, std::move(state), std::move(fluid)));
}

void read_flow_valve(CardReader& in, BuildContext& ctx, unsigned label) {
  FlowValveParams p;
  for (auto& n : p.nodes) n = &pressure_node(in, ctx);
  p.area_diaphragm = positive(in, "diaphragm area");
  p.mass = positive(in, "valve mass");
  p.area_pipe = positive(in, "pipe area");
  p.area_max = positive(in, "valve maximum area");
  p.stiffness = positive(in, "spring stiffness");
  p.preload = non_negative(in, "spring preload");
  p.width = positive(in, "width");
  p.stroke_max = non_negative(in, "maximum stroke");
  p.c_displacement = in.real();
  p.c_velocity = in.real();
  p.c_acceleration = in.real();
  p.fluid = read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<FlowValve>(label, std::move(p)));
}

// §8.11.4 and, with the two nodes of the valve body, §8.11.12 (pressure flow control valve).
void read_dynamic_control_valve(CardReader& in, BuildContext& ctx, unsigned label, bool body_nodes) {
  DynamicControlValveParams p;
  for (auto& n : p.nodes) n = &pressure_node(in, ctx);
  if (body_nodes)
    for (auto& n : p.body_nodes) n = &pressure_node(in, ctx);
  p.force = read_drive(in, ctx);
  p.start = body_nodes ? non_negative(in, "initial displacement") : in.real();
  p.stroke_max = non_negative(in, "maximum displacement");
  p.width = positive(in, "duct width");
  if (in.keyword_is("loss")) p.loss = non_negative(in, "loss factor");
  p.valve_diameter = positive(in, "valve diameter");
  p.valve_density = positive(in, "valve density");
  p.c_displacement = in.real();
  p.c_velocity = in.real();
  p.c_acceleration = in.real();
  p.fluid = read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<DynamicControlValve>(label, std::move(p)));
}

// MBDyn's tank (§8.11.14 undocumented): node_1, node_2, pressure, pipe area, tank area, maximum
// level [, startlevel, l] [, alarmlevel, l], <c> (MBDyn reads and ignores the alarm level and c).
void read_tank(CardReader& in, BuildContext& ctx, unsigned label) {
  TankParams p;
  for (auto& n : p.nodes) n = &pressure_node(in, ctx);
  p.pressure = positive(in, "tank pressure");
  p.area_pipe = positive(in, "pipe area");
  p.area_tank = positive(in, "tank area");
  p.level_max = non_negative(in, "maximum level");
  p.level_start = 0.5 * p.level_max;
  if (in.keyword_is("start level")) p.level_start = non_negative(in, "initial level");
  if (in.keyword_is("alarm level")) non_negative(in, "alarm level");
  in.real();
  p.fluid = read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<Tank>(label, std::move(p)));
}

void read_pressure_valve(CardReader& in, BuildContext& ctx, unsigned label) {
  PressureValveParams p;
  for (auto& n : p.nodes) n = &pressure_node(in, ctx);
  p.area_diaphragm = positive(in, "diaphragm area");
  p.mass = positive(in, "valve mass");
  p.area_max = positive(in, "valve maximum area");
  p.stroke_max = non_negative(in, "maximum stroke");
  p.stiffness = non_negative(in, "spring stiffness");
  p.preload = non_negative(in, "spring preload");
  p.width = positive(in, "width");
  p.c_displacement = in.real();
  p.c_velocity = in.real();
  p.c_acceleration = in.real();
  p.fluid = read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<PressureValve>(label, std::move(p)));
}

void read_accumulator(CardReader& in, BuildContext& ctx, unsigned label) {
  AccumulatorParams p;
  p.node = &pressure_node(in, ctx);
  p.stroke = positive(in, "stroke");
  if (in.keyword_is("start")) {
    const double stroke = p.stroke;
    p.start = checked_real(in, [stroke](double v) { return v <= stroke; }, "an initial position not beyond the stroke");
  }
  p.area = positive(in, "area");
  p.area_pipe = positive(in, "pipe area");
  p.mass = positive(in, "mass");
  if (in.keyword_is("loss in")) p.loss_in = non_negative(in, "loss in");
  if (in.keyword_is("loss out")) p.loss_out = non_negative(in, "loss out");
  if (in.keyword_is("gas")) {
    p.gas_p0 = positive(in, "gas pressure");
    p.gas_p_max = positive(in, "maximum gas pressure");
    p.gas_exponent = non_negative(in, "polytropic exponent");
  }
  if (in.keyword_is("weight")) p.weight = positive(in, "weight");
  if (in.keyword_is("spring")) {
    p.spring = non_negative(in, "spring stiffness");
    p.preload = non_negative(in, "spring preload");
  }
  p.c_displacement = in.real();
  p.c_velocity = in.real();
  p.c_acceleration = in.real();
  p.fluid = read_element_fluid(in, ctx);
  add(in, ctx, std::make_unique<Accumulator>(label, std::move(p)));
}

void read_hydraulic(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("hydraulic").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "hydraulic", "hydraulic element type");
}

const bool registered =
    CardRegistry::family("element").add("hydraulic", read_hydraulic) &&
    CardRegistry::family("hydraulic").add("pipe", [](CardReader& in, BuildContext& c, unsigned l) { read_pipe(in, c, l, false); }) &&
    CardRegistry::family("hydraulic").add("dynamic pipe",
                                          [](CardReader& in, BuildContext& c, unsigned l) { read_pipe(in, c, l, true); }) &&
    CardRegistry::family("hydraulic").add("minor loss", read_minor_loss) &&
    CardRegistry::family("hydraulic").add("three way minor loss", read_three_way_minor_loss) &&
    CardRegistry::family("hydraulic").add("orifice", read_orifice) &&
    CardRegistry::family("hydraulic").add("actuator", read_actuator) &&
    CardRegistry::family("hydraulic").add(
        "control valve", [](CardReader& in, BuildContext& c, unsigned l) { read_control_valve(in, c, l, false); }) &&
    CardRegistry::family("hydraulic").add(
        "control valve 2", [](CardReader& in, BuildContext& c, unsigned l) { read_control_valve(in, c, l, true); }) &&
    CardRegistry::family("hydraulic").add("flow valve", read_flow_valve) &&
    CardRegistry::family("hydraulic").add("accumulator", read_accumulator) &&
    CardRegistry::family("hydraulic").add("dynamic control valve",
                                          [](CardReader& in, BuildContext& c, unsigned l) {
                                            read_dynamic_control_valve(in, c, l, false);
                                          }) &&
    // MBDyn's keyword; the manual writes "pressure flow control valve".
    CardRegistry::family("hydraulic").add("pressure flow control", [](CardReader& in, BuildContext& c, unsigned l) {
      read_dynamic_control_valve(in, c, l, true);
    }) &&
    CardRegistry::family("hydraulic").add("pressure flow control valve",
                                          [](CardReader& in, BuildContext& c, unsigned l) {
                                            read_dynamic_control_valve(in, c, l, true);
                                          }) &&
    CardRegistry::family("hydraulic").add("pressure valve", read_pressure_valve) &&
    CardRegistry::family("hydraulic").add("tank", read_tank);

}  // namespace
}  // namespace mbl::elements::hydraulics
