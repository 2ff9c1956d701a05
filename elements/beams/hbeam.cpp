#include "elements/beams/hbeam.hpp"
#include "mbdyn-like/core/private_data_listing.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "mbdyn-like/core/nc_catalog.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace mbl::elements {
namespace {

/// Gamma(phi) = I + (1 - cos t)/t^2 phi x + (t - sin t)/t^3 phi x phi x: d exp / d phi. Both
/// coefficients without cancellation (the strains of a stiff beam amplify any round-off).
Mat3 gamma(const Vec3& phi) {
  const double t2 = phi.squaredNorm(), t = std::sqrt(t2);
  const double h = std::sin(0.5 * t);
  const double c1 = t > 0.0 ? 2.0 * h * h / t2 : 0.5;
  const double c2 = t < 0.1 ? 1.0 / 6.0 - t2 / 120.0 * (1.0 - t2 / 42.0 * (1.0 - t2 / 72.0 * (1.0 - t2 / 110.0)))
                            : (t - std::sin(t)) / (t2 * t);
  const Mat3 px = skew(phi);
  return Mat3::Identity() + c1 * px + c2 * px * px;
}

}  // namespace

HBeam::HBeam(unsigned label, std::array<HBeamPoint, 2> points, std::unique_ptr<ConstitutiveLaw6D> law)
    : Element(label), pt_(points), law_(std::move(law)) {}

HBeam::Kinematics HBeam::interpolate(const std::array<Vec3, 2>& x, const std::array<Mat3, 2>& R,
                                     double ds_dxi) const {
  std::array<Vec3, 2> y;
  std::array<Mat3, 2> Q;
  for (int i = 0; i < 2; ++i) {
    y[i] = x[i] + R[i] * pt_[i].offset_N;
    Q[i] = R[i] * pt_[i].R_NP;
  }
  const Mat3 Q12 = Q[1] * Q[0].transpose();
  const Vec3 phi = rot::R_to_rotvec(Q12);
  const Vec3 rho = gamma(phi).inverse() * (y[1] - Q12 * y[0]);
  Kinematics k;
  const Mat3 half = rot::rotvec_to_R(0.5 * phi);
  k.Q = half * Q[0];
  k.p = half * y[0] + gamma(0.5 * phi) * (0.5 * rho);
  k.l = (rho + phi.cross(k.p)) / ds_dxi;
  k.k = phi / ds_dxi;
  return k;
}

void HBeam::setup(Model&) {
  const std::array<Vec3, 2> x{pt_[0].node->x_W(), pt_[1].node->x_W()};
  const std::array<Mat3, 2> R{pt_[0].node->R_WN(), pt_[1].node->R_WN()};
  const double l = interpolate(x, R, 1.0).l.norm();
  if (!(l > 1e-12)) throw std::invalid_argument(fmt::format("hbeam {}: singular metric (coincident points)", label()));
  ds_dxi_ = l;
  kin_ = interpolate(x, R, ds_dxi_);
  L0_ = kin_.Q.transpose() * kin_.l;
  K0_ = kin_.Q.transpose() * kin_.k;
  evaluated_valid_ = false;
}

Vec6 HBeam::strains(const Kinematics& k) const {
  Vec6 def;
  def << k.Q.transpose() * k.l - L0_, k.Q.transpose() * k.k - K0_;
  return def;
}

void HBeam::evaluate(double t) {
  EvaluationInputs in{};
  for (int i = 0; i < 2; ++i) {
    in.x[i] = pt_[i].node->x_W();
    in.R[i] = pt_[i].node->R_WN();
  }
  in.t = t;
  if (evaluated_valid_ && std::memcmp(&in, &evaluated_, sizeof in) == 0) return;
  evaluated_ = in;
  evaluated_valid_ = true;
  kin_ = interpolate(in.x, in.R, ds_dxi_);
  def_ = strains(kin_);
  law_->update(def_, Vec6::Zero(), t);
  az_S_ = law_->force();
}

HBeam::Vec12 HBeam::nodal_forces() const {
  const std::array<Vec3, 2>& x = evaluated_.x;
  const Vec3 F = kin_.Q * az_S_.head<3>(), M = kin_.Q * az_S_.tail<3>();
  Vec12 f;
  f << F, (kin_.p - x[0]).cross(F) + M, -F, -(M + (kin_.p - x[1]).cross(F));
  return f;
}

void HBeam::residual(ResidualSink& r, const StepContext& c) {
  evaluate(c.t);
  const Vec12 f = nodal_forces();
  for (int i = 0; i < 2; ++i) {
    const StructNode& n = *pt_[i].node;
    if (n.dof_count() == 0) continue;
    r.add(n.eq_index(), Vec3(f.segment<3>(6 * i)));
    r.add(n.eq_index() + 3, Vec3(f.segment<3>(6 * i + 3)));
  }
}

