#include "mbdyn-like/model/model_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

#include "elements/beams/beam_custom_output.hpp"
#include "elements/drives/drive_reader.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "mbdyn-like/core/orientation_output.hpp"
#include "mbdyn-like/output/dof_stats.hpp"
#include "parser/deck/deck_reader.hpp"
#include "parser/errors.hpp"
#include "parser/size_limits.hpp"

namespace mbl {
namespace {

using parser::CardReader;

/// `control data` and `initial value` cards: description -> reader into RunSettings.
using SettingsCard = std::function<void(CardReader&, RunSettings&, BuildContext&)>;

integrators::ConvergenceTest read_test(CardReader& in) {
  using T = integrators::ConvergenceTest;
  if (in.keyword_is("none")) return T::None;
  if (in.keyword_is("norm")) return T::Norm;
  if (in.keyword_is("minmax")) return T::MinMax;
  if (in.keyword_is("relnorm")) return T::RelNorm;
  if (in.keyword_is("sepnorm")) return T::SepNorm;
  in.fail_expected("a test (none, norm, minmax, relnorm, sepnorm)");
  __builtin_unreachable();  // fail_expected throws (a virtual [[noreturn]] GCC cannot see through)
}

/// `tolerance: {null | r} [, test, t [, scale]] [, {null | s} [, test, t [, scale]]];`
void read_tolerance(CardReader& in, integrators::NewtonOptions& o) {
  o.residual_tolerance = in.keyword_is("null") ? 0.0 : in.real();
  if (in.keyword_is("test")) {
    o.residual_test = read_test(in);
    in.keyword_is("scale");
  }
  if (in.at_end()) return;
  o.solution_tolerance = in.keyword_is("null") ? 0.0 : in.real();
  if (in.keyword_is("test")) {
    o.solution_test = read_test(in);
    in.keyword_is("scale");
  }
}

/// `strategy: no change | factor, <reduction>, <steps before reduction>, <raise>,
/// <steps before raise>, <min iterations> [, <max iterations>] | change, <drive caller>;`
/// (input manual §4.1.1 "Strategy").
void read_strategy(CardReader& in, RunSettings& s, BuildContext& ctx) {
  using Kind = integrators::StepStrategy::Kind;
  integrators::StepStrategy& st = s.strategy;
  const parser::SourceLocation at = in.location();
  if (in.keyword_is("no change")) {
    st.kind = Kind::NoChange;
  } else if (in.keyword_is("factor")) {
    st.kind = Kind::Factor;
    st.reduction_factor = in.real();
    if (!(st.reduction_factor > 0.0 && st.reduction_factor < 1.0))
      in.fail_expected("a reduction factor in (0, 1)");
    st.steps_before_reduction = static_cast<int>(in.integer());
    st.raise_factor = in.real();
    if (!(st.raise_factor >= 1.0)) in.fail_expected("a raise factor >= 1");
    st.steps_before_raise = static_cast<int>(in.integer());
    st.min_iterations = static_cast<int>(in.integer());
    st.max_iterations = in.at_end() ? -1 : static_cast<int>(in.integer());
  } else if (in.keyword_is("change")) {
    st.kind = Kind::Change;
    DriveCallerPtr d = drives::read_drive_caller(in, ctx.model().drive_env());
    st.time_step = [d](double t) { return d->value(t); };
  } else if (in.keyword_is("error control")) {
    // Ours (docs/adaptive.md): `error control, <rtol> [, <atol>] [, safety, <s>]
    // [, max growth, <g>] [, max shrink, <r>] [, per step] [, global]`.
    if (const std::string why = integrators::error_control_refusal(s.method); !why.empty())
      throw parser::InputError(at, why);
    st.kind = Kind::ErrorControl;
    st.relative_tolerance = in.real();
    if (!(st.relative_tolerance > 0.0)) in.fail_expected("a positive relative tolerance");
    if (!in.at_end() && !in.peek_keyword_is("safety") && !in.peek_keyword_is("max growth") &&
        !in.peek_keyword_is("max shrink") && !in.peek_keyword_is("per step") && !in.peek_keyword_is("global")) {
      st.absolute_tolerance = in.real();
      if (!(st.absolute_tolerance >= 0.0)) in.fail_expected("a non-negative absolute tolerance");
    }
    while (!in.at_end()) {
      if (in.keyword_is("safety")) {
        st.safety = in.real();
        if (!(st.safety > 0.0 && st.safety <= 1.0)) in.fail_expected("a safety factor in (0, 1]");
      } else if (in.keyword_is("max growth")) {
        st.max_growth = in.real();
        if (!(st.max_growth >= 1.0)) in.fail_expected("a max growth >= 1");
      } else if (in.keyword_is("max shrink")) {
        st.max_shrink = in.real();
        if (!(st.max_shrink > 0.0 && st.max_shrink < 1.0)) in.fail_expected("a max shrink in (0, 1)");
      } else if (in.keyword_is("per step")) {
        st.per_unit_step = false;
      } else if (const parser::SourceLocation global_at = in.location(); in.keyword_is("global")) {
        if (const std::string why = integrators::global_error_refusal(s.method); !why.empty())
          throw parser::InputError(global_at, why);
        st.global_error = true;
      } else {
        in.fail_expected("safety, max growth, max shrink, per step or global");
      }
    }
  } else {
    in.fail_expected("a time step strategy (no change, factor, change, error control)");
  }
}

/// `eigenanalysis: {<when> | list, <n>, <when> [, ...]} [, <option> ...];` (input manual §4.1.1).
/// Like MBDyn: permutation balancing by default; a `parameter` not given is estimated from the
/// frequency limits (1 / (2 pi 5 upper) for the smallest magnitudes, 5 / (2 pi lower) for the
/// largest imaginary parts); a missing lower limit is minus the upper one.
void read_eigenanalysis(CardReader& in, EigenSettings& e) {
  using Which = EigenSettings::Which;
  e = EigenSettings{};
  const long n = in.keyword_is("list") ? static_cast<long>(parser::checked_integer(
                                             in, [](auto v) { return v > 0; }, "a number of times > 0"))
                                       : 1;
  for (long i = 0; i < n; ++i) {
    const double prev = e.times.empty() ? -std::numeric_limits<double>::infinity() : e.times.back();
    e.times.push_back(parser::checked_real(in, [prev](double t) { return t > prev; },
                                           "eigenanalysis times in strictly ascending order"));
  }
  bool param_given = false, lower_given = false, upper_given = false, which_given = false, method_given = false;
  bool output_matrices = false;
  auto method = [&](EigenSettings::Method m) {
    if (method_given) in.fail_expected("one eigenanalysis method only");
    method_given = true;
    e.method = m;
  };
  auto positive_int = [&](const char* what) {
    return static_cast<int>(parser::checked_integer(in, [](auto v) { return v > 0; }, what));
  };
  auto non_negative = [&](const char* what) {
    return parser::checked_real(in, [](double v) { return v >= 0.0; }, what);
  };
  while (!in.at_end()) {
    if (in.keyword_is("parameter")) {
      e.parameter = in.real();
      param_given = true;
    } else if (in.keyword_is("mode")) {
      which_given = true;
      if (in.keyword_is("largest magnitude")) e.which = Which::LargestMagnitude;
      else if (in.keyword_is("smallest magnitude")) e.which = Which::SmallestMagnitude;
      else if (in.keyword_is("largest real part")) e.which = Which::LargestReal;
      else if (in.keyword_is("smallest real part")) e.which = Which::SmallestReal;
      else if (in.keyword_is("largest imaginary part")) e.which = Which::LargestImaginary;
      else if (in.keyword_is("smallest imaginary part")) e.which = Which::SmallestImaginary;
      else in.fail_expected("largest or smallest magnitude, real part or imaginary part");
    } else if (in.keyword_is("output matrices")) {
      output_matrices = true;  // full or sparse by the method, below
    } else if (in.keyword_is("output full matrices")) {
      e.output_full_matrices = true;
    } else if (in.keyword_is("output sparse matrices")) {
      e.output_sparse_matrices = true;
    } else if (in.keyword_is("output eigenvectors")) {
      e.output_eigenvectors = true;
    } else if (in.keyword_is("output geometry")) {
      e.output_geometry = true;
    } else if (in.keyword_is("matrix output precision")) {
      e.matrix_precision = positive_int("a matrix output precision > 0");
    } else if (in.keyword_is("results output precision")) {
      e.results_precision = positive_int("a results output precision > 0");
    } else if (in.keyword_is("upper frequency limit")) {
      e.upper_frequency = non_negative("an upper frequency limit >= 0");
      upper_given = true;
    } else if (in.keyword_is("lower frequency limit")) {
      e.lower_frequency = non_negative("a lower frequency limit >= 0");
      lower_given = true;
    } else if (in.keyword_is("use lapack")) {
      method(EigenSettings::Method::Lapack);
    } else if (in.keyword_is("use arpack")) {
      method(EigenSettings::Method::Arpack);
      e.arpack_nev = positive_int("a number of eigenvalues > 0");
      e.arpack_ncv = static_cast<int>(parser::checked_integer(
          in, [&](auto v) { return v > e.arpack_nev + 2; }, "a number of Arnoldi vectors > nev + 2"));
      e.arpack_tolerance = std::max(0.0, in.real());
      if (in.keyword_is("max iterations")) e.arpack_max_iterations = positive_int("max iterations > 0");
    } else if (in.keyword_is("use jdqz")) {
      return in.not_implemented("eigenanalysis: use jdqz");
    } else if (in.keyword_is("use external")) {
      method(EigenSettings::Method::External);
    } else if (in.keyword_is("balance")) {
      // MBDyn adds to its permutation default: only `no` removes it.
      if (in.keyword_is("no")) e.permute = e.scale = false;
      else if (in.keyword_is("permute")) e.permute = true;
      else if (in.keyword_is("scale")) e.scale = true;
      else if (in.keyword_is("all")) e.permute = e.scale = true;
      else in.fail_expected("a balance option (no, permute, scale, all)");
    } else if (in.keyword_is("suffix width")) {
      e.suffix_width = in.keyword_is("compute")
                           ? -1
                           : static_cast<int>(parser::checked_integer(in, [](auto v) { return v >= 0; }, "a width >= 0"));
    } else if (in.keyword_is("suffix format")) {
      e.suffix_format = in.string();
    } else {
      in.fail_expected("an eigenanalysis option");
    }
  }
  if (!param_given && (lower_given || upper_given)) {
    const bool arpack = e.method == EigenSettings::Method::Arpack;
    if (!which_given) {
      const bool lower = lower_given && e.lower_frequency > 0.0, upper = upper_given && e.upper_frequency > 0.0;
      if (arpack ? lower : !upper && lower) e.which = Which::LargestImaginary;
      else if (upper) e.which = Which::SmallestMagnitude;
    }
    constexpr double kSafety = 5.0, kMin = 1e-6, kMax = 1e6;
    if (e.which == Which::SmallestMagnitude && upper_given && e.upper_frequency > 0.0)
      e.parameter = std::clamp(1.0 / (2.0 * M_PI * e.upper_frequency * kSafety), kMin, kMax);
    else if (e.which == Which::LargestImaginary && lower_given && e.lower_frequency > 0.0)
      e.parameter = std::clamp(kSafety / (2.0 * M_PI * e.lower_frequency), kMin, kMax);
  }
  if (e.lower_frequency > e.upper_frequency) in.fail_expected("a lower frequency limit below the upper one");
  if (!lower_given) e.lower_frequency = -e.upper_frequency;
  // `output matrices` is full with LAPACK, sparse with ARPACK and external; without `use ...`
  // LAPACK solves unless only sparse matrices are asked for (MBDyn's solver.cc ReadData).
  using Method = EigenSettings::Method;
  if (!method_given) e.method = e.output_sparse_matrices ? Method::None : Method::Lapack;
  switch (e.method) {
    case Method::Lapack:
      if (e.output_sparse_matrices) in.fail_expected("no sparse matrices output with lapack");
      if (output_matrices) e.output_full_matrices = true;
      break;
    case Method::Arpack:
      if (e.output_full_matrices) in.fail_expected("no full matrices output with arpack");
      if (output_matrices) e.output_sparse_matrices = true;
      break;
    case Method::External:
      if (!output_matrices && !e.output_full_matrices && !e.output_sparse_matrices)
        in.fail_expected("an output of the matrices with an external eigenanalysis");
      if (output_matrices && !e.output_full_matrices) e.output_sparse_matrices = true;
      break;
    case Method::None:
      if (output_matrices && !e.output_full_matrices) e.output_sparse_matrices = true;
      break;
  }
}

const std::map<std::string, SettingsCard>& initial_value_cards() {
  static const std::map<std::string, SettingsCard> cards = {
      {"initialtime", [](CardReader& in, RunSettings& s, BuildContext&) { s.initial_time = in.real(); }},
      {"finaltime",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         if (in.keyword_is("forever")) s.forever = true;
         else s.final_time = in.real();
       }},
      {"timestep",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.time_step = parser::checked_real(in, [](double h) { return h > 0.0; }, "a positive time step");
       }},
      {"mintimestep", [](CardReader& in, RunSettings& s, BuildContext&) { s.min_time_step = in.real(); }},
      {"maxtimestep",
       [](CardReader& in, RunSettings& s, BuildContext& ctx) {
         // MBDyn 2024 reads a drive caller (solver.cc: MaxTimeStep.Set(HP.GetDriveCaller())).
         if (in.keyword_is("unlimited")) return void(s.max_time_step = nullptr);
         DriveCallerPtr d = drives::read_drive_caller(in, ctx.model().drive_env());
         s.max_time_step = [d](double t) { return d->value(t); };
         // `, hard limit, <bool>`: MBDyn then fails a step larger than the limit; ours never takes
         // one (the step controller clamps every step to the limit), hard or soft.
         if (in.keyword_is("hard limit")) in.boolean();
       }},
      // `max residual: [differential equations, <r_diff>,] [all equations,] <r>` (solver.cc ReadData).
      {"maxresidual",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         auto positive = [&] { return parser::checked_real(in, [](double r) { return r > 0.0; }, "a positive max residual"); };
         if (in.keyword_is("differential equations")) {
           const parser::SourceLocation at = in.location();
           positive();
           in.not_implemented("max residual: differential equations (the residual of the differential equations alone)", at);
           return in.skip_rest();
         }
         if (in.keyword_is("all equations") || !in.at_end()) s.newton.max_residual = positive();
       }},
      {"strategy", read_strategy},
      {"tolerance", [](CardReader& in, RunSettings& s, BuildContext&) { read_tolerance(in, s.newton); }},
      {"maxiterations",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.newton.max_iterations = static_cast<int>(parser::checked_integer(in, [](std::int64_t n) { return n > 0; }, "a positive number of iterations"));
         s.newton.at_most = in.keyword_is("at most");
       }},
      {"derivativestolerance",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.derivatives_tolerance = in.real();
         // The solution tolerance is read and not used: the derivatives phase tests the residual
         // only (simulation.cpp says why).
         if (!in.at_end()) in.real();
       }},
      {"derivativesmaxiterations",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.derivatives_max_iterations = static_cast<int>(in.integer());
       }},
      {"derivativescoefficient",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         if (!in.peek_keyword_is("auto")) {
           const double c = in.real();
           if (c > 0.0) s.derivatives_coefficient = c;  // MBDyn keeps its default for c <= 0
         }
         if (in.keyword_is("auto")) {
           s.derivatives_auto_iterations = 6;
           if (in.keyword_is("max iterations"))
             s.derivatives_auto_iterations = static_cast<int>(
                 parser::checked_integer(in, [](auto n) { return n >= 0; }, "max iterations >= 0"));
           if (in.keyword_is("factor"))
             s.derivatives_auto_factor = parser::checked_real(in, [](double f) { return f > 1.0; }, "factor > 1");
         }
       }},
      {"dummystepsnumber",
       [](CardReader& in, RunSettings& s, BuildContext&) { s.dummy_steps = static_cast<int>(in.integer()); }},
      {"dummystepstolerance", [](CardReader& in, RunSettings& s, BuildContext&) { s.dummy_steps_tolerance = in.real(); }},
      {"dummystepsmaxiterations",
       [](CardReader& in, RunSettings& s, BuildContext&) { s.dummy_steps_max_iterations = static_cast<int>(in.integer()); }},
      {"dummystepsratio", [](CardReader& in, RunSettings& s, BuildContext&) { s.dummy_steps_ratio = in.real(); }},
      // `abort after: input | assembly | derivatives | {dummy | fictitious} steps | regular step,
      // <n>` (solver.cc ReadData; fictitious steps is the deprecated name of dummy steps).
      {"abortafter",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         if (in.keyword_is("regular step")) {
           s.abort_after = AbortAfter::regular_step;
           // The step is required (solver.cc ReadData reads it with GetInt).
           s.abort_after_step = parser::checked_integer(in, [](std::int64_t n) { return n >= 0; }, "a step >= 0");
         } else if (in.keyword_is("input")) {
           s.abort_after = AbortAfter::input;
         } else if (in.keyword_is("assembly")) {
           s.abort_after = AbortAfter::assembly;
         } else if (in.keyword_is("derivatives")) {
           s.abort_after = AbortAfter::derivatives;
         } else if (in.keyword_is("dummy steps") || in.keyword_is("fictitious steps")) {
           s.abort_after = AbortAfter::dummy_steps;
         } else {
           // MBDyn stops at any other word ("Don't know when to abort").
           in.fail_expected("input, assembly, derivatives, dummy steps or regular step");
         }
       }},
      // The solver's diagnostics meter (solver.cc ReadData, SolverDiagnostics::outputMeter).
      {"outputmeter",
       [](CardReader& in, RunSettings& s, BuildContext& ctx) {
         s.diagnostics_meter = drives::read_drive_caller(in, ctx.model().drive_env());
       }},
      {"output",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         while (!in.at_end()) {
           if (in.keyword_is("iterations")) s.output_iterations = true;
           else if (in.keyword_is("residual")) s.output_residual = true;
           else if (in.keyword_is("solution")) s.output_solution = true;
           else if (in.keyword_is("messages")) s.output_messages = true;
           else if (in.keyword_is("none"))
             s.output_iterations = s.output_residual = s.output_solution = s.output_messages = false;
           else in.keyword();  // jacobian, messages, counter, bailout, matrix condition number, cpu time
         }
       }},
      {"enforceconstraintequations",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         if (in.keyword_is("constraint violations")) {
           s.newton.algebraic_test_scale =
               in.keyword_is("scale factor")
                   ? parser::checked_real(in, [](double f) { return f > 0.0; }, "a positive scale factor")
                   : -1.0;
         } else if (in.keyword_is("constraint violation rates")) {
           s.newton.algebraic_test_scale = 0.0;
         } else {
           in.fail_expected("constraint violations or constraint violation rates");
         }
       }},
      // `threads: { auto | disable | [ { assembly | solver } , ] <threads> }` (input manual
      // §4.1.1); the solver's threads are the linear solver card's.
      {"threads",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         if (in.keyword_is("auto")) s.assembly_threads = 0;
         else if (in.keyword_is("disable")) s.assembly_threads = 1;
         else {
           const bool solver_only = in.keyword_is("solver");
           if (!solver_only) in.keyword_is("assembly");
           const auto n = parser::checked_integer(in, [](std::int64_t v) { return v >= 1; }, "a positive number of threads");
           if (!solver_only) s.assembly_threads = int(n);
         }
       }},
      {"modifyresidualtest", [](CardReader&, RunSettings&, BuildContext&) {}},
      // §5.1: lets elements assemble Jacobians by automatic differentiation; ours are exact
      // already, so the results do not change.
      {"useautomaticdifferentiation", [](CardReader&, RunSettings&, BuildContext&) {}},
  };
  return cards;
}

