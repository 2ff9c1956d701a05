#include "mbdyn-like/core/mbdyn_kinds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <vector>

#include "parser/deck/card_lexer.hpp"
#include "parser/errors.hpp"
#include "parser/read_context.hpp"

namespace mbl::kinds {
namespace {

struct Family {
  std::string_view name;
  std::vector<Kind> kinds;
};

// Taken from the input manual (../shared/reference/mbdyn-input-manual.txt): the grammar of each
// family and its table of contents. Spellings MBDyn also accepts (older names, aliases) are listed
// with the section of the kind they stand for.
const std::vector<Family>& table() {
  static const std::vector<Family> families = {
      {"node",
       {{"abstract", "6.1"}, {"electric", "6.2"}, {"hydraulic", "6.3"}, {"parameter", "6.4"},
        {"structural", "6.5"}, {"thermal", "6.6"}}},
      {"structural node",
       {{"static", "6.5.1"}, {"dynamic", "6.5.2"}, {"modal", "6.5.3"}, {"static displacement", "6.5.4"},
        {"dynamic displacement", "6.5.4"}, {"dummy", "6.5.5"}}},
      {"parameter node", {{"element", "6.4"}, {"value", "6.4"}, {"sample and hold", "6.4"}, {"beam strain gage", "6.4"}}},
      // Cards allowed in any block (input manual §2.4, §2.7).
      {"definition",
       {{"constitutive law", "2.4.1"}, {"c81 data", "2.4.2"}, {"drive caller", "2.4.3"}, {"hydraulic fluid", "2.4.4"},
        {"module load", "2.4.6"}, {"print symbol table", "2.4.7"}, {"template drive caller", "2.4.12"},
        {"scalar function", "2.7"},
        // MBDyn's description cards (mbpar.cc and parser.cc InitDescData; §2.13 for the first two)
        {"license", "2.13"}, {"warranty", "2.13"}, {"exit", "2.13"}}},
      {"driver", {{"file", "7.1"}}},
      {"file driver",
       {{"fixed step", "7.1.1"}, {"variable step", "7.1.2"}, {"socket", "7.1.3"}, {"rtai input", "7.1.4"},
        {"stream", "7.1.5"}, {"socket stream", "7.1.5"},
        {"buffer stream", "7.1.5"}}},  // MBDyn's drive_.cc InitDriveData (memory buffers of the C API); not in the manual
      {"element",
       {{"aerodynamic body", "8.1.1"},
        {"aerodynamic beam", "8.1.1"},  // older name of aerodynamic beam3
        {"aerodynamic beam2", "8.1.1"},
        {"aerodynamic beam3", "8.1.1"},
        {"aeromodal", "8.1.2"},
        {"aircraft instruments", "8.1.3"},
        // MBDyn's dataman4.cc ReadElems (aeroext.cc, the external aerodynamics of §8.1); not in the manual
        {"aerodynamic external", "8.1"},
        {"aerodynamic external modal", "8.1"},
        {"air properties", "8.1.4"},
        {"gust", "8.1.4"},  // `gust: <gust_model>;` appends a gust to the air properties (§8.1.4, "Gust")
        {"generic aerodynamic force", "8.1.5"},
        {"induced velocity", "8.1.6"},
        {"rotor", "8.1.7"},
        {"automatic structural", "8.2"},
        {"beam3", "8.3.2"},
        {"beam2", "8.3.3"},
        {"beam", "8.3.2"},
        {"hbeam", "8.3"},  // MBDyn's experimental two-node beam (not in the manual's grammar)
        {"body", "8.4"},
        {"bulk", "8.5"},
        {"couple", "8.6"},
        {"electric", "8.7"},
        {"force", "8.8"},
        {"genel", "8.9"},
        {"gravity", "8.10"},
        {"hydraulic", "8.11"},
        {"joint", "8.12"},
        {"joint regularization", "8.13"},
        {"output element", "8.14"},  // MBDyn 2024's name (dataman4.cc); `stream output` is its deprecated form
        {"stream output", "8.14.1"},
        {"rtai output", "8.14.2"},
        {"stream motion output", "8.14.3"},
        {"shell4eas", "8.15.1"},
        {"shell4easans", "8.15.1"},
        {"membrane4eas", "8.15.2"},
        {"hexahedron8", "8.16"},
        {"hexahedron20", "8.16"},
        {"hexahedron20r", "8.16"},
        {"hexahedron27", "8.16"},
        {"pentahedron15", "8.16"},
        {"tetrahedron10", "8.16"},
        {"hexahedron8upc", "8.16"},
        {"hexahedron20upc", "8.16"},
        {"hexahedron20upcr", "8.16"},
        {"pentahedron15upc", "8.16"},
        {"tetrahedron10upc", "8.16"},
        {"hexahedron8f", "8.16"},
        {"hexahedron20f", "8.16"},
        {"hexahedron20fr", "8.16"},
        {"hexahedron27f", "8.16"},
        {"pentahedron15f", "8.16"},
        {"tetrahedron10f", "8.16"},
        {"pressureq4", "8.17.1"},
        {"pressureq8", "8.17.1"},
        {"pressureq8r", "8.17.1"},
        {"pressureq9", "8.17.1"},
        {"pressuret6", "8.17.1"},
        {"tractionq4", "8.17.2"},
        {"tractionq8", "8.17.2"},
        {"tractionq8r", "8.17.2"},
        {"tractionq9", "8.17.2"},
        {"tractiont6", "8.17.2"},
        {"thermal", "8.18"},
        {"loadable", "8.19.1"},
        {"user defined", "8.19.2"},
        {"bind", "8.20.1"},
        {"driven", "8.20.2"},
        {"inertia", "8.20.3"},
        {"output", "8.20.4"}}},
      {"joint",
       {{"angular acceleration", "8.12.1"},
        {"angular velocity", "8.12.2"},
        {"axial rotation", "8.12.3"},
        {"beam slider", "8.12.4"},
        {"brake", "8.12.5"},
        {"cardano hinge", "8.12.6"},
        {"cardano pin", "8.12.7"},
        {"cardano rotation", "8.12.8"},
        {"clamp", "8.12.9"},
        {"coincidence", "8.12.10"},
        {"deformable axial joint", "8.12.11"},
        {"deformable displacement hinge", "8.12.12"},
        {"deformable displacement joint", "8.12.13"},
        {"deformable hinge", "8.12.14"},
        {"deformable joint", "8.12.15"},
        {"distance", "8.12.16"},
        {"distance with offset", "8.12.17"},
        {"drive displacement", "8.12.18"},
        {"drive displacement pin", "8.12.19"},
        {"drive hinge", "8.12.20"},
        {"gimbal hinge", "8.12.21"},
        {"gimbal rotation", "8.12.22"},
        {"imposed displacement", "8.12.23"},
        {"imposed displacement pin", "8.12.24"},
        {"in line", "8.12.25"},
        {"in plane", "8.12.26"},
        {"invariant deformable displacement joint", "8.12.27"},
        {"invariant deformable hinge", "8.12.28"},
        {"linear acceleration", "8.12.29"},
        {"linear velocity", "8.12.30"},
        {"modal", "8.12.31"},
        {"offset displacement joint", "8.12.32"},
        {"plane displacement", "8.12.33"},
        {"plane displacement pin", "8.12.34"},
        {"plane hinge", "8.12.35"},
        {"plane pin", "8.12.36"},
        {"prismatic", "8.12.37"},
        {"revolute hinge", "8.12.38"},
        {"revolute pin", "8.12.39"},
        {"revolute rotation", "8.12.40"},
        {"rigid body displacement joint", "8.12.41"},
        {"rod", "8.12.42"},
        {"rod with offset", "8.12.43"},
        {"rod bezier", "8.12.42"},  // MBDyn's joint.cc ReadJoint; the manual describes the plain rod only
        {"screw", "8.12.44"},
        {"spherical hinge", "8.12.45"},
        {"spherical pin", "8.12.46"},
        {"pin", "8.12.46"},  // older name of the spherical pin
        {"total equation", "8.12.47"},
        {"total joint", "8.12.48"},
        {"total pin joint", "8.12.49"},
        {"total reaction", "8.12.50"},
        {"total internal reaction", "8.12.50"},
        // Kinds MBDyn 2024's joint reader takes that the manual does not list.
        {"invariant deformable joint", "8.12.15"},
        {"imposed orientation", "8.12.48"},  // obsolete: MBDyn builds a total joint
        {"kinematic", "8.12"},               // obsolete
        {"point contact", "8.12"},
        {"universal hinge", "8.12.51"},
        {"universal pin", "8.12.52"},
        {"universal rotation", "8.12.53"},
        {"viscous body", "8.12.54"}}},
      {"force",
       {{"abstract", "8.8.2"},
        {"abstract internal", "8.8.3"},  // the manual's "abstract reaction force"
        {"absolute", "8.8.4"},
        {"follower", "8.8.4"},
        {"total", "8.8.4"},
        {"conservative", "8.8.4"},
        {"absolute displacement", "8.8.4"},
        {"absolute internal displacement", "8.8.5"},
        {"internal absolute displacement", "8.8.5"},
        {"absolute internal", "8.8.5"},
        {"follower internal", "8.8.5"},
        {"total internal", "8.8.5"},
        {"conservative internal", "8.8.5"},
        {"modal", "8.8.8"},
        {"external structural", "8.8.10"},
        {"external structural mapping", "8.8.11"},
        {"external modal", "8.8.12"},
        {"external modal mapping", "8.8.13"}}},
      {"couple",
       {{"absolute", "8.8.6"},
        {"follower", "8.8.6"},
        {"total", "8.8.6"},
        {"conservative", "8.8.6"},
        {"absolute internal", "8.8.7"},
        {"follower internal", "8.8.7"},
        {"total internal", "8.8.7"},
        {"conservative internal", "8.8.7"}}},
      {"hydraulic",
       {{"accumulator", "8.11.1"},
        {"actuator", "8.11.2"},
        {"control valve", "8.11.3"},
        {"control valve 2", "8.11.3"},
        {"dynamic control valve", "8.11.4"},
        {"dynamic pipe", "8.11.5"},
        {"flow valve", "8.11.6"},
        {"minor loss", "8.11.9"},
        {"orifice", "8.11.10"},
        {"pipe", "8.11.11"},
        {"pressure flow control valve", "8.11.12"},
        {"pressure valve", "8.11.13"},
        {"tank", "8.11.14"},
        {"three way minor loss", "8.11.15"}}},
      {"electric",
       {{"accelerometer", "8.7.1"}, {"discrete control", "8.7.2"}, {"displacement", "8.7.3"}, {"motor", "8.7.4"}}},
      {"thermal", {{"capacitance", "8.18.1"}, {"resistance", "8.18.2"}, {"source", "8.18.3"}}},
      {"hydraulic fluid",
       {{"incompressible", "2.11.1"},
        {"uncompressible", "2.11.1"},
        {"linear compressible", "2.11.2"},
        {"linear thermal compressible", "2.11.3"},
        {"super", "2.11.4"},
        {"exponential", "2.11.5"}}},
      // bulk.cc reads `spring support` (the manual's §8.5.1 says "stiffness spring").
      {"bulk", {{"spring support", "8.5.1"}}},
      {"genel",
       {{"clamp", "8.9.1"},
        {"distance", "8.9.1"},
        {"spring", "8.9.1"},
        {"spring support", "8.9.1"},
        {"cross spring support", "8.9.1"},
        {"mass", "8.9.1"},
        {"scalar filter", "8.9.1"},
        {"state space SISO", "8.9.1"},
        {"state space MIMO", "8.9.1"},
        {"swashplate", "8.9.2"},
        {"rotor trim", "8.9.2"}}},
      {"constitutive law",
       {{"linear elastic", "2.10.1"},
        {"linear elastic isotropic", "2.10.1"},
        {"linear elastic generic", "2.10.2"},
        {"linear elastic generic axial torsion coupling", "2.10.3"},
        {"cubic elastic generic", "2.10.4"},
        {"inverse square elastic", "2.10.5"},
        {"log elastic", "2.10.6"},
        {"linear elastic bistop", "2.10.7"},
        {"double linear elastic", "2.10.8"},
        {"isotropic hardening elastic", "2.10.9"},
        {"scalar function elastic", "2.10.10"},
        {"scalar function elastic isotropic", "2.10.10"},
        {"scalar function elastic orthotropic", "2.10.11"},
        {"linear viscous", "2.10.12"},
        {"linear viscous isotropic", "2.10.12"},
        {"linear viscous generic", "2.10.13"},
        {"linear viscoelastic", "2.10.14"},
        {"linear viscoelastic isotropic", "2.10.14"},
        {"linear viscoelastic generic", "2.10.15"},
        {"linear time variant viscoelastic generic", "2.10.16"},
        {"linear viscoelastic generic axial torsion coupling", "2.10.17"},
        {"cubic viscoelastic generic", "2.10.18"},
        {"double linear viscoelastic", "2.10.19"},
        {"turbulent viscoelastic", "2.10.20"},
        {"linear viscoelastic bistop", "2.10.21"},
        {"graall damper", "2.10.22"},
        {"shock absorber", "2.10.23"},
        {"symbolic elastic", "2.10.24"},
        {"symbolic viscous", "2.10.25"},
        {"symbolic viscoelastic", "2.10.26"},
        {"tdclw", "2.10"},  // MBDyn's tdclw.cc (registered by constltp_impl.cc); not in the manual
        {"ann elastic", "2.10.27"},
        {"ann viscoelastic", "2.10.28"},
        {"nlsf elastic", "2.10.29"},
        {"nlsf viscous", "2.10.29"},
        {"nlsf viscoelastic", "2.10.29"},
        {"nlp elastic", "2.10.30"},
        {"nlp viscous", "2.10.30"},
        {"nlp viscoelastic", "2.10.30"},
        {"hookean linear elastic isotropic", "2.10.31"},
        {"hookean linear viscoelastic isotropic", "2.10.31"},
        {"neo hookean elastic", "2.10.32"},
        {"neo hookean viscoelastic", "2.10.32"},
        {"mooney rivlin elastic", "2.10.33"},
        {"bilinear isotropic hardening", "2.10.34"},
        {"linear viscoelastic maxwell 1", "2.10.35"},
        {"linear viscoelastic maxwell n", "2.10.35"},
        {"mfront small strain", "2.10.37"},
        {"mfront finite strain", "2.10.37"},
        {"array", "2.10.38"},
        {"axial wrapper", "2.10.39"},
        {"bistop", "2.10.40"},
        {"drive caller wrapper", "2.10.41"},
        {"invariant angular", "2.10.42"},
        {"gent", "2.10.32"}}},
      {"drive caller",
       {{"array", "2.6.1"},          {"bistop", "2.6.2"},         {"closest next", "2.6.3"},
        {"const", "2.6.4"},          {"cosine", "2.6.5"},         {"cubic", "2.6.6"},
        {"direct", "2.6.7"},         {"discrete filter", "2.6.8"}, {"dof", "2.6.9"},
        {"double ramp", "2.6.10"},   {"double step", "2.6.11"},   {"drive", "2.6.12"},
        {"element", "2.6.13"},       {"exponential", "2.6.14"},   {"file", "2.6.15"},
        {"fourier series", "2.6.16"}, {"frequency sweep", "2.6.17"}, {"ginac", "2.6.18"},
        {"linear", "2.6.19"},        {"meter", "2.6.20"},         {"mult", "2.6.21"},
        {"node", "2.6.22"},          {"null", "2.6.23"},          {"zero", "2.6.23"},
        {"parabolic", "2.6.24"},     {"periodic", "2.6.25"},      {"piecewise linear", "2.6.26"},
        {"postponed", "2.6.27"},     {"ramp", "2.6.28"},          {"random", "2.6.29"},
        {"sample and hold", "2.6.30"}, {"scalar function", "2.6.31"}, {"sine", "2.6.32"},
        {"step", "2.6.33"},          {"step5", "2.6.34"},         {"string", "2.6.35"},
        {"tanh", "2.6.36"},          {"time", "2.6.37"},          {"timestep", "2.6.38"},
        {"unit", "2.6.39"},          {"one", "2.6.40"},           {"reference", "2.4.3"}}},
      {"method",
       {{"crank nicolson", "4.1.1"}, {"ms", "4.1.1"},       {"ms2", "4.1.1"},     {"ms3", "4.1.1"},
        {"ms4", "4.1.1"},            {"hope", "4.1.1"},     {"ss2", "4.1.1"},     {"ss3", "4.1.1"},
        {"ss4", "4.1.1"},            {"Bathe", "4.1.1"},    {"msstc3", "4.1.1"},  {"msstc4", "4.1.1"},
        {"msstc5", "4.1.1"},         {"mssth3", "4.1.1"},   {"mssth4", "4.1.1"},  {"mssth5", "4.1.1"},
        {"DIRK33", "4.1.1"},         {"DIRK43", "4.1.1"},   {"DIRK54", "4.1.1"},  {"bdf", "4.1.1"},
        // (MBDyn 2024's solver.cc reads no `third order`: its INT_THIRDORDER has no keyword.)
        {"implicit euler", "4.1.1"}, {"hybrid", "4.1.1"},
        // Methods of our seed papers, beyond MBDyn (docs/seeds.md).
        {"generalized alpha", "4.1.1, docs/seeds.md"}, {"central differences", "4.1.1, docs/seeds.md"},
        {"half implicit", "4.1.1, docs/seeds.md"}}},
      // The cards of the control data block: those MBDyn 2024's DataManager::ReadControl
      // (base/dataman3.cc) takes at the top of its switch, counters from psReadControlNodes,
      // psReadControlElems and psReadControlDrivers (base/enums.cc). "5" for the cards the
      // manual's chapter 5 does not describe.
      {"control data",
       {{"use automatic differentiation", "5.1"}, {"skip initial joint assembly", "5.2.1"},
        {"initial assembly of deformable and force elements", "5.2.2"}, {"use", "5.2.3"},
        {"initial stiffness", "5.2.4"}, {"omega rotates", "5.2.5"}, {"tolerance", "5.2.6"},
        {"initial tolerance", "5.2.6"}, {"max iterations", "5.2.7"}, {"max initial iterations", "5.2.7"},
        {"epsilon", "5"}, {"title", "5.3.1"}, {"print", "5.3.2"}, {"make restart file", "5.3.3"},
        {"select timeout", "5.3.4"}, {"default output", "5.3.5"}, {"output units", "5.3.6"},
        {"output frequency", "5.3.7"}, {"output meter", "5.3.8"}, {"output precision", "5.3.9"},
        {"output results", "5.3.10"}, {"default orientation", "5.3.11"}, {"default aerodynamic output", "5.3.12"},
        {"default beam output", "5.3.13"}, {"default scale", "5.3.14"}, {"finite difference jacobian meter", "5.3.15"},
        {"model", "5.3.16"}, {"rigid body kinematics", "5.3.17"}, {"loadable path", "5.3.18"},
        {"output file name", "5"}, {"solver", "4.1.1"}, {"linear solver", "4.1.1"}, {"jacobian check", "5"},
        {"read solution array", "5"},
        // Model counters (§5.4).
        {"abstract nodes", "5.4.1"}, {"electric nodes", "5.4.1"}, {"hydraulic nodes", "5.4.1"},
        {"parameter nodes", "5.4.1"}, {"structural nodes", "5.4.1"}, {"thermal nodes", "5.4.1"},
        {"file drivers", "5.4.2"}, {"air properties", "5.4.3"}, {"induced velocity elements", "5.4.3"},
        {"rotors", "5.4.3"}, {"automatic structural elements", "5.4.3"}, {"gravity", "5.4.3"},
        {"rigid bodies", "5.4.3"}, {"joints", "5.4.3"}, {"joint regularizations", "5.4.3"}, {"beams", "5.4.3"},
        {"plates", "5.4.3"}, {"solids", "5.4.3"}, {"surface loads", "5.4.3"}, {"forces", "5.4.3"},
        {"inertia", "5.4.3"}, {"electric bulk elements", "5.4.3"}, {"electric elements", "5.4.3"},
        {"thermal elements", "5.4.3"}, {"hydraulic elements", "5.4.3"}, {"bulk elements", "5.4.3"},
        {"loadable elements", "5.4.3"}, {"driven elements", "5.4.3"},
        {"external elements", "5.4.3"}, {"aeromodals", "5.4.3"}, {"aerodynamic elements", "5.4.3"},
        {"genels", "5.4.3"}, {"output elements", "5.4.3"}, {"RTAI output", "5.4.3"}}},
      // The cards of the initial value block: those MBDyn 2024's Solver::ReadData (base/solver.cc)
      // takes at the top of its switch ("fictitious steps ..." are the deprecated "dummy steps ...").
      {"initial value",
       {{"initial time", "4.1.1"}, {"final time", "4.1.1"}, {"time step", "4.1.1"},
        {"min time step", "4.1.1"}, {"max time step", "4.1.1"}, {"dummy steps number", "4.1.3"},
        {"dummy steps ratio", "4.1.3"}, {"dummy steps tolerance", "4.1.3"}, {"dummy steps max iterations", "4.1.3"},
        {"dummy steps method", "4.1.3"}, {"fictitious steps number", "4.1.3"}, {"fictitious steps ratio", "4.1.3"},
        {"fictitious steps tolerance", "4.1.3"}, {"fictitious steps max iterations", "4.1.3"},
        {"fictitious steps method", "4.1.3"}, {"abort after", "4.1.1"}, {"output", "4.1.4"},
        {"output meter", "4.1.4"}, {"method", "4.1.1"}, {"tolerance", "4.1.1"}, {"max residual", "4.1.1"},
        {"max iterations", "4.1.1"}, {"modify residual test", "4.1.1"}, {"enforce constraint equations", "4.1.1"},
        {"derivatives tolerance", "4.1.2"}, {"derivatives max iterations", "4.1.2"},
        {"derivatives coefficient", "4.1.2"}, {"newton raphson", "4.1.1"}, {"strategy", "4.1.1"},
        {"pod", "4"}, {"eigenanalysis", "4.1.1"}, {"solver", "4.1.1"}, {"linear solver", "4.1.1"},
        {"interface solver", "4"}, {"interface linear solver", "4"}, {"nonlinear solver", "4.1.1"},
        {"real time", "4.1.5"}, {"threads", "4.1.1"}}},
      // The cards of the inverse dynamics block: MBDyn 2024's InverseSolver::ReadData (base/invsolver.cc).
      {"inverse dynamics",
       {{"initial time", "4.2"}, {"final time", "4.2"}, {"time step", "4.2"}, {"min time step", "4.2"},
        {"max time step", "4.2"}, {"tolerance", "4.2"}, {"max iterations", "4.2"},
        {"modify residual test", "4.2"}, {"full residual test", "4.2"}, {"abort after", "4.2"},
        {"output", "4.2"}, {"output meter", "4.2"}, {"strategy", "4.2"},
        {"solver", "4.2"}, {"interface solver", "4.2"}, {"linear solver", "4.2"},
        {"interface linear solver", "4.2"}, {"nonlinear solver", "4.2"},
        {"newton raphson", "4.2"}, {"real time", "4.2"}, {"threads", "4.2"}, {"problem type", "4.2"}}},
  };
  return families;
}

std::string norm(std::string_view s) { return parser::deck::normalize_keyword(s); }

/// Edits (insertion, deletion, substitution, swap of neighbours) that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::span<const Kind> of(std::string_view family) {
  for (const Family& f : table())
    if (f.name == family) return f.kinds;
  return {};
}

const Kind* find(std::string_view family, std::string_view keyword) {
  const std::string key = norm(keyword);
  for (const Kind& k : of(family))
    if (norm(k.keyword) == key) return &k;
  return nullptr;
}

std::string nearest(std::string_view family, std::string_view keyword) {
  const std::string key = norm(keyword);
  // A misspelling changes a few letters: about one in four at most, at least one.
  const std::size_t allowed = std::clamp<std::size_t>(key.size() / 4, 1, 3);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const Kind& k : of(family)) {
    const std::size_t d = edit_distance(key, norm(k.keyword));
    if (d < best_distance) best_distance = d, best = std::string(k.keyword);
  }
  return best;
}

