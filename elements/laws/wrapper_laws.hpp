#pragma once
// Constitutive laws that wrap other laws (input manual §2.10 prestress/prestrain, §2.10.38-2.10.41):
// prestress/prestrain, array, drive caller wrapper, bistop (also the linear elastic/viscoelastic
// bistop laws), axial wrapper, tdclw.
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "elements/drives/template_drive.hpp"
#include "elements/laws/law_traits.hpp"
#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/types.hpp"

namespace mbl::laws {

/// Owns a wrapped law; copies clone it (named laws are cloned per element).
template <int N>
class OwnedLaw {
 public:
  explicit OwnedLaw(std::unique_ptr<ConstitutiveLaw<N>> l) : l_(std::move(l)) {}
  OwnedLaw(const OwnedLaw& o) : l_(o.l_->clone()) {}
  OwnedLaw& operator=(const OwnedLaw& o) {
    l_ = o.l_->clone();
    return *this;
  }
  ConstitutiveLaw<N>* operator->() const { return l_.get(); }
  ConstitutiveLaw<N>& operator*() const { return *l_; }

 private:
  std::unique_ptr<ConstitutiveLaw<N>> l_;
};

/// A law that wraps one other law (of dimension M, by default its own): memory and viscosity are
/// the wrapped law's; its output items and private data are not shown (MBDyn's wrappers, bistop,
/// axial, drive caller, invariant angular, override neither OutputAppend nor the private data of
/// their ConstitutiveLaw base, constltp_impl.h, constltp_axw.h).
template <class Derived, int N, int M = N>
class SingleWrapperLaw : public ClonableLaw<Derived, N> {
 public:
  explicit SingleWrapperLaw(std::unique_ptr<ConstitutiveLaw<M>> law) : law_(std::move(law)) {}
  void after_convergence() override { law_->after_convergence(); }
  void save_step_state() override { law_->save_step_state(); }
  void restore_step_state() override { law_->restore_step_state(); }
  bool is_viscous() const override { return law_->is_viscous(); }
  int output_count() const override { return 0; }
  int private_data_count() const override { return 0; }

 protected:
  OwnedLaw<M> law_;
};

/// F = F_p + law(eps - eps_p(t), eps') (§2.10: `prestress`, `prestrain`): the prestrain is an
/// imposed strain subtracted from the geometric one, the prestress a force added to the law's.
template <int N>
class PrestressedLaw final : public SingleWrapperLaw<PrestressedLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  using Entity = typename LawTraits<N>::Entity;
  PrestressedLaw(std::unique_ptr<ConstitutiveLaw<N>> law, const VecN& prestress,
                 drives::TplDriveCallerPtr<Entity> prestrain)
      : SingleWrapperLaw<PrestressedLaw<N>, N>(std::move(law)), prestress_(prestress),
        prestrain_(std::move(prestrain)) {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    VecN e = eps;
    if (prestrain_) e -= LawTraits<N>::vec(prestrain_->value(t));
    auto& law = *this->law_;
    law.update(e, eps_dot, t);
    this->F_ = prestress_ + law.force();
    this->F_eps_ = law.stiffness();
    this->F_eps_dot_ = law.damping();
  }
  // MBDyn's prestress and prestrain belong to the law itself, which keeps its output items and
  // private data.
  int output_count() const override { return this->law_->output_count(); }
  LawOutputItem output_item(int i) const override { return this->law_->output_item(i); }
  double output_value(int i) const override { return this->law_->output_value(i); }
  int private_data_count() const override { return this->law_->private_data_count(); }
  int netcdf_output_count() const override { return this->law_->netcdf_output_count(); }

 private:
  VecN prestress_;
  drives::TplDriveCallerPtr<Entity> prestrain_;
};