// `use: <item> [, ...], in assembly` (input manual §5.2.3): element kinds that take part in the
// initial assembly besides the joints.
void read_use_in_assembly(CardReader& in, RunSettings& s, BuildContext&) {
  static const std::pair<const char*, std::vector<const char*>> kItems[] = {
      {"rigid bodies", {"body"}},       {"gravity", {"gravity"}},
      {"forces", {"force", "couple"}},  {"beams", {"beam"}},
      {"solids", {"solid"}},            {"surface loads", {"surface load"}},
      {"aerodynamic elements", {"aerodynamic"}}, {"loadable elements", {"loadable"}}};
  bool any = false;
  while (!in.keyword_is("in assembly")) {
    if (in.at_end()) in.fail_expected("\"in assembly\"");
    bool found = false;
    for (const auto& [item, kinds] : kItems)
      if (in.keyword_is(item)) {
        s.assembly_use.insert(s.assembly_use.end(), kinds.begin(), kinds.end());
        found = true;
        break;
      }
    if (!found)
      in.fail_expected("rigid bodies, gravity, forces, beams, solids, surface loads, aerodynamic elements, "
                       "loadable elements or \"in assembly\"");
    any = true;
  }
  if (!any) in.fail_expected("an element type before \"in assembly\"");
}

/// `{stiffness | initial stiffness}: <position> [, <velocity>]` (input manual §5.2.4).
void read_assembly_stiffness(CardReader& in, RunSettings& s, BuildContext&) {
  s.assembly_position_stiffness = in.real();
  s.assembly_velocity_stiffness = in.at_end() ? s.assembly_position_stiffness : in.real();
}

