#pragma once
// Airfoil tables of the aerodynamic elements (`c81 data`, input manual §2.4.2): lift, drag and
// moment coefficients as functions of the angle of attack (degrees, rows) and the Mach number
// (columns), read in the traditional fixed-column C81 format or in free format. Lookup is linear
// in alpha and in Mach and clamps outside the tables, as MBDyn's aerodc81.
#include <istream>
#include <string>
#include <vector>

namespace mbl::elements::aero {

/// One coefficient table: Mach points m, and the column-major matrix a of na rows by
/// (m.size() + 1) columns, column 0 the angles of attack in degrees.
struct C81Table {
  std::vector<double> mach;
  std::vector<double> a;
  int rows() const { return static_cast<int>(a.size() / (mach.size() + 1)); }
  double alpha(int i) const { return a[i]; }
  /// Coefficient at (alpha_deg, mach) and, if c_at_zero, at alpha = 0 (same Mach).
  double lookup(double alpha_deg, double mach_number, double* c_at_zero = nullptr) const;
};

struct C81Data {
  std::string header;
  C81Table lift, drag, moment;
  /// Per Mach point of the lift table: upper stall alpha, lower stall alpha, linear lift slope
  /// (1/deg) between them (MBDyn's "stall" arrays); the same for the moment table.
  std::vector<double> lift_stall, moment_stall;

  /// The linear lift slope (1/deg) at this Mach number.
  double lift_slope(double mach_number) const;
  /// The linear moment slope (1/deg) at this Mach number.
  double moment_slope(double mach_number) const;
  /// Fills lift_stall, moment_stall: the linear range is where the secant slope from alpha = 0
  /// stays within `tolerance` (relative) of the first segment's slope.
  void find_stall(double tolerance);
  /// Mirrors the airfoil (`flip`): alpha, Cl and Cm change sign, Cd does not.
  void flip();
};

/// The airfoil between `from` and `to` (`c81, interpolated`; MBDyn's c81_data_merge): the
/// coefficients weighted w_from, w_to, the stall data found again with `tolerance`. The two
/// must have the same Mach and alpha points; std::runtime_error says where they differ.
C81Data interpolate_c81(const C81Data& from, const C81Data& to, double w_from, double w_to, double tolerance);

/// Reads the traditional format (header "%30s%2d%2d%2d%2d%2d%2d", 7-column fields) or, when the
/// first line starts with "# FREE FORMAT", the free format. Throws std::runtime_error.
C81Data read_c81(std::istream& in, double tolerance, bool free_format);

}  // namespace mbl::elements::aero