/// Sum of laws (§2.10.38).
template <int N>
class ArrayLaw final : public ClonableLaw<ArrayLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  explicit ArrayLaw(std::vector<OwnedLaw<N>> laws) : laws_(std::move(laws)) {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    this->F_.setZero();
    this->F_eps_.setZero();
    this->F_eps_dot_.setZero();
    for (auto& l : laws_) {
      l->update(eps, eps_dot, t);
      this->F_ += l->force();
      this->F_eps_ += l->stiffness();
      this->F_eps_dot_ += l->damping();
    }
  }
  void after_convergence() override {
    for (auto& l : laws_) l->after_convergence();
  }
  void save_step_state() override {
    for (auto& l : laws_) l->save_step_state();
  }
  void restore_step_state() override {
    for (auto& l : laws_) l->restore_step_state();
  }
  bool is_viscous() const override {
    for (auto& l : laws_)
      if (l->is_viscous()) return true;
    return false;
  }
  // The items of the laws one after the other (as MBDyn appends their outputs); no private data
  // (constltp_impl.h ConstitutiveLawArray forwards OutputAppend only).
  int private_data_count() const override { return 0; }
  int output_count() const override {
    int n = 0;
    for (auto& l : laws_) n += l->output_count();
    return n;
  }
  LawOutputItem output_item(int i) const override {
    const auto [law, k] = item(i);
    return law ? law->output_item(k) : LawOutputItem{};
  }
  double output_value(int i) const override {
    const auto [law, k] = item(i);
    return law ? law->output_value(k) : 0.0;
  }

 private:
  /// The law holding item i, and the item's index in it.
  std::pair<const ConstitutiveLaw<N>*, int> item(int i) const {
    for (auto& l : laws_) {
      if (i < l->output_count()) return {&*l, i};
      i -= l->output_count();
    }
    return {nullptr, 0};
  }

  std::vector<OwnedLaw<N>> laws_;
};

/// w(t) * law (§2.10.41, drive caller wrapper).
template <int N>
class DriveScaledLaw final : public SingleWrapperLaw<DriveScaledLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  DriveScaledLaw(DriveCallerPtr w, std::unique_ptr<ConstitutiveLaw<N>> law)
      : SingleWrapperLaw<DriveScaledLaw<N>, N>(std::move(law)), w_(std::move(w)) {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    auto& law = *this->law_;
    law.update(eps, eps_dot, t);
    const double w = w_->value(t);
    this->F_ = w * law.force();
    this->F_eps_ = w * law.stiffness();
    this->F_eps_dot_ = w * law.damping();
  }

 private:
  DriveCallerPtr w_;
};

/// `tdclw` (MBDyn's TDConstitutiveLawWrapper, struct/tdclw.cc; not in the input manual): the
/// wrapped law sees the strain scaled by s_eps and its force is scaled by
///   d = s_F (1 + a exp(-min(0, W) / W_ref)),   W_ref < 0,
/// where W, the work done on the law, starts at the initial work and grows at each converged step
/// by the trapezoidal (F + F_prev) . (eps_prev - eps) / 2 of the (scaled) force and strain: a law
/// (1 + a) s_F stiff that softens to s_F as work is done on it. d is constant within a step. MBDyn
/// leaves the s_eps factor out of the derivatives (an approximate Jacobian); ours has it, so the
/// solution is the same and Newton converges as for the wrapped law.
template <int N>
class WorkSofteningLaw final : public SingleWrapperLaw<WorkSofteningLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  struct Params {
    double amplitude = 0.0;       ///< a, MBDyn's dF
    double reference_work = -1.0; ///< W_ref < 0, MBDyn's dW
    double scale_strain = 1.0;    ///< s_eps, `scale deformation`
    double scale_force = 1.0;     ///< s_F, `scale force`
    double initial_work = 0.0;    ///< W at the start, `initial work` (not positive)
  };
  WorkSofteningLaw(const Params& p, std::unique_ptr<ConstitutiveLaw<N>> law)
      : SingleWrapperLaw<WorkSofteningLaw<N>, N>(std::move(law)), p_(p), state_{p.initial_work} {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    eps_scaled_ = p_.scale_strain * eps;
    auto& law = *this->law_;
    law.update(eps_scaled_, p_.scale_strain * eps_dot, t);
    const double d = factor();
    this->F_ = d * law.force();
    this->F_eps_ = d * p_.scale_strain * law.stiffness();
    this->F_eps_dot_ = d * p_.scale_strain * law.damping();
  }
  void after_convergence() override {
    this->law_->after_convergence();
    state_.work += 0.5 * (this->F_ + state_.F_prev).dot(state_.eps_prev - eps_scaled_);
    state_.F_prev = this->F_;
    state_.eps_prev = eps_scaled_;
  }
  void save_step_state() override {
    this->law_->save_step_state();
    saved_ = state_;
  }
  void restore_step_state() override {
    this->law_->restore_step_state();
    state_ = saved_;
  }
  /// s_F (1 + a exp(-min(0, W) / W_ref)): a positive W counts as none.
  double factor() const {
    return p_.scale_force * (1.0 + p_.amplitude * std::exp(-std::min(0.0, state_.work) / p_.reference_work));
  }
  double work() const { return state_.work; }
  // The wrapped law's items, then W (OutputAppend); the NetCDF output and the private data have
  // none of them (tdclw.cc prepares no NetCDF variable and keeps SimulationEntity's 0 data).
  int output_count() const override { return this->law_->output_count() + 1; }
  LawOutputItem output_item(int i) const override {
    if (i < this->law_->output_count()) return this->law_->output_item(i);
    return {"W", "", "work done on the law"};
  }
  double output_value(int i) const override {
    return i < this->law_->output_count() ? this->law_->output_value(i) : state_.work;
  }
  int netcdf_output_count() const override { return 0; }

 private:
  struct State {
    double work = 0.0;
    VecN eps_prev = VecN::Zero(), F_prev = VecN::Zero();
  };
  Params p_;
  State state_, saved_;
  VecN eps_scaled_ = VecN::Zero();
};