/// `default scale: {all | <dof owner>}, <scale> [, ...]` (input manual §5.3.14): the scales of the
/// unknowns in a residual test with `scale`. 1, the default, is the unscaled test we run; other
/// values are not implemented.
void read_default_scale(CardReader& in, RunSettings&, BuildContext&) {
  static const char* const owners[] = {
      "all", "structural nodes", "electric nodes", "thermal nodes", "abstract nodes", "hydraulic nodes",
      "joints", "induced velocity elements", "rotors", "aeromodals", "genels", "electric bulk elements",
      "electric elements", "thermal elements", "hydraulic elements", "loadable elements"};
  while (!in.at_end()) {
    const parser::SourceLocation at = in.location();
    bool known = false;
    for (const char* o : owners) known = known || in.keyword_is(o);
    if (!known) in.fail_expected("a degree-of-freedom owner (all, structural nodes, joints, ...)");
    const double scale = in.at_end() ? 1.0 : in.real();
    if (scale != 1.0) return in.not_implemented("default scale other than 1 (input manual §5.3.14)", at);
  }
}

/// `{finite difference jacobian meter | jacobian check}: <drive> [, iterations, <drive>]
/// [, {forward mode automatic differentiation | [coefficient, <c>] [, order, <n>]}] [, output,
/// <flag> ...]` (input manual §5.3.15, dataman3.cc ReadControl): MBDyn then compares its Jacobian
/// with finite differences and prints the statistics; the solution does not change. We read it
/// and print nothing (our Jacobians are checked by the unit tests, tests/support/jacobian_check.hpp).
void read_jacobian_meter(CardReader& in, RunSettings&, BuildContext& ctx) {
  drives::read_drive_caller(in, ctx.model().drive_env());
  if (in.keyword_is("iterations")) drives::read_drive_caller(in, ctx.model().drive_env());
  if (!in.keyword_is("forward mode automatic differentiation")) {
    if (in.keyword_is("coefficient")) in.real();
    if (in.keyword_is("order")) {
      const parser::SourceLocation at = in.location();
      const std::int64_t order = in.integer();
      if (order != 1 && order != 2 && order != 4 && order != 6)
        throw parser::InputError(at, fmt::format("expected a finite difference order (1, 2, 4, 6), found {}", order));
    }
  }
  if (in.keyword_is("output")) {
    while (!in.at_end()) {
      if (in.keyword_is("none") || in.keyword_is("all")) continue;
      if (in.keyword_is("matrices") || in.keyword_is("statistics iteration") || in.keyword_is("statistics")) {
        in.boolean();
        continue;
      }
      in.fail_expected("a jacobian meter output flag (none, all, matrices, statistics iteration, statistics)");
    }
  }
}

