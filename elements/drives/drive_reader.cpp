// Dispatch of `<drive_caller>` arguments to the registered readers, named definitions
// (`drive caller:`, `reference`, `postponed`) and the per-deck drive tables.
#include "elements/drives/drive_reader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "elements/drives/drive_callers.hpp"
#include "elements/input/bare_word.hpp"
#include "parser/deck/deck_reader.hpp"
#include "elements/drives/drive_registry.hpp"
#include "mbdyn-like/core/card_registry.hpp"
#include "mbdyn-like/core/mbdyn_kinds.hpp"
#include "parser/errors.hpp"
#include "parser/size_limits.hpp"

namespace mbl::drives {

namespace {

DriveCallerRegistry& registry() {
  static DriveCallerRegistry r = [] {
    DriveCallerRegistry reg;
    register_function_drives(reg);
    register_composite_drives(reg);
    register_stateful_drives(reg);
    register_entity_drives(reg);
    register_file_drive(reg);
    return reg;
  }();
  return r;
}

std::string key_of(unsigned label) { return std::to_string(label); }

}  // namespace

void register_drive_caller_type(const std::string& keyword, DriveCallerReader reader) {
  registry()[keyword] = std::move(reader);
}

DriveTables& drive_tables(parser::ReadContext& ctx) {
  auto t = ctx.find_named<DriveTables>("drive tables", "");
  if (!t) {
    t = std::make_shared<DriveTables>();
    ctx.add_named("drive tables", "", t);
  }
  return *t;
}

DriveCallerPtr read_drive_caller(parser::CardReader& in, DriveEnvironment& env) {
  const parser::SourceLocation where = in.location();
  if (in.keyword_is("reference")) {
    const parser::SourceLocation label_at = in.location();
    const unsigned label = in.label();
    auto d = in.context().find_named<DriveCaller>("drive caller", key_of(label));
    if (!d) throw parser::InputError(label_at, fmt::format("drive caller {} is not defined", label));
    return d;
  }
  if (in.peek_keyword_is("ginac")) {
    in.not_implemented("drive caller \"ginac\" (GiNaC symbolic drives; input manual §2.6.18)");
    throw CardSkipped{};
  }
  for (const auto& [keyword, reader] : registry()) {
    if (!in.keyword_is(keyword)) continue;
    DriveCallerPtr d = reader(in, env);
    if (d->is_stateful()) drive_tables(in.context()).stateful.push_back(d);
    return d;
  }
  if (elements::next_is_unknown_word(in))
    throw parser::InputError(where, kinds::unknown_message("drive caller", "drive caller", in.peek_text()) +
                                        " (expected a drive caller or a number)");
  return std::make_shared<ConstDrive>(in.real());  // §2.6: a bare number is a const drive
}

DriveCallerPtr drive_caller_from_text(const std::string& text, const std::string& name,
                                      parser::ReadContext& ctx, DriveEnvironment& env) {
  parser::DeckReader reader(name, "drive: " + text + ";", ctx);
  parser::CardReader* card = reader.next_card();
  if (!card) throw parser::InputError({}, fmt::format("{}: expected a drive caller", name));
  DriveCallerPtr d = read_drive_caller(*card, env);
  card->expect_end();
  return d;
}

/// `output, {<bool> | [value, <bool>] [, derivative, <bool>]}` (MBDyn's DriveCallerRead::ReadOutput):
/// a bare flag writes the value and, for a differentiable drive, its derivative.
void read_output_flags(parser::CardReader& in, DriveCallerDefinition& def) {
  const bool value = in.keyword_is("value");
  if (value) def.output = in.boolean();
  const bool derivative = in.keyword_is("derivative");
  if (derivative) def.output_derivative = in.boolean();
  if (!value && !derivative) def.output = def.output_derivative = in.boolean();
  def.output_derivative = def.output_derivative && def.drive->has_derivative();
}

DriveCallerDefinition read_drive_caller_card(parser::CardReader& in, DriveEnvironment& env) {
  DriveCallerDefinition def;
  def.where = in.card_location();
  const parser::SourceLocation label_at = in.location();
  def.label = in.label();
  auto& ctx = in.context();
  if (ctx.find_named<DriveCaller>("drive caller", key_of(def.label)))
    throw parser::InputError(label_at,
                             fmt::format("drive caller {} is already defined", def.label));
  if (in.keyword_is("name")) def.name = in.string();
  // `deferred` lets MBDyn read, before its data manager exists, a drive that needs it
  // (mbpar.cc DriveCaller_int); ours are read the same way everywhere.
  in.keyword_is("deferred");
  def.drive = read_drive_caller(in, env);
  while (!in.at_end()) {
    if (in.keyword_is("output trace")) {
      // `output trace, {value, <bool> [, derivative, <bool>] | derivative, <bool> | <bool>}`
      // (drive_.cc DriveCallerRead::ReadOutput).
      const bool value_given = in.keyword_is("value");
      const bool value = value_given && in.boolean();
      const bool derivative_given = in.keyword_is("derivative");
      const bool derivative = derivative_given && in.boolean();
      def.output_trace = value || derivative || (!value_given && !derivative_given && in.boolean());
    }
    else if (in.keyword_is("output"))
      read_output_flags(in, def);
    else
      in.fail_expected("`output`, `output trace` or ';'");
  }
  in.expect_end();
  ctx.add_named("drive caller", key_of(def.label), def.drive);
  auto& tables = drive_tables(ctx);
  if (auto it = tables.postponed.find(def.label); it != tables.postponed.end())
    it->second->target = def.drive;
  tables.definitions.push_back(def);
  return def;
}

std::vector<DriveCallerPtr> stateful_drives(parser::ReadContext& ctx) {
  const auto& s = drive_tables(ctx).stateful;
  return {s.rbegin(), s.rend()};  // a drive is created after the drives it contains
}

const std::vector<DriveCallerDefinition>& drive_caller_definitions(parser::ReadContext& ctx) {
  return drive_tables(ctx).definitions;
}

void check_postponed_drives(parser::ReadContext& ctx) {
  for (const auto& [label, slot] : drive_tables(ctx).postponed)
    if (!slot->target)
      throw parser::InputError(slot->first_use,
                               fmt::format("postponed drive caller {} is never defined "
                                           "(expected a `drive caller: {}, ...;` card)",
                                           label, label));
}

void install_drive_math_functions(parser::ReadContext& ctx, DriveEnvironment& env) {
  parser::ReadContext* pctx = &ctx;
  DriveEnvironment* penv = &env;
  ctx.math().register_function(
      "model", "drive", [pctx, penv](std::span<const math::Value> args) -> math::Value {
        if (args.empty() || args.size() > 2)
          throw std::invalid_argument("model::drive(label[, x]) takes one or two arguments");
        const auto label = args[0].to_integer();
        auto d = pctx->find_named<DriveCaller>("drive caller", std::to_string(label));
        if (!d) throw std::invalid_argument(fmt::format("drive caller {} is not defined", label));
        const double x = args.size() == 2 ? args[1].to_real() : penv->time;
        return math::Value(d->value(x));
      });
}

// ---- argument helpers ----------------------------------------------------------------------

double read_end_time(parser::CardReader& in) {
  if (in.keyword_is("forever")) return kForever;
  return in.real();
}

long read_cycles(parser::CardReader& in, bool allow_half) {
  if (in.keyword_is("forever")) return 0;
  if (in.keyword_is("one")) return 1;
  if (allow_half && in.keyword_is("half")) return -1;
  const parser::SourceLocation at = in.location();
  const auto n = in.integer();
  if (n == 0)
    throw parser::InputError(at, "expected a non-zero number of cycles, `one`, `half` or "
                                 "`forever`, found 0");
  if (!allow_half && n < 0)
    throw parser::InputError(at, fmt::format("expected a positive number of cycles, found {}", n));
  return long(n);
}

long read_count(parser::CardReader& in, long min, std::string_view what) {
  const parser::SourceLocation at = in.location();
  const auto n = in.integer();
  if (n < min)
    throw parser::InputError(at, fmt::format("expected {} >= {}, found {}", what, min, n));
  // Counts size storage (channels, steps, drive callers): an absurd one is refused here.
  if (n > parser::kMaxCount)
    throw parser::InputError(at, fmt::format("expected {} <= {}, found {}", what, parser::kMaxCount, n));
  return long(n);
}

}  // namespace mbl::drives