void HBeam::jacobian(JacobianSink& J, const StepContext& c) {
  evaluate(c.t);  // the law's stiffness at the current strains
  const std::array<Vec3, 2> x = evaluated_.x;
  const std::array<Mat3, 2> R = evaluated_.R;
  // Strain derivatives: central differences of the exact strains over positions and spins
  // (R -> exp(d) R; spins taken as the rotation unknowns, MBDyn's linearisation at g = 0).
  Eigen::Matrix<double, 6, 12> B;
  const double h_x = 1e-6 * ds_dxi_, h_r = 1e-6;
  for (int n = 0; n < 2; ++n)
    for (int j = 0; j < 6; ++j) {
      std::array<Vec3, 2> xp = x, xm = x;
      std::array<Mat3, 2> Rp = R, Rm = R;
      Vec3 d = Vec3::Zero();
      d[j % 3] = j < 3 ? h_x : h_r;
      if (j < 3) {
        xp[n] += d;
        xm[n] -= d;
      } else {
        Rp[n] = rot::rotvec_to_R(d) * R[n];
        Rm[n] = rot::rotvec_to_R(-d) * R[n];
      }
      B.col(6 * n + j) =
          (strains(interpolate(xp, Rp, ds_dxi_)) - strains(interpolate(xm, Rm, ds_dxi_))) / (2.0 * d[j % 3]);
    }
  const Kinematics& k = kin_;
  Mat6 RR = Mat6::Zero();
  RR.topLeftCorner<3, 3>() = k.Q;
  RR.bottomRightCorner<3, 3>() = k.Q;
  // The variation of (F, M) in W with the section frame held (MBDyn's DRef = RR D RR^T acting
  // on the strain variations RR dDef).
  const Eigen::Matrix<double, 6, 12> dAz = RR * law_->stiffness() * B;
  for (int j = 0; j < 2; ++j) {
    const StructNode& nj = *pt_[j].node;
    if (nj.dof_count() == 0) continue;
    const double sg = j == 0 ? 1.0 : -1.0;
    Eigen::Matrix<double, 6, 12> rows;
    rows.topRows<3>() = sg * dAz.topRows<3>();
    rows.bottomRows<3>() = sg * (dAz.bottomRows<3>() + skew(Vec3(k.p - x[j])) * dAz.topRows<3>());
    for (int i = 0; i < 2; ++i) {
      const StructNode& ni = *pt_[i].node;
      if (ni.dof_count() == 0) continue;
      J.add(nj.eq_index(), ni.dof_index(), Mat6(-c.dCoef * rows.middleCols<6>(6 * i)));
    }
  }
}

void HBeam::after_convergence(const StepContext& c) {
  evaluate(c.t);
  law_->after_convergence();
  evaluated_valid_ = false;
}

// NetCDF as beam2's (F, M in the section frame), so that the .nc carries what the .act writes.
void HBeam::output_setup(OutputSink& out) {
  if (!out.netcdf() || !output_enabled()) return;
  const std::string base = fmt::format("elem.beam.{}", label());
  out.declare_entity(base, std::string(type_name()));
  nc_F_ = output::nc_declare(out, base, output::nc::beam2_F);
  nc_M_ = output::nc_declare(out, base, output::nc::beam2_M);
}

void HBeam::output(OutputSink& out) const {
  if (!output_enabled()) return;
  if (nc_F_ >= 0) {
    out.put(nc_F_, Vec3(az_S_.head<3>()));
    out.put(nc_M_, Vec3(az_S_.tail<3>()));
  }
  // .act: label, F, M in the section frame (as MBDyn's HBeam::Output).
  if (std::ostream* os = out.text(OutputFile::Act)) {
    out.write_label(*os, label());
    out.write(*os, Vec3(az_S_.head<3>()));
    out.write(*os, Vec3(az_S_.tail<3>()));
    *os << '\n';
  }
}

// hbeam.cc HBeam: 12 data, of which MBDyn names ex, kx..kz, Fx, Mx..Mz (the shear strains and
// forces, 2-3 and 8-9, have no name and its dGetPrivData refuses them).
parser::PrivateDataOwner::DatumInfo HBeam::private_data_info(unsigned i) const {
  static const PrivateDataListing listing = [] {
    PrivateDataListing l;
    add_datum(l, "ex", "axial strain");
    l.push_back({"", "shear strain y", false, true});
    l.push_back({"", "shear strain z", false, true});
    add_xyz(l, "k", "curvature");
    add_datum(l, "Fx", "axial force");
    l.push_back({"", "shear force y", false, true});
    l.push_back({"", "shear force z", false, true});
    return add_xyz(l, "M", "moment");
  }();
  return listed(listing, i);
}

double HBeam::private_data(unsigned index) const {
  if (index >= 1 && index <= 6) return def_[index - 1];
  if (index >= 7 && index <= 12) return az_S_[index - 7];
  return 0.0;
}

}  // namespace mbl::elements
