#pragma once
// The NetCDF variables MBDyn writes (input manual appendix C.1), with the exact `units` and
// `description` attributes found in the .nc files of the real MBDyn (develop, March 2024). Entities
// declare their variables with these so that our files match MBDyn's:
//
//   id_X_ = nc_declare(sink, "node.struct.12", nc::node_X);   // -> node.struct.12.X
//
// Header-only so that node and element code can use it without linking the output library.
// Entries marked "unverified" have no instance in the reference files.
#include <string>
#include <string_view>

#include "mbdyn-like/core/output_sink.hpp"

namespace mbl::output {

struct NcVarSpec {
  std::string_view suffix;  ///< appended to "<entity>." (e.g. "X", "F_I")
  NcShape shape;
  std::string_view units;   ///< empty: no `units` attribute
  std::string_view description;
};

/// Declares "<entity>.<spec.suffix>" on `sink`.
inline OutputSink::VarId nc_declare(OutputSink& sink, const std::string& entity,
                                    const NcVarSpec& spec) {
  return sink.declare(entity + "." + std::string(spec.suffix), spec.shape, std::string(spec.units),
                      std::string(spec.description));
}

namespace nc {
using S = NcShape;

// ---- structural nodes: node.struct.<L> (type attribute: "static", "dynamic", ...) ---------------
inline constexpr NcVarSpec node_X{"X", S::Vec3, "Length", "global position vector (X, Y, Z)"};
inline constexpr NcVarSpec node_E123{"E", S::Vec3, "deg",
                                     "global orientation Euler angles (123) (E_X, E_Y, E_Z)"};
inline constexpr NcVarSpec node_E313{"E", S::Vec3, "deg",  // unverified (sequence in the text)
                                     "global orientation Euler angles (313) (E_X, E_Y, E_Z)"};
inline constexpr NcVarSpec node_E321{"E", S::Vec3, "deg",  // unverified
                                     "global orientation Euler angles (321) (E_X, E_Y, E_Z)"};
inline constexpr NcVarSpec node_Phi{"Phi", S::Vec3, "radian",
                                    "global orientation vector (Phi_X, Phi_Y, Phi_Z)"};
inline constexpr NcVarSpec node_R{
    "R", S::Mat3, "-", "global orientation matrix (R11, R21, R31, R12, R22, R32, R13, R23, R33)"};
inline constexpr NcVarSpec node_XP{"XP", S::Vec3, "Velocity",
                                   "global velocity vector (v_X, v_Y, v_Z)"};
inline constexpr NcVarSpec node_Omega{"Omega", S::Vec3, "Angular velocity",
                                      "global angular velocity vector (omega_X, omega_Y, omega_Z)"};
inline constexpr NcVarSpec node_XPP{"XPP", S::Vec3, "Acceleration",  // unverified
                                    "global acceleration vector (a_X, a_Y, a_Z)"};
inline constexpr NcVarSpec node_OmegaP{  // unverified
    "OmegaP", S::Vec3, "Angular acceleration",
    "global angular acceleration vector (omegaP_X, omegaP_Y, omegaP_Z)"};
// Written by the automatic structural element of a dynamic node, in the node's namespace.
inline constexpr NcVarSpec node_B{"B", S::Vec3, "Momentum", "momentum (X, Y, Z)"};
inline constexpr NcVarSpec node_G{"G", S::Vec3, "Momenta moment", "momenta moment (X, Y, Z)"};
inline constexpr NcVarSpec node_BP{"BP", S::Vec3, "Momentum derivative",
                                   "momentum derivative (X, Y, Z)"};
inline constexpr NcVarSpec node_GP{"GP", S::Vec3, "Momenta moment derivative",
                                   "momenta moment derivative (X, Y, Z)"};

// ---- joints: elem.joint.<L> (type attribute: "Clamp", "Total joint", "Rod", ...) ----------------
inline constexpr NcVarSpec joint_f{"f", S::Vec3, "Force", "local reaction force (fx, fy, fz)"};
inline constexpr NcVarSpec joint_m{"m", S::Vec3, "Moment", "local reaction moment (mx, my, mz)"};
inline constexpr NcVarSpec joint_F{"F", S::Vec3, "Force", "global reaction force (FX, FY, FZ)"};
inline constexpr NcVarSpec joint_M{"M", S::Vec3, "Moment", "global reaction moment (MX, MY, MZ)"};
// total joint, total pin joint
inline constexpr NcVarSpec joint_X{"X", S::Vec3, "Length", "local relative position (x, y, z)"};
inline constexpr NcVarSpec joint_Phi{"Phi", S::Vec3, "radian",
                                     "local relative orientation vector (Phi_X, Phi_Y, Phi_Z)"};
inline constexpr NcVarSpec joint_V{"V", S::Vec3, "Velocity", "local relative velocity (x, y, z)"};
inline constexpr NcVarSpec joint_Omega{"Omega", S::Vec3, "Angular velocity",
                                       "local relative angular velocity (x, y, z)"};
// deformable joint (and spherical hinge: E relative; revolute hinge: E global)
inline constexpr NcVarSpec joint_d{"d", S::Vec3, "Length",
                                   "relative position in local frame (x, y, z)"};
inline constexpr NcVarSpec joint_dPrime{"dPrime", S::Vec3, "Velocity",
                                        "relative linear velocity in local frame (x, y, z)"};
inline constexpr NcVarSpec joint_D{"D", S::Vec3, "Length",
                                   "relative position in global frame (x, y, z)"};
inline constexpr NcVarSpec joint_DPrime{"DPrime", S::Vec3, "Velocity",
                                        "relative linear velocity in global frame (x, y, z)"};
inline constexpr NcVarSpec joint_E_relative{
    "E", S::Vec3, "deg",
    "relative orientation, in joint reference frame orientation Euler angles (123) "
    "(E_X, E_Y, E_Z)"};
inline constexpr NcVarSpec joint_E_global = node_E123;  // the node's variable, word for word
// distance (MBDyn's genj.cc DistanceJoint::OutputPrepare; MBDYN_X_DISTANCE_JOINT is not set)
inline constexpr NcVarSpec joint_distance_V{"V", S::Vec3, "Dimensionless",
                                            "constrained distance direction unit vector (x, y, z)"};
inline constexpr NcVarSpec joint_distance_d{"d", S::Scalar, "Length", "constrained distance magnitude"};
// rod
inline constexpr NcVarSpec joint_l{"l", S::Scalar, "Length", "length of the element"};
inline constexpr NcVarSpec joint_lP{"lP", S::Scalar, "Velocity",
                                    "lengthening velocity of the element"};
inline constexpr NcVarSpec joint_v{"v", S::Vec3, "Dimensionless", "direction unit vector"};
// angular velocity, linear velocity (no reference .nc: MBDyn's names and attributes; MBDyn
// declares the linear velocity's dv as a scalar but writes the direction vector in it)
inline constexpr NcVarSpec joint_dOmega{"dOmega", S::Scalar, "Angular velocity",
                                        "magnitude imposed angular velocity"};
inline constexpr NcVarSpec joint_w{"w", S::Vec3, "Dimensionless",
                                   "direction of imposed angular velocity"};
inline constexpr NcVarSpec joint_dv{"dv", S::Vec3, "Dimensionless", "direction of imposed velocity"};
inline constexpr NcVarSpec joint_velocity_v{"v", S::Scalar, "Velocity",
                                            "magnitude of imposed velocity"};
// drive displacement (+pin), drive hinge (drvdisp.cc, drvhinge.cc; the drive hinge's is "Theta",
// not the appendix's "Phi")
inline constexpr NcVarSpec joint_drive_d{"d", S::Vec3, "Length",
                                         "imposed relative displacement, global frame (x, y, z)"};
inline constexpr NcVarSpec joint_drive_pin_d{"d", S::Vec3, "Length", "imposed relative displacement (x, y, z)"};
inline constexpr NcVarSpec joint_drive_Theta{"Theta", S::Vec3, "rad", "Relative orientation"};
// deformable axial joint (vehj4.cc)
inline constexpr NcVarSpec joint_axial_Theta{"Theta", S::Scalar, "rad", "relative angle"};
inline constexpr NcVarSpec joint_axial_Omega{"Omega", S::Scalar, "Angular velocity", "relative angular velocity"};
// brake (brake.cc: CreateRotationVar(base + ".Phi", "rad", ORIENTATION_VECTOR, ...) names it
// "<base>.Phi.Phirad"; it holds the orientation vector of the relative rotation)
inline constexpr NcVarSpec joint_brake_Phi{"Phi.Phirad", S::Vec3, "radian",
                                           "relative rotation (Euler123) orientation vector (Phi_X, Phi_Y, Phi_Z)"};
// viscous body (vb.cc)
inline constexpr NcVarSpec joint_viscous_V{"V", S::Vec3, "Velocity", "local relative linear velocity (x, y, z)"};
inline constexpr NcVarSpec joint_viscous_Omega{"Omega", S::Vec3, "Angular velocity",
                                               "local relative angular velocity (x, y, z)"};
// driven elements: elem.driven.<L>.activation
inline constexpr NcVarSpec driven_activation{"activation", S::IntScalar, "Boolean",
                                             "activation flag (1: active, 0: inactive)"};

// ---- forces and couples: elem.force.<L> / elem.couple.<L> ---------------------------------------
// type attribute: "absolute", "follower", "internal absolute", "internal follower",
// "absolute displacement", "internal absolute displacement".
inline constexpr NcVarSpec force_F{"F", S::Vec3, "Force", "global force components (x, y, z)"};
inline constexpr NcVarSpec force_displacement_F{"F", S::Vec3, "Force",
                                                "force components (x, y, z)"};
inline constexpr NcVarSpec force_Arm{"Arm", S::Vec3, "Length", "arm in global frame (x, y, z)"};
inline constexpr NcVarSpec force_Arm1{"Arm1", S::Vec3, "Length",
                                      "node 1 arm in global frame (x, y, z)"};
inline constexpr NcVarSpec force_Arm2{"Arm2", S::Vec3, "Length",
                                      "node 2 arm in global frame (x, y, z)"};
inline constexpr NcVarSpec couple_M{"M", S::Vec3, "Moment", "global couple components (x, y, z)"};

// ---- beams: elem.beam.<L> (type attribute "elastic", ...) ---------------------------------------
inline constexpr NcVarSpec beam3_F_I{
    "F_I", S::Vec3, "Force", "evaluation point I internal force in local frame (F_X, F_Y, F_Z)"};
inline constexpr NcVarSpec beam3_M_I{
    "M_I", S::Vec3, "Moment", "evaluation point I internal moment in local frame (M_X, M_Y, M_Z)"};
inline constexpr NcVarSpec beam3_F_II{
    "F_II", S::Vec3, "Force", "evaluation point II internal force in local frame (F_X, F_Y, F_Z)"};
inline constexpr NcVarSpec beam3_M_II{
    "M_II", S::Vec3, "Moment",
    "evaluation point II internal moment in local frame (M_X, M_Y, M_Z)"};
// beam2.cc (its moment's description says "force", as MBDyn writes it)
inline constexpr NcVarSpec beam2_F{"F", S::Vec3, "Force",
                                   "evaluation point internal force in local frame (F_X, F_Y, F_Z)"};
inline constexpr NcVarSpec beam2_M{"M", S::Vec3, "Moment",
                                   "evaluation point internal force in local frame (M_X, M_Y, M_Z)"};

}  // namespace nc

/// Description of the label-list variable of a node or element type as MBDyn writes it
/// ("node.struct": "Structural nodes labels", "elem.autostruct": "AutomaticStructural elements
/// labels"); `level` is "node" or "elem". Types without a reference file get "<Type> ... labels".
inline std::string nc_group_description(std::string_view level, std::string_view type_key) {
  struct Known { std::string_view level, key, text; };
  static constexpr Known known[] = {
      {"node", "struct", "Structural nodes labels"},
      {"node", "abstr", "Abstract nodes labels"},            // unverified
      {"node", "elec", "Electric nodes labels"},             // unverified
      {"node", "pres", "Pressure nodes labels"},             // unverified
      {"node", "thermal", "Thermal nodes labels"},           // unverified
      {"elem", "autostruct", "AutomaticStructural elements labels"},
      {"elem", "joint", "Joint elements labels"},
      {"elem", "beam", "Beam elements labels"},
      {"elem", "force", "Force elements labels"},
      {"elem", "gravity", "Gravity elements labels"},
  };
  for (const auto& k : known)
    if (k.level == level && k.key == type_key) return std::string(k.text);
  std::string name(type_key);
  if (!name.empty() && name[0] >= 'a' && name[0] <= 'z') name[0] = char(name[0] - 'a' + 'A');
  return name + (level == "node" ? " nodes labels" : " elements labels");
}

}  // namespace mbl::output
