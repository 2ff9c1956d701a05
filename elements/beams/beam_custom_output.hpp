#pragma once
// `custom output` of beams and `default beam output:` (input manual §8.3.2, §5.3.13): which
// evaluation-point quantities a beam writes to NetCDF, and which strain columns it appends to
// its .act line (MBDyn's ReadBeamCustomOutput, Beam::OutputPrepare/Output in beam.cc).
#include "mbdyn-like/core/card_registry.hpp"
#include "parser/card_reader.hpp"

namespace mbl::elements {

/// MBDyn's Beam::OUTPUT_EP_* bits (beam.h), relative to ToBeOutput::OUTPUT_PRIVATE.
namespace beam_output {
inline constexpr unsigned kPosition = 1u << 0;        ///< `position`: X
inline constexpr unsigned kOrientation = 1u << 1;     ///< `orientation`: E, Phi or R
inline constexpr unsigned kForce = 1u << 2;           ///< `force`: F
inline constexpr unsigned kMoment = 1u << 3;          ///< `moment`: M
inline constexpr unsigned kLinearStrain = 1u << 4;    ///< `linear strain`: nu
inline constexpr unsigned kAngularStrain = 1u << 5;   ///< `angular strain`: k
inline constexpr unsigned kLinearStrainRate = 1u << 6;   ///< `linear strain rate`: nuP
inline constexpr unsigned kAngularStrainRate = 1u << 7;  ///< `angular strain rate`: kP
inline constexpr unsigned kStrainRates = kLinearStrainRate | kAngularStrainRate;
/// `all` is MBDyn's whole private mask: every bit, those not used included.
inline constexpr unsigned kAll = ~0u;
/// MBDyn's Beam::OUTPUT_DEFAULT (elman.cc): force and moment.
inline constexpr unsigned kDefault = kForce | kMoment;
}  // namespace beam_output

/// The flags a beam card starts from: `default beam output:` if given, else the default.
OutputDefaults::CustomOutput beam_output_default(BuildContext& ctx);

/// Reads `<flag> [, ...]` (position, orientation [, orientation description, <od>],
/// configuration, force, moment, forces, linear strain, angular strain, strains, linear strain
/// rate, angular strain rate, strain rates, all, none) into `out`, which it first clears, as
/// MBDyn's ReadBeamCustomOutput: stops at the first word that is not a flag; a flag overlapping
/// one already given is an input error; strain rates of a beam that is not `viscous` are ignored
/// with a warning.
void read_beam_custom_output(parser::CardReader& in, BuildContext& ctx, bool viscous,
                             OutputDefaults::CustomOutput& out);

}  // namespace mbl::elements