const std::map<std::string, SettingsCard>& control_data_cards() {
  static const std::map<std::string, SettingsCard> cards = {
      {"skipinitialjointassembly",
       [](CardReader&, RunSettings& s, BuildContext&) { s.skip_initial_joint_assembly = true; }},
      // `stiffness` is MBDyn 2024's name; `initial stiffness` the deprecated one (dataman3.cc, ReadControl).
      {"initialstiffness", read_assembly_stiffness},
      {"stiffness", read_assembly_stiffness},
      // `epsilon: <e>`: the initial assembly moves the configuration by e times each Newton
      // correction (dataman3.cc ReadControl, dataman2.cc InitialJointAssembly; not in the manual).
      {"epsilon",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.assembly_epsilon = parser::checked_real(in, [](double e) { return e > 0.0; }, "a positive epsilon");
       }},
      {"defaultscale", read_default_scale},
      {"finitedifferencejacobianmeter", read_jacobian_meter},
      {"jacobiancheck", read_jacobian_meter},
      // MBDyn reads its own unknowns, in its own order and binary layout, from <deck>.X.
      {"readsolutionarray",
       [](CardReader& in, RunSettings&, BuildContext&) {
         in.not_implemented("read solution array (MBDyn's binary <deck>.X of its own unknowns; dataman3.cc ReadControl)");
       }},
      {"omegarotates", [](CardReader& in, RunSettings& s, BuildContext&) { s.omega_rotates = in.boolean(); }},
      {"tolerance", [](CardReader& in, RunSettings& s, BuildContext&) { s.assembly_tolerance = in.real(); }},
      {"maxiterations",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.assembly_max_iterations = static_cast<int>(in.integer());
       }},
      {"outputfrequency",
       [](CardReader& in, RunSettings& s, BuildContext&) { s.output_frequency = static_cast<int>(in.integer()); }},
      {"outputprecision",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         s.output_precision = static_cast<int>(in.integer());
         s.output_precision_given = true;
       }},
      // §5.3.10: `netcdf [, classic | classic64 | nc4 | nc4classic] [, [no] sync] [, [no] text]`
      // (the file is always written as NetCDF-4: every format reads it the same).
      {"outputresults",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         while (!in.at_end()) {
           if (in.keyword_is("netcdf")) s.netcdf = true;
           else if (in.keyword_is("sync")) s.netcdf_sync = true;
           else if (in.keyword_is("no sync")) s.netcdf_sync = false;
           else if (in.keyword_is("no text")) s.text = false;
           else if (in.keyword_is("text")) s.text = true;
           // ADAMS/View and MotionView results need MBDyn built with them (dataman3.cc ReadControl).
           else if (in.keyword_is("adams")) return in.not_implemented("output results: adams (input manual §5.3.10)");
           else if (in.keyword_is("motion view")) return in.not_implemented("output results: motion view (input manual §5.3.10)");
           else if (in.keyword_is("classic") || in.keyword_is("classic64") || in.keyword_is("nc4") ||
                    in.keyword_is("nc4classic")) {
           } else in.fail_expected("netcdf, a file format (classic, classic64, nc4, nc4classic), [no] sync or [no] text");
         }
       }},
      // §5.3.6: documents the units of the model and changes nothing else.
      {"outputunits",
       [](CardReader& in, RunSettings&, BuildContext&) {
         if (in.keyword_is("custom")) {
           for (const char* unit : {"length", "mass", "time", "current", "temperature"}) {
             if (!in.keyword_is(unit)) in.fail_expected(fmt::format("\"{}\"", unit));
             in.string();
           }
         } else if (!in.keyword_is("mks") && !in.keyword_is("cgs") && !in.keyword_is("mmtms") &&
                    !in.keyword_is("mmkgms")) {
           in.fail_expected("a units system (MKS, CGS, MMTMS, MMKGMS or Custom)");
         }
       }},
      {"defaultorientation",
       [](CardReader& in, RunSettings&, BuildContext& ctx) {
         ctx.output_defaults().orientation = read_orientation_description(in);
         // what later `reference:` cards keep for the .rfm (MBDyn's ReadOptionalOrientationDescription)
         ctx.read().default_orientation_description = static_cast<int>(ctx.output_defaults().orientation);
       }},
      {"defaultoutput",
       [](CardReader& in, RunSettings& s, BuildContext& ctx) {
         // `default output: {all | none | <family>} [, ...]` (input manual §5.3.5)
         auto& d = ctx.output_defaults();
         while (!in.at_end()) {
           if (in.keyword_is("all")) d.by_family.clear();
           else if (in.keyword_is("none")) {
             for (const char* f : {"structural nodes", "rigid bodies", "joints", "forces", "beams", "gravity",
                                   "abstract nodes", "genels", "plates", "aerodynamic elements", "electric nodes",
                                   "hydraulic nodes", "parameter nodes", "inertia", "loadable", "induced velocity",
                                   "air properties", "electric", "hydraulic elements", "bulk elements",
                                   "automatic structural", "electric elements", "thermal nodes", "thermal elements"})
               d.by_family[CardRegistry::normalise(f)] = false;
           } else if (in.keyword_is("accelerations")) d.accelerations = true;
           else if (in.keyword_is("reference frames")) s.output_reference_frames = true;  // the .rfm
           else d.by_family[in.keyword()] = true;
         }
       }},
      {"defaultbeamoutput",
       [](CardReader& in, RunSettings&, BuildContext& ctx) {
         // `default beam output: <flag> [, ...]` (input manual §5.3.13): the custom output every
         // beam starts from (MBDyn's ReadControl reads it as a viscoelastic beam's).
         auto& d = ctx.output_defaults().custom["beams"];
         elements::read_beam_custom_output(in, ctx, true, d);
         if (!in.at_end())
           in.fail_expected("a beam output flag (position, orientation, configuration, force, moment, forces, "
                            "linear strain, angular strain, strains, linear strain rate, angular strain rate, "
                            "strain rates, all, none)");
       }},
      {"title", [](CardReader& in, RunSettings& s, BuildContext&) { s.title = in.string(); }},
      {"print",
       [](CardReader& in, RunSettings& s, BuildContext&) {
         // `print: <item> [, ...]` as MBDyn's ReadControl (dataman3.cc, PRINT); written by
         // output/dof_stats.cpp. `all` sets every flag but `to file`, `none` clears them all.
         namespace pf = output::print_flag;
         unsigned& f = s.print_flags;
         while (!in.at_end()) {
           if (in.keyword_is("dof stats")) f |= pf::kDofStats;
           else if (in.keyword_is("dof description")) f |= pf::kDofStats | pf::kDofDescription;
           else if (in.keyword_is("equation description")) f |= pf::kDofStats | pf::kEquationDescription;
           else if (in.keyword_is("description")) f |= pf::kDofStats | pf::kDofDescription | pf::kEquationDescription;
           else if (in.keyword_is("element connection")) f |= pf::kElementConnection;
           else if (in.keyword_is("node connection")) f |= pf::kNodeConnection;
           else if (in.keyword_is("connection")) f |= pf::kElementConnection | pf::kNodeConnection;
           else if (in.keyword_is("all")) f = pf::kAll;
           else if (in.keyword_is("none")) f = 0;
           else if (in.keyword_is("to file")) f |= pf::kToFile;
           else
             in.fail_expected("a print flag (dof stats, dof description, equation description, description, "
                              "element connection, node connection, connection, all, none, to file)");
         }
       }},
      {"model",
       [](CardReader& in, RunSettings&, BuildContext& ctx) {
         // §5.3.16: the only model type is `static`.
         if (!in.keyword_is("static")) in.fail_expected("a model type (static)");
         ctx.static_model() = true;
       }},
      {"makerestartfile", [](CardReader& in, RunSettings&, BuildContext&) { in.skip_rest(); }},
      {"selecttimeout", [](CardReader& in, RunSettings&, BuildContext&) { in.skip_rest(); }},
      // The NetCDF variables of the aerodynamic elements' custom output: read and not applied, as
      // the elements' own `custom output` (aero_readers.cpp).
      {"defaultaerodynamicoutput", [](CardReader& in, RunSettings&, BuildContext&) { in.skip_rest(); }},
      // MBDyn 2024 stops on it (dataman3.cc: "output file name" no longer supported).
      {"outputfilename",
       [](CardReader& in, RunSettings&, BuildContext&) {
         in.fail("\"output file name\" is no longer supported by MBDyn; use the command line's -o");
       }},
      // MBDyn reads the count and ignores it (dataman3.cc, AUTOMATICSTRUCTURAL).
      {"automaticstructuralelements", [](CardReader& in, RunSettings&, BuildContext&) { in.integer(); }},
      // `loadable path: [set | add,] "<path>"`: where run-time modules are looked for; we load none.
      {"loadablepath",
       [](CardReader& in, RunSettings&, BuildContext&) {
         if (!in.keyword_is("set")) in.keyword_is("add");
         in.string();
       }},
      {"outputmeter",
       [](CardReader& in, RunSettings& s, BuildContext& ctx) {
         s.output_meter = drives::read_drive_caller(in, ctx.model().drive_env());
       }},
      {"use", read_use_in_assembly},
      // MBDyn reads the count and checks nothing (dataman3.cc ReadControl: automatic structural
      // elements are made by the dynamic nodes themselves).
      {"automaticstructuralelements", [](CardReader& in, RunSettings&, BuildContext&) { in.integer(); }},
      {"initialassemblyofdeformableandforceelements",
       [](CardReader&, RunSettings& s, BuildContext&) { s.assembly_deformable_and_forces = true; }},
      // MBDyn reads it in control data too (as in the initial value block: results do not change).
      {"useautomaticdifferentiation", [](CardReader&, RunSettings&, BuildContext&) {}},
  };
  return cards;
}

/// Control-data counters: "structural nodes: N", "joints: N", ... (input manual §5.4).
const std::map<std::string, std::string>& counted_families() {
  static const std::map<std::string, std::string> m = {
      {"structuralnodes", "structural"}, {"rigidbodies", "body"},   {"joints", "joint"},
      {"forces", "force"},               {"gravity", "gravity"},    {"beams", "beam"},
      {"abstractnodes", "abstract"},     {"genels", "genel"},       {"electricnodes", "electric"},
      {"hydraulicnodes", "hydraulic"},   {"parameternodes", "parameter"}, {"airproperties", "air properties"},
      {"aerodynamicelements", "aerodynamic"}, {"inducedvelocityelements", "induced velocity"},
      {"loadableelements", "loadable"},  {"plates", "plate"},        {"filedrivers", "file"},
      {"bulkelements", "bulk"},          {"electricbulkelements", "electric bulk"}, {"electricelements", "electric element"},
      {"hydraulicelements", "hydraulic element"}, {"outputelements", "output"}, {"solids", "solid"},
      {"surfaceloads", "surface load"},  {"externalelements", "external"}, {"inertia", "inertia"},
      {"rotors", "induced velocity"},               {"thermalnodes", "thermal"}, {"thermalelements", "thermal element"},
      {"jointregularizations", "jointregularization"}, {"userdefinedelements", "loadable"},
      {"aeromodals", "aeromodal"},
      // `RTAI output:`, deprecated, counts the socket stream output elements (dataman3.cc ReadControl).
      {"rtaioutput", "output"}};
  return m;
}

class Builder {
 public:
  Builder() {
    result_.model = std::make_unique<Model>();
    result_.read_context = std::make_unique<parser::ReadContext>(result_.model->math());
    result_.read_context->set_entities(result_.model.get());
    ctx_ = std::make_unique<BuildContext>(*result_.model, *result_.read_context);
    drives::install_drive_math_functions(*result_.read_context, result_.model->drive_env());
    // MBDyn's default integrator when the deck has no `method:` card: the second-order BDF
    // (it reproduces the real MBDyn's runs of decks without a method card exactly).
    result_.settings.method.name = "bdf";
  }

  void run(parser::DeckReader& deck) {
    while (CardReader* card = deck.next_card()) {
      try {
        if (handle(*card)) break;
      } catch (const CardSkipped&) {
        // a reader reported the card not implemented deep inside (a drive caller of a setting)
      }
    }
    // An empty deck (or one of comments only) would otherwise run no step and succeed.
    if (!block_where_.file)
      throw parser::InputError(deck.end_location(), "expected a 'begin: data;' block, found the end of the input");
    if (!block_.empty())
      throw parser::InputError(deck.end_location(),
                               fmt::format("expected \"end: {};\", found the end of the input (the block began at {})",
                                           block_written_, block_where_.str()));
    if (stage_ < kControlDataStage)
      throw parser::InputError(deck.end_location(), fmt::format("expected {}, found the end of the input", next_blocks()));
    finish();
  }

  BuildResult take() { return std::move(result_); }
  parser::ReadContext& read_context() { return *result_.read_context; }