/// Bistop logic with memory (§2.10.40, and the linear elastic/viscoelastic bistop laws of
/// §2.10.7, 2.10.21 which do not capture the reference strain): inactive gives no force until
/// the activating condition is nonzero; active follows the wrapped law until the deactivating
/// condition is nonzero. With `capture`, activation stores the current strain as reference.
template <int N>
class BiStopLaw final : public SingleWrapperLaw<BiStopLaw<N>, N> {
 public:
  using VecN = typename ConstitutiveLaw<N>::VecN;
  BiStopLaw(bool active, bool capture, DriveCallerPtr activating, DriveCallerPtr deactivating,
            std::unique_ptr<ConstitutiveLaw<N>> law)
      : SingleWrapperLaw<BiStopLaw<N>, N>(std::move(law)), active_(active), capture_(capture),
        activating_(std::move(activating)), deactivating_(std::move(deactivating)) {}
  void update(const VecN& eps, const VecN& eps_dot, double t) override {
    if (!active_ && activating_->value(t) != 0.0) {
      active_ = true;
      if (capture_) eps_ref_ = eps;
    } else if (active_ && deactivating_->value(t) != 0.0) {
      active_ = false;
    }
    if (!active_) {
      this->F_.setZero();
      this->F_eps_.setZero();
      this->F_eps_dot_.setZero();
      return;
    }
    auto& law = *this->law_;
    law.update(eps - eps_ref_, eps_dot, t);
    this->F_ = law.force();
    this->F_eps_ = law.stiffness();
    this->F_eps_dot_ = law.damping();
  }
  bool active() const { return active_; }

 private:
  bool active_, capture_;
  DriveCallerPtr activating_, deactivating_;
  VecN eps_ref_ = VecN::Zero();
};

/// A 1D law acting along the unit direction n of a 3D strain (§2.10.39, axial wrapper):
/// F = n f(n.eps, n.eps'), K = n n^T f/eps, C = n n^T f/eps'.
class AxialWrapperLaw final : public SingleWrapperLaw<AxialWrapperLaw, 3, 1> {
 public:
  AxialWrapperLaw(const Vec3& dir, std::unique_ptr<ConstitutiveLaw<1>> law)
      : SingleWrapperLaw<AxialWrapperLaw, 3, 1>(std::move(law)), n_(dir.normalized()) {}
  void update(const Vec3& eps, const Vec3& eps_dot, double t) override {
    law_->update(ConstitutiveLaw<1>::VecN(n_.dot(eps)), ConstitutiveLaw<1>::VecN(n_.dot(eps_dot)), t);
    F_ = n_ * law_->force()[0];
    F_eps_ = n_ * n_.transpose() * law_->stiffness()(0, 0);
    F_eps_dot_ = n_ * n_.transpose() * law_->damping()(0, 0);
  }

 private:
  Vec3 n_;
};

}  // namespace mbl::laws
