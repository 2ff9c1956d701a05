// `electric: <label>, <type>, <data> [, output, {yes|no}];` (input manual §8.7); arguments and
// checks as MBDyn 2024's reader (elec/elec.cc) where the manual is silent.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "elements/electric/accelerometers.hpp"
#include "elements/electric/discrete_control.hpp"
#include "elements/electric/displacement_measure.hpp"
#include "elements/electric/motor.hpp"
#include "elements/input/drive_input.hpp"
#include "elements/input/file_path.hpp"
#include "elements/input/unit_direction.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/size_limits.hpp"
#include "parser/errors.hpp"

namespace mbl::elements::electric {
namespace {

using parser::CardReader;
using parser::checked_real;

/// A differential scalar node of `kind` ("abstract": MBDyn's ScalarDifferentialNode of the
/// accelerometers and the displacement; "electric": the motor's terminals).
const AbstractNode& scalar_node(CardReader& in, BuildContext& ctx, std::string_view kind) {
  const parser::SourceLocation at = in.location();
  const unsigned label = in.label();
  auto* n = dynamic_cast<AbstractNode*>(ctx.find_node(kind, label));
  if (!n) ctx.skip_if_depends_on_skipped(in, kind, label);
  if (!n) throw parser::InputError(at, fmt::format("expected an {} node label, found {} (no such node)", kind, label));
  if (!n->differential())
    throw parser::InputError(at, fmt::format("expected a differential {} node, found algebraic node {}", kind, label));
  return *n;
}

void add(CardReader& in, BuildContext& ctx, std::unique_ptr<Element> e) {
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "electric elements");
  ctx.model().add_element(std::move(e));
}

void read_accelerometer(CardReader& in, BuildContext& ctx, unsigned label) {
  const bool translational = in.keyword_is("translational");
  const bool rotational = !translational && in.keyword_is("rotational");
  AccelerometerParams p;
  p.node = &ctx.struct_node(in);
  p.output = &scalar_node(in, ctx, "abstract");
  p.direction_N = read_unit_direction(in, *p.node);
  if (translational || rotational) {
    // MBDyn reads the translational accelerometer's position even without the keyword.
    if (in.keyword_is("position") || in.keyword_is("offset") || translational) p.position_N = in.position(p.node->frame());
    using K = Accelerometer::Kind;
    return add(in, ctx, std::make_unique<Accelerometer>(label, translational ? K::Translational : K::Rotational, p));
  }
  FilteredAccelerometerParams f;
  f.measure = p;
  f.omega = checked_real(in, [](double v) { return v > 0.; }, "a positive omega");
  f.tau = checked_real(in, [](double v) { return v > 0.; }, "a positive tau");
  f.csi = checked_real(in, [](double v) { return v > 0. && v <= 1.; }, "a csi in (0, 1]");
  f.kappa = checked_real(in, [](double v) { return v != 0.; }, "a nonzero kappa");
  add(in, ctx, std::make_unique<FilteredAccelerometer>(label, f));
}

void read_displacement(CardReader& in, BuildContext& ctx, unsigned label) {
  DisplacementMeasureParams p;
  p.node1 = &ctx.struct_node(in);
  in.keyword_is("position");
  p.offset1_N = in.position(p.node1->frame());
  p.node2 = &ctx.struct_node(in);
  in.keyword_is("position");
  p.offset2_N = in.position(p.node2->frame());
  p.output = &scalar_node(in, ctx, "abstract");
  add(in, ctx, std::make_unique<DisplacementMeasure>(label, p));
}

/// The motor frame from its axis alone (MBDyn's backward-compatible form): e3 the axis, e1 the
/// normalised e_k x e3 of largest norm, e2 = e3 x e1.
Mat3 frame_about_axis(const Vec3& e3) {
  Vec3 e1 = Vec3::Zero();
  double e1_norm = -1.;
  for (int k = 0; k < 3; ++k) {
    const Vec3 t = Vec3::Unit(k).cross(e3);
    if (t.norm() > e1_norm) e1 = t, e1_norm = t.norm();
  }
  e1 /= e1_norm;
  Mat3 R;
  R << e1, e3.cross(e1).normalized(), e3;
  return R;
}

void read_motor(CardReader& in, BuildContext& ctx, unsigned label) {
  MotorParams p;
  p.node1 = &ctx.struct_node(in);
  p.node2 = &ctx.struct_node(in);
  const bool oriented = in.keyword_is("orientation");
  p.Rn_N1 = oriented ? in.orientation(p.node1->frame()) : frame_about_axis(read_unit_direction(in, *p.node1));
  p.elec1 = &scalar_node(in, ctx, "electric");
  p.elec2 = &scalar_node(in, ctx, "electric");
  p.gain = in.real();
  p.inductance = checked_real(in, [](double v) { return v != 0.; }, "a nonzero inductance");
  p.resistance = read_drive(in, ctx);
  if (in.keyword_is("initial current")) p.i0 = in.real();
  if (in.keyword_is("M0")) p.cogging_M0 = read_drive(in, ctx);
  if (in.keyword_is("M1")) p.cogging_M1 = read_drive(in, ctx);
  if (p.cogging_M0 || p.cogging_M1) {
    if (!oriented) throw parser::InputError(in.location(), "expected the motor's orientation for M0 and M1, found its axis only");
    if (!in.keyword_is("terminal pairs"))
      throw parser::InputError(in.location(), fmt::format("expected \"terminal pairs\", found \"{}\"", in.peek_text()));
    const parser::SourceLocation at = in.location();
    const auto pairs = in.integer();
    if (pairs < 1) throw parser::InputError(at, fmt::format("expected a positive number of terminal pairs, found {}", pairs));
    p.terminal_pairs = static_cast<int>(pairs);
  }
  add(in, ctx, std::make_unique<Motor>(label, std::move(p)));
}

int read_count(CardReader& in, std::string_view what) {
  return static_cast<int>(
      parser::checked_integer(in, [](std::int64_t n) { return n >= 1; }, "a positive " + std::string(what)));
}

/// The control matrices file: A_1 ... A_q (inputs x outputs each), then B_1 ... B_p (inputs x
/// inputs each), numbers separated by blanks, row by row.
void read_control_matrices(const parser::SourceLocation& at, const std::string& path, DiscreteControlParams& p) {
  std::ifstream file(path);
  if (!file) throw parser::InputError(at, fmt::format("expected a readable control data file, found \"{}\"", path));
  const Eigen::Index nu = Eigen::Index(p.inputs.size()), ny = Eigen::Index(p.outputs.size());
  // The orders come from the card: a file too small for the matrices is refused before they are sized.
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  const Eigen::Index values = nu * (Eigen::Index{p.order_A} * ny + Eigen::Index{p.order_B} * nu);
  if (!ec && !parser::text_can_hold(bytes, values))
    throw parser::InputError(at, fmt::format("expected the {} values of the control matrices in \"{}\", found a file of {} bytes",
                                             values, path, bytes));
  p.A.resize(nu, p.order_A * ny);
  p.B.resize(nu, p.order_B * nu);
  for (auto* m : {&p.A, &p.B}) {
    const Eigen::Index block = m == &p.A ? ny : nu;
    for (Eigen::Index k = 0; k < m->cols() / block; ++k)
      for (Eigen::Index i = 0; i < nu; ++i)
        for (Eigen::Index j = 0; j < block; ++j)
          if (!(file >> (*m)(i, k * block + j)))
            throw parser::InputError(at, fmt::format("expected {}_{}({},{}) in control data file \"{}\", found its end",
                                                     m == &p.A ? "A" : "B", k + 1, i + 1, j + 1, path));
  }
}

void read_discrete_control(CardReader& in, BuildContext& ctx, unsigned label) {
  DiscreteControlParams p;
  const int outputs = read_count(in, "number of outputs");
  const int inputs = read_count(in, "number of inputs");
  p.order_A = p.order_B = read_count(in, "order");
  if (in.keyword_is("fir")) p.order_B = read_count(in, "fir order");
  p.update_every = read_count(in, "number of iterations between updates");
  if (in.peek_keyword_is("identification") || in.peek_keyword_is("adaptive control"))
    return in.not_implemented("discrete control \"" + in.keyword() + "\"");
  if (!in.keyword_is("control")) in.fail_expected("\"control\"");
  const parser::SourceLocation file_at = in.location();
  const std::string path = resolve_path(file_at, parser::read_file_name(in));
  if (!in.keyword_is("outputs")) in.fail_expected("\"outputs\"");
  for (int k = 0; k < outputs; ++k) {
    ControlMeasure m{read_genel_input(in, ctx), nullptr};
    m.scale = in.keyword_is("scale") ? read_drive(in, ctx) : std::make_shared<ConstDrive>(1.0);
    p.outputs.push_back(std::move(m));
  }
  if (!in.keyword_is("inputs")) in.fail_expected("\"inputs\"");
  for (int k = 0; k < inputs; ++k) p.inputs.push_back(read_node_dof(in, ctx));
  read_control_matrices(file_at, path, p);
  add(in, ctx, std::make_unique<DiscreteControl>(label, std::move(p)));
}

void read_electric(CardReader& in, BuildContext& ctx, unsigned label) {
  if (const CardReaderFn* reader = CardRegistry::family("electric").match_keyword(in)) return (*reader)(in, ctx, label);
  kinds::reject(in, "electric", "electric element type");
}

const bool registered = CardRegistry::family("element").add("electric", read_electric) &&
                        CardRegistry::family("electric").add("accelerometer", read_accelerometer) &&
                        CardRegistry::family("electric").add("displacement", read_displacement) &&
                        CardRegistry::family("electric").add("motor", read_motor) &&
                        CardRegistry::family("electric").add("discrete control", read_discrete_control);

}  // namespace
}  // namespace mbl::elements::electric