 private:
  /// Returns true after `end: elements;`.
  bool handle(CardReader& in) {
    if (in.card_is("begin")) {
      const parser::SourceLocation where = in.location();
      if (!block_.empty())
        throw parser::InputError(in.card_location(),
                                 fmt::format("expected \"end: {};\" before a new \"begin:\" (the block \"{}\" began at {})",
                                             block_written_, block_written_, block_where_.str()));
      block_written_ = in.peek_text();
      block_where_ = in.card_location();
      block_ = in.keyword();
      in.expect_end();
      if (block_ == "multistep") block_ = "initialvalue";  // the older name MBDyn still reads
      static const std::set<std::string> known = {"data", "initialvalue", "controldata", "nodes", "drivers", "elements",
                                                  "inversedynamics"};
      if (!known.count(block_)) throw parser::InputError(where, fmt::format("expected a block name (data, initial value, control data, nodes, drivers, elements), found \"{}\"", block_));
      check_block_order(in.card_location());
      return false;
    }
    if (in.card_is("end")) {
      const parser::SourceLocation where = in.location();
      const std::string b = in.keyword();
      in.expect_end();
      if (block_.empty()) throw parser::InputError(where, fmt::format("found \"end: {}\" outside any block", b));
      if (b != block_ && !(b == "multistep" && block_ == "initialvalue"))
        throw parser::InputError(where, fmt::format("expected \"end: {}\", found \"end: {}\" (the block began at {})",
                                                    block_written_, b, block_where_.str()));
      if (block_ == "initialvalue" || block_ == "inversedynamics") check_final_time();
      block_.clear();
      return b == "elements";
    }
    if (block_ == "data") return read_data(in), false;
    if (block_ == "initialvalue" || block_ == "inversedynamics") return read_settings(in, initial_value_cards(), "initial value"), false;
    if (block_ == "controldata") return read_control(in), false;
    if (block_ == "nodes") return read_labelled(in, "node"), false;
    if (block_ == "elements") return read_labelled(in, "element"), false;
    if (block_ == "drivers") return read_labelled(in, "driver"), false;
    // Definitions allowed anywhere (drive caller:, constitutive law:, ...).
    if (read_definition(in)) return false;
    throw parser::InputError(in.card_location(), fmt::format("expected \"begin: <block>\", found card \"{}\" outside any block", in.description()));
  }

  // MBDyn reads the blocks in one order: `data` (mbdyn.cc), the problem's block (`initial value`,
  // Solver::ReadData; `inverse dynamics`, InverseSolver::ReadData), `control data`, then `nodes`,
  // `drivers` and `elements` (DataManager's constructor, dataman.cc), each of the last three
  // required only when control data declares some of its kind; a block out of place is refused.
  static constexpr int kControlDataStage = 2;
  static constexpr std::array<const char*, 6> kStages = {"data", "problem", "controldata", "nodes", "drivers", "elements"};

  /// `begin: <block>;` as MBDyn spells it, the problem's block per the `problem:` card.
  std::string begin_text(int stage) const {
    static constexpr std::array<const char*, 6> shown = {"data", "", "control data", "nodes", "drivers", "elements"};
    const char* name = stage == 1 ? (result_.settings.inverse_dynamics.enabled ? "inverse dynamics" : "initial value")
                                  : shown[static_cast<std::size_t>(stage)];
    return fmt::format("\"begin: {};\"", name);
  }

  bool block_required(int stage) const {
    auto declared = [&](std::initializer_list<const char*> families) {
      for (const char* f : families)
        if (auto it = declared_.find(f); it != declared_.end() && it->second > 0) return true;
      return false;
    };
    if (stage <= kControlDataStage) return true;
    if (stage == 3) return declared({"structural", "abstract", "electric", "hydraulic", "parameter", "thermal"});
    if (stage == 4) return declared({"file"});
    return false;
  }

  /// The blocks that may come next: those after the last one read, up to the first required one.
  std::string next_blocks() const {
    std::string next;
    for (int s = stage_ + 1; s < static_cast<int>(kStages.size()); ++s) {
      next += (next.empty() ? "" : " or ") + begin_text(s);
      if (block_required(s)) break;
    }
    return next;
  }

  void check_block_order(const parser::SourceLocation& where) {
    const std::string name = block_ == "initialvalue" || block_ == "inversedynamics" ? "problem" : block_;
    const int stage = static_cast<int>(std::find(kStages.begin(), kStages.end(), name) - kStages.begin());
    bool allowed = stage > stage_;
    for (int s = stage_ + 1; allowed && s < stage; ++s) allowed = !block_required(s);
    // The problem's block is the one `problem:` chose (mbdyn.cc builds its Solver or InverseSolver).
    if (allowed && stage == 1 && (block_ == "inversedynamics") != result_.settings.inverse_dynamics.enabled)
      allowed = false;
    if (!allowed)
      throw parser::InputError(where, fmt::format("expected {}, found \"begin: {};\" (MBDyn reads the blocks in the "
                                                  "order data, {}, control data, nodes, drivers, elements)",
                                                  next_blocks(), block_written_,
                                                  result_.settings.inverse_dynamics.enabled ? "inverse dynamics" : "initial value"));
    stage_ = stage;
  }

  /// MBDyn reads a final time at or before the initial time and then stops after the initial
  /// assembly or the derivatives (Solver::ReadData warns "this will cause the simulation to
  /// abort"); we refuse it at the card: `abort after:` says that on purpose.
  void check_final_time() const {
    const RunSettings& s = result_.settings;
    if (!final_time_where_.file || s.forever || s.final_time > s.initial_time) return;
    throw parser::InputError(final_time_where_,
                             fmt::format("expected a final time after the initial time {}, found {} (to stop after the "
                                         "initial assembly or the derivatives, use \"abort after:\")",
                                         s.initial_time, s.final_time));
  }

  void read_data(CardReader& in) {
    if (read_definition(in)) return;
    // `integrator:` is the older name of `problem:`, and `multistep` of `initial value`
    // (MBDyn 2024's mbdyn.cc still reads both).
    if (in.card_is("problem") || in.card_is("integrator")) {
      if (in.keyword_is("initial value") || in.keyword_is("multistep")) return in.expect_end();
      if (in.keyword_is("inverse dynamics")) {
        ctx_->inverse_dynamics() = true;
        result_.settings.inverse_dynamics.enabled = true;
        return in.expect_end();
      }
      // MBDyn's Schur solver (MPI; input manual ch. 3 "begin: parallel", mbdyn.cc RunMBDyn).
      if (in.keyword_is("parallel initial value"))
        return in.not_implemented("problem: parallel initial value (MBDyn's Schur parallel solver; input manual §3)");
      in.fail_expected("a problem (initial value, inverse dynamics, parallel initial value)");
    }
    unknown(in, "data");
  }

  void read_settings(CardReader& in, const std::map<std::string, SettingsCard>& table, const char* block) {
    if (read_definition(in)) return;
    const std::string d(in.description());
    if (d == "method") {
      result_.settings.method_given = true;
      return read_method(in, result_.settings.method);
    }
    if (d == "dummystepsmethod" || d == "fictitiousstepsmethod") return read_method(in, result_.settings.dummy_method);
    if (d == "eigenanalysis") return read_eigenanalysis(in, result_.settings.eigen);
    if (d == "linearsolver" || d == "solver") return read_linear_solver(in);
    if (d == "nonlinearsolver") return read_nonlinear_solver(in);
    if (d == "problemtype" && block_ == "inversedynamics") return read_problem_type(in);
    if (d == "newtonraphson") return read_newton_raphson(in);
    if (d == "finaltime") final_time_where_ = in.card_location();
    auto it = table.find(d);
    if (it == table.end() && d.rfind("fictitioussteps", 0) == 0) it = table.find("dummysteps" + d.substr(15));
    if (it == table.end() && d == "initialtolerance") it = table.find("tolerance");
    if (it == table.end() && d == "maxinitialiterations") it = table.find("maxiterations");
    if (it == table.end() && block_ != "controldata") {
      // Cards MBDyn 2024's Solver::ReadData reads that need what we do not have (solver.cc).
      static const std::map<std::string, const char*> refused = {
          {"realtime", "real time (RTAI or POSIX real-time scheduling; input manual §4.1.5)"},
          {"pod", "pod (proper orthogonal decomposition output; MBDyn's solver.cc, not in the input manual)"},
          {"interfacesolver", "interface solver (the parallel Schur solver; MBDyn's solver.cc)"},
          {"interfacelinearsolver", "interface linear solver (the parallel Schur solver; MBDyn's solver.cc)"},
          {"preconditioner", "preconditioner (deprecated card of the parallel solver; MBDyn's solver.cc)"},
          {"fullresidualtest", "full residual test (inverse dynamics; MBDyn's invsolver.cc)"}};
      if (auto r = refused.find(d); r != refused.end()) return in.not_implemented(r->second);
    }
    if (it == table.end()) return unknown(in, block);
    it->second(in, result_.settings, *ctx_);
    in.expect_end();
  }

