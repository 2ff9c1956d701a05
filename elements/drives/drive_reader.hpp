#pragma once
// Reading drive callers (input manual §2.6) and the cards around them:
//   read_drive_caller             `<drive_caller>` argument of any card (registry keyword -> reader)
//   read_drive_caller_card        `drive caller: label, [name, "n",] <drive_caller> [, output, yes];`
//   read_template_drive_caller_card   `template drive caller: label, dim, <tpl_drive_caller>;`
//   read_scalar_function_card     `scalar function: "name", type, args;` (scalar_function.hpp)
//   read_file_driver_card         `file: label, fixed step | variable step, ...;` (drivers block)
//
// Stateful drives (bistop, closest next, discrete filter, sample and hold) are collected while
// reading; after the deck is read the model registers stateful_drives(ctx) with
// Model::register_drive, in the order given (outer drives before the drives they contain).
#include <functional>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/step_observer.hpp"
#include "parser/card_reader.hpp"
#include "parser/read_context.hpp"

namespace mbl::drives {

/// Reads one `<drive_caller>`: a type keyword and its arguments, `reference, label`, or a bare
/// number (const). `env` is the model's (time, time step, step, MathParser for string drives);
/// it must outlive the drive callers.
DriveCallerPtr read_drive_caller(parser::CardReader& in, DriveEnvironment& env);

/// Reads a drive caller from text, e.g. the body of a `hint, "drive{...}"` (§2.6.41) once the
/// caller has stripped `drive{` and `}`. `name` labels error locations ("hint of driven 3").
DriveCallerPtr drive_caller_from_text(const std::string& text, const std::string& name,
                                      parser::ReadContext& ctx, DriveEnvironment& env);

/// A `drive caller:` definition.
struct DriveCallerDefinition {
  unsigned label = 0;
  std::string name;
  DriveCallerPtr drive;
  bool output = false;        ///< the value is written to the .drv file (`output, yes`)
  bool output_derivative = false;  ///< so is its derivative (`output, yes` of a differentiable drive)
  bool output_trace = false;  ///< `output trace, yes`
  parser::SourceLocation where;
};

/// The `drive caller:` card; stores the drive for `reference, label` (and `postponed, label`)
/// and returns the definition (for the .drv output).
DriveCallerDefinition read_drive_caller_card(parser::CardReader& in, DriveEnvironment& env);

/// The `template drive caller:` card (§2.4.12); stored per dimension for `reference, label`.
void read_template_drive_caller_card(parser::CardReader& in, DriveEnvironment& env);

/// The `file:` card of the `begin: drivers;` block (chapter 7): fixed step, variable step,
/// socket or stream; returns the driver's step hook for those fed by a peer (else nullptr).
std::shared_ptr<StepObserver> read_file_driver_card(parser::CardReader& in, DriveEnvironment& env);

/// Stateful drives read so far, outer ones first (the order in which to advance them).
std::vector<DriveCallerPtr> stateful_drives(parser::ReadContext& ctx);

/// Every `drive caller:` definition read so far, in input order.
const std::vector<DriveCallerDefinition>& drive_caller_definitions(parser::ReadContext& ctx);

/// Throws InputError at the first use of a `postponed` drive whose label was never defined.
void check_postponed_drives(parser::ReadContext& ctx);

/// Registers `model::drive(label[, x])` in the math parser: the value of drive caller `label`
/// at x (default: the current time of `env`).
void install_drive_math_functions(parser::ReadContext& ctx, DriveEnvironment& env);

/// Reader of the arguments that follow a drive caller type keyword.
using DriveCallerReader = std::function<DriveCallerPtr(parser::CardReader&, DriveEnvironment&)>;
/// Adds a drive caller type; `keyword` is compared like CardReader::keyword_is.
void register_drive_caller_type(const std::string& keyword, DriveCallerReader reader);

}  // namespace mbl::drives
