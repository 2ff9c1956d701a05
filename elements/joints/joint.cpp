#include "elements/joints/joint.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <fmt/format.h>

namespace mbl::elements {

void Joint::output_setup(OutputSink& out) {
  if (!out.netcdf() || !output_enabled()) return;
  const std::string base = fmt::format("elem.joint.{}", label());
  out.declare_entity(base, std::string(type_name()));
  nc_f_ = out.declare(base + ".f", NcShape::Vec3, "Force", "local reaction force (fx, fy, fz)");
  nc_m_ = out.declare(base + ".m", NcShape::Vec3, "Moment", "local reaction moment (mx, my, mz)");
  nc_F_ = out.declare(base + ".F", NcShape::Vec3, "Force", "global reaction force (FX, FY, FZ)");
  nc_M_ = out.declare(base + ".M", NcShape::Vec3, "Moment", "global reaction moment (MX, MY, MZ)");
  output_setup_extra(out, base);
}

void Joint::output(OutputSink& out) const {
  if (!output_enabled()) return;
  const Vec3 f_J = f_local(), m_J = m_local();
  if (std::ostream* os = out.text(OutputFile::Jnt)) {
    out.write_label(*os, label());
    out.write(*os, f_J);
    out.write(*os, m_J);
    out.write(*os, F_W_);
    out.write(*os, M_W_);
    output_extra(out, *os);
    *os << '\n';
  }
  if (out.netcdf() && nc_f_ >= 0) {
    out.put(nc_f_, f_J);
    out.put(nc_m_, m_J);
    out.put(nc_F_, F_W_);
    out.put(nc_M_, M_W_);
    output_netcdf_extra(out);
  }
}

parser::PrivateDataOwner::DatumInfo Joint::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_xyz(l, "F", "reaction force, joint frame", true);
    return add_xyz(l, "M", "reaction moment, joint frame", true);
  }();
  return listed(listing, i);
}

double Joint::private_data(unsigned i) const {
  if (i < 1 || i > 6) return 0.0;
  const Vec3 v = i <= 3 ? f_local() : m_local();
  return v[(i - 1) % 3];
}

std::string log_text(const Attachment& a) {
  return fmt::format("{} {} {}", a.node ? a.node->label() : 0u, log_text(a.offset_N), log_text(a.R_NH));
}

}  // namespace mbl::elements