  void read_control(CardReader& in) {
    const std::string d(in.description());
    auto it = counted_families().find(d);
    if (it != counted_families().end()) {
      // `gravity;` and `inertia;` have no count; an empty count (`rigid bodies: ;`, its entries
      // commented out) reads as MBDyn's default, 0.
      const bool uncounted = it->second == "gravity" || it->second == "inertia";
      // No real deck comes near parser::kMaxCount; a larger count is a typing error, refused
      // before any per-entity storage is sized from it (docs/robustness.md).
      declared_[it->second] =
          in.at_end() ? (uncounted ? 1 : 0)
                      : static_cast<int>(parser::checked_integer(
                            in, [](std::int64_t n) { return n >= 0 && n <= parser::kMaxCount; },
                            fmt::format("a count between 0 and {}", parser::kMaxCount)));
      declared_where_[it->second] = in.card_location();
      in.expect_end();
      return;
    }
    // Control data cards that build model parts (rigid body kinematics) register themselves.
    if (const CardReaderFn* f = CardRegistry::family("control data").find(d)) {
      (*f)(in, *ctx_, 0);
      in.expect_end();
      return;
    }
    read_settings(in, control_data_cards(), "control data");
  }

  /// `method: <name> [, <rho drive> [, <algebraic rho drive>]]` (input manual §4.1.1); the
  /// spectral radii are drive callers of time (a bare number is a const drive).
  void read_method(CardReader& in, integrators::MethodSpec& m) {
    const parser::SourceLocation at = in.location();
    const std::string written(in.peek_text());
    m.name = in.keyword();
    // MBDyn 2024 still reads two deprecated names (solver.cc): "Crank Nicholson" and "nostro",
    // the multistep method now called ms.
    if (m.name == "cranknicholson") m.name = "cranknicolson";
    if (m.name == "nostro") m.name = "ms";
    if (!kinds::find("method", m.name)) {
      std::string known;
      for (const kinds::Kind& k : kinds::of("method")) known += (known.empty() ? "" : ", ") + std::string(k.keyword);
      throw parser::InputError(at, kinds::unknown_message("method", "method", written) + " (known methods: " + known + ")");
    }
    // MBDyn's methods the integrator factory does not know (hybrid, ...) are not implemented.
    integrators::MethodSpec probe;
    probe.name = m.name;
    probe.rho = [](double) { return 0.0; };
    try {
      integrators::make_integrator(probe);
    } catch (const std::invalid_argument& e) {
      if (std::string_view(e.what()).starts_with("unknown integration method"))
        return in.not_implemented(fmt::format("method \"{}\" (input manual §{})", written, kinds::find("method", m.name)->section));
    }
    auto read_rho = [&]() -> integrators::RhoFunction {
      DriveCallerPtr d = drives::read_drive_caller(in, ctx_->model().drive_env());
      return [d](double t) { return d->value(t); };
    };
    if (m.name == "bdf") {
      if (in.keyword_is("order")) m.bdf_order = static_cast<int>(in.integer());
    } else if (m.name == "centraldifferences") {
      // Seed 002: `central differences, degree, 3|4|5, alpha, beta [, gamma [, zeta]]`.
      if (!in.keyword_is("degree")) in.fail_expected("\"degree\"");
      m.degree = static_cast<int>(parser::checked_integer(
          in, [](std::int64_t d) { return d >= 3 && d <= 5; }, "a degree of 3, 4 or 5"));
      // alpha, beta; gamma (degree 4, 5) and zeta (degree 5) may follow.
      m.parameters = {in.real(), in.real()};
      while (static_cast<int>(m.parameters.size()) < m.degree - 1 && !in.at_end())
        m.parameters.push_back(in.real());
    } else if (m.name == "cranknicolson" || m.name == "impliciteuler" || m.name == "halfimplicit") {
    } else if (!in.at_end()) {
      m.rho = read_rho();
      if (!in.at_end()) m.rho_alg = read_rho();
    }
    in.expect_end();
    // The integrator is built at the start of the solution; what it refuses is an input error here.
    try {
      integrators::make_integrator(m);
    } catch (const std::invalid_argument& e) {
      throw parser::InputError(at, e.what());
    }
    // `strategy: error control` read before this card (docs/adaptive.md); the dummy steps take no strategy.
    if (&m == &result_.settings.method && result_.settings.strategy.kind == integrators::StepStrategy::Kind::ErrorControl)
      if (const std::string why = integrators::error_control_refusal(m); !why.empty()) throw parser::InputError(at, why);
    if (&m == &result_.settings.method && result_.settings.strategy.global_error)
      if (const std::string why = integrators::global_error_refusal(m); !why.empty()) throw parser::InputError(at, why);
  }

  void read_linear_solver(CardReader& in) {
    auto& ls = result_.settings.linear_solver;
    ls.name = in.keyword();
    in.skip_rest();  // options (map, cc, colamd, pivot factor, ...) are mapped by the factory later
  }

  void read_nonlinear_solver(CardReader& in) {
    auto& o = result_.settings.newton;
    // MBDyn's `default` is Newton-Raphson (nonlin.h: DEFAULT = NEWTONRAPHSON).
    if (in.keyword_is("newton raphson") || in.keyword_is("default")) return read_newton_raphson(in);
    if (in.keyword_is("line search")) return read_line_search(in, o);
    if (in.keyword_is("matrix free")) return read_matrix_free(in, o);
    in.not_implemented("nonlinear solver \"" + std::string(in.peek_text()) + "\"");
  }

  /// `nonlinear solver: matrix free, {bicgstab | gmres | default} [, tolerance, <t>] [, steps,
  /// <n>] [, tau, <tau>] [, eta, <eta>] [, preconditioner, full jacobian [matrix] [, steps, <n>]
  /// [, honor element requests]]` (input manual §4.1.1). `default` is BiCGStab, as in MBDyn.
  /// `tolerance` is read and, as in MBDyn's solvers, not used (the inner solvers stop at eta
  /// times the residual error); no element of ours changes its equations' structure, so
  /// `honor element requests` changes nothing.
  static void read_matrix_free(CardReader& in, integrators::NewtonOptions& o) {
    using Krylov = integrators::NewtonOptions::MatrixFree::Krylov;
    auto& mf = o.matrix_free;
    if (in.keyword_is("gmres")) mf.krylov = Krylov::Gmres;
    else if (in.keyword_is("bicgstab") || in.keyword_is("default")) mf.krylov = Krylov::BiCGStab;
    else in.fail_expected("an iterative solver (bicgstab, gmres or default)");
    auto positive = [&](std::string_view what) {
      return parser::checked_real(in, [](double v) { return v > 0.0; }, std::string(what) + " > 0");
    };
    auto count = [&](std::string_view what, std::int64_t min) {
      return static_cast<int>(parser::checked_integer(
          in, [min](std::int64_t k) { return k >= min; }, std::string(what) + " >= " + std::to_string(min)));
    };
    if (in.keyword_is("tolerance")) positive("tolerance");
    if (in.keyword_is("steps")) mf.max_linear_iterations = count("steps", 1);
    if (in.keyword_is("tau")) mf.tau = positive("tau");
    if (in.keyword_is("eta")) mf.eta_max = positive("eta");
    if (in.keyword_is("preconditioner")) {
      if (!in.keyword_is("full jacobian matrix") && !in.keyword_is("full jacobian"))
        in.fail_expected("full jacobian matrix");
      if (in.keyword_is("steps")) mf.preconditioner_steps = count("preconditioner steps", 0);
      in.keyword_is("honor element requests");
    }
    in.expect_end();
    o.line_search.enabled = false;
  }

  /// `problem type: {fully actuated collocated | fully actuated non collocated |
  /// underdetermined underactuated collocated [, weights, <4 reals>] | underdetermined fully
  /// actuated [, weights, <6 reals>]}` (inverse dynamics block, MBDyn's invsolver.cc). The
  /// weights come in (w1, w2) pairs for position, velocity and acceleration; without them w1 = 1,
  /// w2 = 0. MBDyn itself stops on the two problems it has not implemented.
  void read_problem_type(CardReader& in) {
    using Problem = InverseDynamicsSettings::Problem;
    InverseDynamicsSettings& id = result_.settings.inverse_dynamics;
    const parser::SourceLocation at = in.location();
    if (in.keyword_is("fully actuated collocated")) {
      id.problem = Problem::FullyActuatedCollocated;
    } else if (in.keyword_is("underdetermined fully actuated")) {
      id.problem = Problem::UnderdeterminedFullyActuated;
      if (in.keyword_is("weights")) {
        for (int k = 0; k < 3; ++k) {
          id.w1[k] = in.real();
          id.w2[k] = in.real();
        }
        for (double w2 : id.w2)
          if (w2 != 0.0) return in.not_implemented("inverse dynamics weights w2 (the ergonomy bodies' mass)", at);
      }
    } else if (in.keyword_is("fully actuated non collocated")) {
      return in.not_implemented("inverse dynamics problem type \"fully actuated non collocated\"", at);
    } else if (in.keyword_is("underdetermined underactuated collocated")) {
      return in.not_implemented("inverse dynamics problem type \"underdetermined underactuated collocated\"", at);
    } else {
      in.fail_expected("a problem type (fully actuated collocated, fully actuated non collocated, "
                       "underdetermined underactuated collocated, underdetermined fully actuated)");
    }
    in.expect_end();
  }

