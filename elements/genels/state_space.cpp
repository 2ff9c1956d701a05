#include "elements/genels/state_space.hpp"

#include <fmt/format.h>

#include "elements/input/drive_input.hpp"
#include "mbdyn-like/core/model.hpp"
#include "parser/errors.hpp"

namespace mbl::elements {

StateSpaceGenel::StateSpaceGenel(unsigned label, StateSpaceParams p, std::string type)
    : Element(label), p_(std::move(p)), type_(std::move(type)) {}

void StateSpaceGenel::setup(Model& model) { env_ = &model.drive_env(); }

void StateSpaceGenel::initial_state(Vector& y, Vector& yp) const {
  const int n = dof_count();
  if (p_.x0.size()) y.segment(first_index(), n) = p_.x0;
  if (p_.xp0.size()) yp.segment(first_index(), n) = p_.xp0;
  // Without E, MBDyn's GenelStateSpaceSISO/MIMO::SetValue (elec/genfilt.cc) starts the state's
  // derivative at A x + B u, the inputs' initial values (a given derivative is replaced), so the
  // state equations hold from the start.
  if (!p_.E.size()) {
    StepContext c;
    c.t = env_ ? env_->time : 0.0;
    c.y = &y;
    c.yp = &yp;
    const Vector x = y.segment(first_index(), n);
    yp.segment(first_index(), n) = p_.A * x + p_.B * inputs(c);
  }
}

Vector StateSpaceGenel::inputs(const StepContext& c) const {
  Vector u(p_.inputs.size());
  for (std::size_t j = 0; j < p_.inputs.size(); ++j) u[j] = p_.inputs[j].value(c);
  return u;
}

// State rows: r_x = A x + B u - E x'; output rows: r_y = C x + D u - y.
void StateSpaceGenel::residual(ResidualSink& r, const StepContext& c) {
  const int n = dof_count();
  const Vector x = c.y->segment(first_index(), n), xp = c.yp->segment(first_index(), n);
  const Vector u = inputs(c);
  Vector r_x = p_.A * x + p_.B * u;
  r_x -= p_.E.size() ? Vector(p_.E * xp) : xp;
  r.add(first_index(), r_x);
  Vector y_model = p_.C * x;
  if (p_.D.size()) y_model += p_.D * u;
  for (std::size_t i = 0; i < p_.outputs.size(); ++i)
    r.add(p_.outputs[i].equation(), y_model[i] - p_.outputs[i].value(c));
}

// J = -(dr/dy' + dCoef dr/dy) for the state, as MBDyn's GenelStateSpaceSISO/MIMO::AssJac
// (elec/genfilt.cc) writes it elsewhere: the Newton iterates, and so the converged states within
// the tolerance, follow MBDyn's matrix. It puts the input columns of the state rows as +B times
// dCoef (the value of a node dof) or 1 (its derivative), the opposite sign of dr/du, and leaves
// out the feedthrough D. On each output's own column MBDyn puts dCoef, right for the
// differential nodes its decks use; an algebraic output node gets 1 here (with dCoef its Newton
// update would be 1/dCoef times too large). Inputs from drives contribute nothing.
void StateSpaceGenel::jacobian(JacobianSink& J, const StepContext& c) {
  const int n = dof_count(), i0 = first_index();
  Matrix J_xx = -c.dCoef * p_.A;
  if (p_.E.size()) J_xx += p_.E;
  else J_xx.diagonal().array() += 1.0;
  J.add(i0, i0, J_xx);
  for (std::size_t j = 0; j < p_.inputs.size(); ++j) {
    if (!p_.inputs[j].dof) continue;
    const NodeDof& u = *p_.inputs[j].dof;
    const double cu = u.differential ? 1.0 : c.dCoef;
    for (int k = 0; k < n; ++k) J.add(i0 + k, u.unknown(), p_.B(k, j) * cu);
  }
  for (std::size_t i = 0; i < p_.outputs.size(); ++i) {
    const NodeDof& y = p_.outputs[i];
    for (int k = 0; k < n; ++k) J.add(y.equation(), i0 + k, -c.dCoef * p_.C(i, k));
    J.add(y.equation(), y.unknown(), y.update_coef(c.dCoef));
  }
}

GenelInput read_genel_input(parser::CardReader& in, BuildContext& ctx) {
  GenelInput u;
  if (in.keyword_is("drive")) {
    u.drive = read_drive(in, ctx);
  } else {
    in.keyword_is("node dof");
    u.dof = read_node_dof(in, ctx);
  }
  return u;
}

namespace {

using parser::CardReader;

/// The sizes come from the card: the values must be there before the storage is taken.
void require_values(CardReader& in, Eigen::Index n, const std::string& what) {
  if (static_cast<std::size_t>(n) > in.arguments_left())
    in.fail_expected(fmt::format("the {} values of {}", n, what));
}

Matrix read_matrix(CardReader& in, std::string_view name, Eigen::Index rows, Eigen::Index cols) {
  if (!in.keyword_is(name)) in.fail_expected(fmt::format("\"{}\"", name));
  require_values(in, rows * cols, fmt::format("{} ({} x {})", name, rows, cols));
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = in.real();
  return m;
}

Vector read_vector(CardReader& in, Eigen::Index n) {
  require_values(in, n, fmt::format("a vector of {}", n));
  Vector v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = in.real();
  return v;
}

int read_count(CardReader& in, std::string_view what) {
  return static_cast<int>(
      parser::checked_integer(in, [](std::int64_t n) { return n >= 1; }, "a positive " + std::string(what)));
}

// Balancing (LAPACK dgebal/dggbal) is a similarity transformation of the state: it does not
// change the input/output behaviour, so the keyword is accepted and the state kept as given.
void read_balance(CardReader& in) {
  if (in.keyword_is("balance") && !in.keyword_is("yes") && !in.keyword_is("no")) in.fail_expected("\"yes\" or \"no\"");
}

// Common tail of both cards, from <state_order> on.
void read_state_space_matrices(CardReader& in, StateSpaceParams& p) {
  const Eigen::Index n = read_count(in, "state order");
  const Eigen::Index m = p.inputs.size(), q = p.outputs.size();
  if (in.peek_keyword_is("matrix E")) p.E = read_matrix(in, "matrix E", n, n);
  p.A = read_matrix(in, "matrix A", n, n);
  p.B = read_matrix(in, "matrix B", n, m);
  p.C = read_matrix(in, "matrix C", q, n);
  if (in.peek_keyword_is("matrix D")) p.D = read_matrix(in, "matrix D", q, m);
  if (in.keyword_is("gain")) {
    const double gain = in.real();
    p.C *= gain;
    p.D *= gain;
  }
  read_balance(in);
  if (in.keyword_is("value")) {
    p.x0 = read_vector(in, n);
    if (in.keyword_is("derivative")) p.xp0 = read_vector(in, n);
  }
}

void add_state_space(CardReader& in, BuildContext& ctx, unsigned label, StateSpaceParams p, std::string type) {
  auto e = std::make_unique<StateSpaceGenel>(label, std::move(p), std::move(type));
  e->where = in.card_location();
  ctx.read_output_flag(in, *e, "genels");
  ctx.model().add_element(std::move(e));
}

void read_siso(CardReader& in, BuildContext& ctx, unsigned label) {
  StateSpaceParams p;
  p.outputs.push_back(read_node_dof(in, ctx));
  p.inputs.push_back(read_genel_input(in, ctx));
  read_state_space_matrices(in, p);
  add_state_space(in, ctx, label, std::move(p), "state space SISO");
}

void read_mimo(CardReader& in, BuildContext& ctx, unsigned label) {
  StateSpaceParams p;
  const int q = read_count(in, "number of outputs");
  for (int i = 0; i < q; ++i) p.outputs.push_back(read_node_dof(in, ctx));
  const int m = read_count(in, "number of inputs");
  for (int j = 0; j < m; ++j) p.inputs.push_back(read_genel_input(in, ctx));
  read_state_space_matrices(in, p);
  add_state_space(in, ctx, label, std::move(p), "state space MIMO");
}

/// `scalar filter` (§8.9): y(s) = B(s)/A(s) u(s) with A monic of order nd and B of order nn <= nd,
/// realised in the controllable (default) or observable canonical form. A proper filter
/// (nn = nd) is made strictly proper, B - b0 A, with the feedthrough D = b0; `gain` scales B.
void read_scalar_filter(CardReader& in, BuildContext& ctx, unsigned label) {
  StateSpaceParams p;
  p.outputs.push_back(read_node_dof(in, ctx));
  p.inputs.push_back(read_genel_input(in, ctx));
  bool observable = false;
  if (in.keyword_is("canonical form")) {
    if (in.keyword_is("observable")) observable = true;
    else if (!in.keyword_is("controllable")) in.fail_expected("\"controllable\" or \"observable\"");
  }
  const auto order = [&in](std::string_view what) {
    return static_cast<Eigen::Index>(
        parser::checked_integer(in, [](std::int64_t n) { return n >= 0; }, "a non-negative " + std::string(what)));
  };
  const Eigen::Index nd = order("output order");
  const Vector a = read_vector(in, nd);  // a_1 .. a_nd
  const parser::SourceLocation nn_at = in.location();
  const Eigen::Index nn = order("input order");
  if (nn > nd)
    throw parser::InputError(nn_at, fmt::format("expected an input order at most the output order {} (a proper "
                                                "filter), found {}", nd, nn));
  Vector b = Vector::Zero(nd + 1);  // b_0 .. b_nd of B(s) written with order nd
  b.tail(nn + 1) = read_vector(in, nn + 1);
  if (in.keyword_is("gain")) b *= in.real();
  read_balance(in);
  const double b0 = b[0];
  const Vector c = b.tail(nd) - b0 * a;  // numerator of the strictly proper part
  // e_1 (input of the controllable form, output of the observable one); none for a pure gain.
  Vector e1 = Vector::Zero(nd);
  if (nd > 0) e1[0] = 1.0;
  p.A = Matrix::Zero(nd, nd);
  if (observable) {
    if (nd > 0) p.A.col(0) = -a, p.A.topRightCorner(nd - 1, nd - 1).setIdentity();
    p.B = c;
    p.C = e1.transpose();
  } else {
    if (nd > 0) p.A.row(0) = -a.transpose(), p.A.bottomLeftCorner(nd - 1, nd - 1).setIdentity();
    p.B = e1;
    p.C = c.transpose();
  }
  if (b0 != 0.0) p.D = Matrix::Constant(1, 1, b0);
  add_state_space(in, ctx, label, std::move(p), "scalar filter");
}

const bool registered = CardRegistry::family("genel").add("state space SISO", read_siso) &&
                        CardRegistry::family("genel").add("state space MIMO", read_mimo) &&
                        CardRegistry::family("genel").add("scalar filter", read_scalar_filter);

}  // namespace
}  // namespace mbl::elements