/// The ReadContext entry naming the first run-time module loaded that we do not have.
constexpr const char* kUnimplementedModule = "unimplemented run-time module";

std::string unknown_message(std::string_view family, std::string_view what, std::string_view keyword) {
  const std::string near = nearest(family, keyword);
  return fmt::format("unknown {} \"{}\"{}", what, keyword, near.empty() ? "" : fmt::format("; did you mean \"{}\"?", near));
}

void reject(parser::CardReader& in, std::string_view family, std::string_view what, const parser::SourceLocation& at,
            std::string_view raw) {
  // As written, blanks (line breaks included) collapsed.
  std::string shown;
  for (char c : raw) {
    const bool blank = std::isspace(static_cast<unsigned char>(c));
    if (!blank) shown += c;
    else if (!shown.empty() && shown.back() != ' ') shown += ' ';
  }
  if (!shown.empty() && shown.back() == ' ') shown.pop_back();
  if (const Kind* k = find(family, shown))
    return in.not_implemented(fmt::format("{} \"{}\" (input manual §{})", what, shown, k->section), at);
  if (auto module = in.context().find_named<std::string>(kUnimplementedModule, ""))
    return in.not_implemented(fmt::format("{} \"{}\" (not MBDyn's own: from run-time module \"{}\"?)", what, shown, *module), at);
  throw parser::InputError(at, unknown_message(family, what, shown));
}

void note_unimplemented_module(parser::ReadContext& ctx, std::string_view name) {
  if (!ctx.find_named<std::string>(kUnimplementedModule, "")) ctx.add_named(kUnimplementedModule, "", std::make_shared<std::string>(name));
}

void reject(parser::CardReader& in, std::string_view family, std::string_view what) {
  if (in.at_end()) in.fail_expected(fmt::format("a {}", what));
  const parser::SourceLocation at = in.location();
  const std::string raw(in.peek_text());
  reject(in, family, what, at, raw);
}

}  // namespace mbl::kinds