  /// `{true | modified [, <iterations>] [, keep jacobian matrix]}` after `nonlinear solver: newton
  /// raphson`, or in the older card `newton raphson: ...` that MBDyn 2024 still reads (solver.cc):
  /// `modified` recomputes the Jacobian every <iterations> (default 2); any other word warns in
  /// MBDyn and means true Newton.
  void read_newton_raphson(CardReader& in) {
    auto& o = result_.settings.newton;
    o.keep_jacobian = false;
    o.matrix_free.krylov = integrators::NewtonOptions::MatrixFree::Krylov::None;
    if (in.keyword_is("modified")) {
      o.jacobian_every = in.at_end() ? 2 : static_cast<int>(in.integer());
      o.keep_jacobian = in.keyword_is("keep jacobian matrix") || in.keyword_is("keep jacobian");
    } else {
      o.jacobian_every = 1;
      if (!in.keyword_is("true") && !in.at_end()) in.keyword();
    }
    in.skip_rest();
  }

  /// `nonlinear solver: line search [, true] [, <option> ...]` (input manual §4.1.1); options
  /// apply in order. `default solver options, {moderate | heavy} nonlinear` is MBDyn's preset:
  /// no abort at lambda min, no Newton step scaling, continue on zero gradient or non-negative
  /// slope, divergence check; lambda min 0.1 / 1e-4, divergence factor 10 / 1.5.
  static void read_line_search(CardReader& in, integrators::NewtonOptions& o) {
    auto& ls = o.line_search;
    ls.enabled = true;
    o.matrix_free.krylov = integrators::NewtonOptions::MatrixFree::Krylov::None;
    if (in.keyword_is("modified")) return in.not_implemented("nonlinear solver: line search, modified");
    in.keyword_is("true");
    auto positive = [&](std::string_view what) {
      return parser::checked_real(in, [](double v) { return v >= 0.0; }, std::string(what) + " >= 0");
    };
    while (!in.at_end()) {
      if (in.keyword_is("default solver options")) {
        ls.abort_at_lambda_min = false;
        ls.scale_newton_step = false;
        ls.non_negative_slope_continue = true;
        ls.zero_gradient_continue = true;
        ls.divergence_check = true;
        if (in.keyword_is("moderate nonlinear")) {
          ls.lambda_min = 0.1;
          ls.divergence_factor = 10.0;
        } else if (in.keyword_is("heavy nonlinear")) {
          ls.lambda_min = 1e-4;
          ls.divergence_factor = 1.5;
        } else {
          in.fail_expected("moderate nonlinear or heavy nonlinear");
        }
      } else if (in.keyword_is("tolerance x")) {
        ls.tolerance_x = positive("tolerance x");
      } else if (in.keyword_is("tolerance min")) {
        ls.tolerance_min = positive("tolerance min");
      } else if (in.keyword_is("max iterations")) {
        ls.max_iterations = static_cast<int>(in.integer());
      } else if (in.keyword_is("alpha full") || in.keyword_is("alpha")) {
        ls.alpha = positive("alpha");
      } else if (in.keyword_is("alpha modified")) {
        positive("alpha modified");  // modified line search only
      } else if (in.keyword_is("lambda min")) {
        ls.lambda_min = positive("lambda min");
        if (in.keyword_is("relative")) ls.lambda_min_relative = in.boolean();
      } else if (in.keyword_is("lambda factor min")) {
        ls.lambda_factor_min =
            parser::checked_real(in, [](double f) { return f > 0.0 && f < 1.0; }, "0 < lambda factor min < 1");
      } else if (in.keyword_is("max step")) {
        ls.max_step = positive("max step");
      } else if (in.keyword_is("zero gradient")) {
        if (!in.keyword_is("continue")) in.fail_expected("continue");
        ls.zero_gradient_continue = in.boolean();
      } else if (in.keyword_is("divergence check")) {
        ls.divergence_check = in.boolean();
        if (in.keyword_is("factor")) ls.divergence_factor = positive("divergence check factor");
      } else if (in.keyword_is("algorithm")) {
        if (in.keyword_is("cubic")) ls.cubic = true;
        else if (in.keyword_is("factor")) ls.cubic = false;
        else in.fail_expected("cubic or factor");
      } else if (in.keyword_is("scale newton step")) {
        ls.scale_newton_step = in.boolean();
        if (in.keyword_is("min scale")) ls.min_scale = positive("min scale");
      } else if (in.keyword_is("abort at lambda min")) {
        ls.abort_at_lambda_min = in.boolean();
      } else if (in.keyword_is("non negative slope continue")) {
        ls.non_negative_slope_continue = in.boolean();
      } else if (in.keyword_is("print convergence info") || in.keyword_is("verbose")) {
        in.boolean();  // diagnostics of MBDyn's own solver
      } else if (in.keyword_is("time step tolerance") || in.keyword_is("update ratio") ||
                 in.keyword_is("mcp tolerance") || in.keyword_is("mcp sigma") || in.keyword_is("mcp rho") ||
                 in.keyword_is("mcp p")) {
        in.real();  // modified line search and mcp solvers only
      } else {
        in.fail_expected("a line search option (default solver options, tolerance x, tolerance min, "
                         "max iterations, alpha, lambda min, lambda factor min, max step, zero gradient, "
                         "divergence check, algorithm, scale newton step, abort at lambda min, ...)");
      }
    }
  }

  /// `output: <kind>, {<label> [, ...] | range, <first>, <last>};` in the nodes or elements
  /// block (input manual §6.x/§8.20.4): switches the output of those entities on.
  void read_output_selection(CardReader& in, const std::string& family) {
    std::string kind = in.keyword();
    if (family == "element" && kind.size() > 1 && kind.back() == 's') kind.pop_back();  // "joints"
    // `output: structural, accelerations, ...` also outputs the nodes' accelerations (dataman3.cc
    // ReadNodes), as the node card's `accelerations, yes`.
    const bool accelerations = family == "node" && kind == "structural" && in.keyword_is("accelerations");
    auto enable = [&](unsigned label, const parser::SourceLocation& where) {
      if (family == "node") {
        if (Node* n = ctx_->model().find_node(kind, label)) {
          if (auto* s = dynamic_cast<StructNode*>(n); s && accelerations) s->compute_accelerations = true;
          return n->set_output_enabled(true);
        }
      } else if (Element* e = ctx_->model().find_element(kind, label)) {
        return e->set_output_enabled(true);
      }
      throw parser::InputError(where, fmt::format("expected the label of a {} {} defined above, found {}", kind, family, label));
    };
    while (!in.at_end()) {
      if (in.keyword_is("range")) {
        const auto where = in.location();
        const unsigned first = in.label(), last = in.label();
        for (unsigned l = first; l <= last; ++l)
          if ((family == "node" ? static_cast<void*>(ctx_->model().find_node(kind, l))
                                : static_cast<void*>(ctx_->model().find_element(kind, l))))
            enable(l, where);
      } else {
        const auto where = in.location();
        enable(in.label(), where);
      }
    }
  }

  /// Node, element and driver cards: `<kind>: <label>, ...;` dispatched through the registries.
  void read_labelled(CardReader& in, const std::string& family) {
    if (read_definition(in)) return;
    const std::string d(in.description());
    if (d == "output" && family != "driver") return read_output_selection(in, family);
    if (family == "element") {
      if (const CardReaderFn* f = CardRegistry::family("unlabelled element").find(d)) {
        const std::size_t before = result_.read_context->count("not implemented");
        const std::size_t elements_before = result_.model->elements().size();
        ctx_->clear_connected_nodes();
        try {
          (*f)(in, *ctx_, 0);
        } catch (const CardSkipped&) {
          return;
        }
        if (result_.model->elements().size() > elements_before)
          result_.model->set_connected_nodes(*result_.model->elements().back(), ctx_->take_connected_nodes());
        if (result_.read_context->count("not implemented") == before) in.expect_end();
        ++found_[d];
        return;
      }
    }
    const CardReaderFn* f = CardRegistry::family(family).find(d);
    if (!f) {
      // `<kind>: <label>, ...`: remember the label, so that cards using it are skipped too.
      if (family != "driver" && !in.at_end()) {
        try {
          ctx_->skip(d, in.label());
        } catch (const parser::InputError&) {
          // a card without a label (`air properties: ...`)
        }
      }
      // A card MBDyn has (a definition or a kind of this block) is not implemented; any other is
      // an input error naming the nearest kind.
      if (kinds::find("definition", d)) kinds::reject(in, "definition", "card", in.card_location(), d);
      else kinds::reject(in, family, family + " type", in.card_location(), d);
      ++found_[counted_name(d, family)];
      return;
    }
    const unsigned label = family == "driver" ? 0 : in.label();
    // `<card>: <label> [, name, "<name>"], ...` (input manual §2.1): names are for output only.
    std::string name;
    if (family != "driver" && in.keyword_is("name")) name = in.string();
    const std::size_t before = result_.read_context->count("not implemented");
    const auto& elements = result_.model->elements();
    const std::size_t elements_before = elements.size();
    const auto& nodes = result_.model->nodes();
    const std::size_t nodes_before = nodes.size();
    ctx_->clear_connected_nodes();
    try {
      (*f)(in, *ctx_, label);
    } catch (const CardSkipped&) {
      if (family != "driver") ctx_->skip(d, label);
      return;
    }
    if (elements.size() > elements_before) result_.model->set_connected_nodes(*elements.back(), ctx_->take_connected_nodes());
    if (result_.read_context->count("not implemented") == before) {
      if (family == "element" && ctx_->inverse_dynamics())
        read_inverse_dynamics_flags(in, elements.size() > elements_before ? elements.back().get() : nullptr);
      in.expect_end();
    } else if (family != "driver") {
      ctx_->skip(d, label);
    }
    if (elements.size() > elements_before) elements.back()->name = name;
    // Labels are unique per node and element type (forces and couples share theirs), as in MBDyn.
    auto check_unique = [&](std::string_view kind, unsigned l, const char* what) {
      const auto [where, inserted] =
          labels_.emplace(std::tuple{std::string(what), counted_name(std::string(kind)), l}, in.card_location());
      if (!inserted)
        throw parser::InputError(in.card_location(),
                                 fmt::format("{} {} {} is already defined at {}", kind, what, l, where->second.str()));
    };
    for (std::size_t i = nodes_before; i < nodes.size(); ++i) check_unique(nodes[i]->kind(), nodes[i]->label(), "node");
    for (std::size_t i = elements_before; i < elements.size(); ++i)
      check_unique(elements[i]->kind(), elements[i]->label(), "element");
    // A `driven` card counts as the element it wraps (control data `joints:`, ...); wrapping an
    // `existing` one adds no element and counts for nothing.
    if (d != "driven") ++found_[counted_name(d, family)];
    else if (elements.size() > elements_before) ++found_[counted_name(std::string(elements.back()->kind()), family)];
  }

  /// `inverse dynamics [, torque, <b>] [, prescribed motion, <b>] [, right hand side, <b>]
  /// [, ergonomy, <b>]` after an element card under `problem: inverse dynamics` (MBDyn's joint,
  /// body and beam readers): the element's role in the inverse dynamics phase.
  void read_inverse_dynamics_flags(CardReader& in, const Element* e) {
    if (!in.keyword_is("inverse dynamics")) return;
    const bool joint = e && e->kind() == "joint";
    InverseDynamicsSettings::Flags f = InverseDynamicsSettings::default_flags(joint, true);
    for (auto [flag, value] : {std::pair{"torque", &f.torque}, std::pair{"prescribed motion", &f.prescribed_motion},
                               std::pair{"right hand side", &f.right_hand_side}, std::pair{"ergonomy", &f.ergonomy}})
      if (in.keyword_is(flag)) *value = in.boolean();
    if (e) result_.settings.inverse_dynamics.flags[e] = f;
  }

  std::string counted_name(const std::string& d) {
    // Couples are counted with the forces (input manual §5.4 "forces").
    if (d == "beam2" || d == "beam3" || d == "hbeam") return "beam";
    // MBDyn 2024 counts `user defined:` elements (and the older `loadable:`) with control data
    // `loadable elements:` (dataman4.cc); our `user defined elements:` counter is a synonym.
    if (d == "userdefined") return "loadable";  // control data `beams:` counts them all
    if (d.rfind("aerodynamic", 0) == 0) return "aerodynamic";  // bodies and beams: `aerodynamic elements:`
    if (d == "genericaerodynamicforce" || d == "aircraftinstruments") return "aerodynamic";
    // `rotor:` is MBDyn's older name of `induced velocity: ..., rotor`; both counters count both.
    if (d == "inducedvelocity" || d == "rotor") return "induced velocity";
    // control data `plates:` counts shells and membranes (input manual §8.15)
    if (d == "shell4eas" || d == "shell4easans" || d == "membrane4eas") return "plate";
    // control data `output elements:`, `solids:` and `surface loads:` count every kind of §8.14,
    // §8.16 and §8.17
    if (const kinds::Kind* k = kinds::find("element", d)) {
      if (k->section.starts_with("8.14")) return "output";
      if (k->section.starts_with("8.16")) return "solid";
      if (k->section.starts_with("8.17")) return "surface load";
    }
    return d == "couple" ? "force" : d;
  }
  /// Electric and hydraulic nodes and elements share their card names; control data counts them apart.
  std::string counted_name(const std::string& d, const std::string& family) {
    if (family == "element" && (d == "electric" || d == "hydraulic" || d == "thermal")) return d + " element";
    return counted_name(d);
  }

  /// Definitions that may appear in any block; returns true if handled.
  bool read_definition(CardReader& in) {
    const CardReaderFn* f = CardRegistry::family("definition").find(in.description());
    if (!f) return false;
    const std::size_t before = result_.read_context->count("not implemented");
    try {
      (*f)(in, *ctx_, 0);
    } catch (const CardSkipped&) {
      return true;
    }
    if (result_.read_context->count("not implemented") == before) in.expect_end();
    return true;
  }

  void unknown(CardReader& in, const char* block) {
    // Control data, initial value, inverse dynamics: a card MBDyn 2024 reads there (the kinds
    // table) is not implemented; any other is an input error, as MBDyn's ReadControl and
    // Solver::ReadData refuse it ("unknown description").
    std::string family(block);
    if (family == "initial value" && block_ == "inversedynamics") family = "inverse dynamics";
    if (family != "data")
      return kinds::reject(in, family, family + " card", in.card_location(), description_as_written(in));
    in.not_implemented(fmt::format("{} card \"{}\"", block, in.description()));
  }

  /// The card's description as the deck spells it (up to its ':' or ';' on the card's line).
  static std::string description_as_written(const CardReader& in) {
    const parser::SourceLocation& at = in.card_location();
    if (!at.file || at.column < 1) return std::string(in.description());
    std::string_view line = at.file->line_text(at.line);
    if (static_cast<std::size_t>(at.column - 1) >= line.size()) return std::string(in.description());
    line.remove_prefix(static_cast<std::size_t>(at.column - 1));
    line = line.substr(0, line.find_first_of(":;"));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    return line.empty() ? std::string(in.description()) : std::string(line);
  }

  void finish() {
    Model& m = *result_.model;
    drives::check_postponed_drives(*result_.read_context);
    // The names string drives read at run time must be defined by now (a Lua script may still
    // define some of its own at run time: mbdyn.set).
    if (!result_.read_context->find_named<void>("lua engine", "")) m.math().check_run_time_names();
    for (auto& d : drives::stateful_drives(*result_.read_context)) m.register_drive(d);
    m.setup_elements();
    // Summary for --check.
    for (const auto& n : m.nodes()) {
      auto* s = dynamic_cast<StructNode*>(n.get());
      ++result_.summary[fmt::format("{} node{}", n->kind(), s ? fmt::format(" ({})", s->type_name()) : "")];
    }
    for (const auto& e : m.elements()) ++result_.summary[fmt::format("{} ({})", e->kind(), e->type_name())];
    result_.not_implemented = result_.read_context->count("not implemented");
    // Control-data counters must match what was read (MBDyn refuses a mismatch).
    if (result_.not_implemented == 0) {
      for (const auto& [family, n] : declared_) {
        const int found = found_.count(family) ? found_[family] : 0;
        if (found != n && family != "gravity" && family != "inertia")
          throw parser::InputError(declared_where_[family],
                                   fmt::format("expected {} {} card(s) as declared here, found {}", n, family, found));
      }
    }
  }

  BuildResult result_;
  std::unique_ptr<BuildContext> ctx_;
  std::string block_;
  int stage_ = -1;  ///< index in kStages of the last block begun
  parser::SourceLocation final_time_where_;  ///< the `final time:` card, if any
  /// ("node" or "element", type, label) -> the card that defined it
  std::map<std::tuple<std::string, std::string, unsigned>, parser::SourceLocation> labels_;
  std::string block_written_;              ///< the open block's name as written
  parser::SourceLocation block_where_;     ///< its `begin:` card (no file before the first one)
  std::map<std::string, int> declared_, found_;
  std::map<std::string, parser::SourceLocation> declared_where_;
};

}  // namespace

DeckDefine parse_define(const std::string& arg) {
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(fmt::format("-D {}: expected name=value or name:type=value", arg));
  DeckDefine d;
  d.text = arg;
  d.name = arg.substr(0, eq);
  d.value = arg.substr(eq + 1);
  if (const std::size_t colon = d.name.find(':'); colon != std::string::npos) {
    d.type = d.name.substr(colon + 1);
    d.name.resize(colon);
    static const char* const types[] = {"bool", "integer", "real", "string"};
    if (std::find(std::begin(types), std::end(types), d.type) == std::end(types))
      throw std::invalid_argument(fmt::format(
          "-D {}: expected a type bool, integer, real or string, found \"{}\"", arg, d.type));
  }
  const bool name_ok = !d.name.empty() && (std::isalpha((unsigned char)d.name[0]) || d.name[0] == '_') &&
                       std::all_of(d.name.begin(), d.name.end(), [](unsigned char c) {
                         return std::isalnum(c) || c == '_';
                       });
  if (!name_ok)
    throw std::invalid_argument(fmt::format("-D {}: expected a variable name, found \"{}\"", arg, d.name));
  return d;
}

BuildResult read_deck(const std::string& path, const std::vector<DeckDefine>& defines) {
  Builder b;
  for (const DeckDefine& d : defines)
    b.read_context().math().define(d.name, d.type, d.value,
                                   fmt::format("on the command line (-D {})", d.text));
  parser::DeckReader deck(path, b.read_context());
  b.run(deck);
  return b.take();
}

BuildResult read_deck_text(const std::string& name, const std::string& text) {
  Builder b;
  parser::DeckReader deck(name, text, b.read_context());
  b.run(deck);
  return b.take();
}

}  // namespace mbl
