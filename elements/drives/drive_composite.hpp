#pragma once
// Drive callers built from other drive callers or from outside data (manual §2.6): array, mult,
// drive (function of function), periodic, frequency sweep, postponed, string, scalar function,
// and the node/element/dof drives that feed an entity's private datum to an inner drive.
// None of them has memory: they never forward after_convergence (stateful inner drives are
// advanced on their own, see drive_reader.hpp).
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "parser/math/math_parser.hpp"
#include "parser/read_context.hpp"

namespace mbl::drives {

class ScalarFunction;

/// `array` (§2.6.1): sum of the sub-drives.
class ArrayDrive final : public DriveCaller {
 public:
  explicit ArrayDrive(std::vector<DriveCallerPtr> d) : d_(std::move(d)) {}
  double value(double x) const override;
  bool has_derivative() const override;
  double derivative(double x) const override;
  std::string describe() const override;

 private:
  std::vector<DriveCallerPtr> d_;
};

/// `mult` (§2.6.21): product of two drives (product rule for the derivative).
class MultDrive final : public DriveCaller {
 public:
  MultDrive(DriveCallerPtr a, DriveCallerPtr b) : a_(std::move(a)), b_(std::move(b)) {}
  double value(double x) const override { return a_->value(x) * b_->value(x); }
  bool has_derivative() const override { return a_->has_derivative() && b_->has_derivative(); }
  double derivative(double x) const override;
  std::string describe() const override;

 private:
  DriveCallerPtr a_, b_;
};

/// `drive` (§2.6.12): outer(inner(x)) (chain rule for the derivative).
class NestedDrive final : public DriveCaller {
 public:
  NestedDrive(DriveCallerPtr outer, DriveCallerPtr inner)
      : outer_(std::move(outer)), inner_(std::move(inner)) {}
  double value(double x) const override { return outer_->value(inner_->value(x)); }
  bool has_derivative() const override {
    return outer_->has_derivative() && inner_->has_derivative();
  }
  double derivative(double x) const override {
    return outer_->derivative(inner_->value(x)) * inner_->derivative(x);
  }
  std::string describe() const override;

 private:
  DriveCallerPtr outer_, inner_;
};

/// `periodic` (§2.6.25, eq. 2.24): 0 before t0, then f((t - t0) mod period).
class PeriodicDrive final : public DriveCaller {
 public:
  PeriodicDrive(double t0, double period, DriveCallerPtr f)
      : t0_(t0), period_(period), f_(std::move(f)) {}
  double value(double t) const override;
  bool has_derivative() const override { return f_->has_derivative(); }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double wrap(double t) const;
  double t0_, period_;
  DriveCallerPtr f_;
};

/// `frequency sweep` (§2.6.17, eq. 2.21): f_i + A(t) sin(w(t) (t - t_i)) on [t_i, t_f].
class FrequencySweepDrive final : public DriveCaller {
 public:
  FrequencySweepDrive(double t_i, DriveCallerPtr omega, DriveCallerPtr amplitude, double f_i,
                      double t_f, double f_f)
      : t_i_(t_i), omega_(std::move(omega)), amplitude_(std::move(amplitude)), f_i_(f_i),
        t_f_(t_f), f_f_(f_f) {}
  double value(double t) const override;
  bool has_derivative() const override {
    return omega_->has_derivative() && amplitude_->has_derivative();
  }
  double derivative(double t) const override;
  std::string describe() const override;

 private:
  double t_i_;
  DriveCallerPtr omega_, amplitude_;
  double f_i_, t_f_, f_f_;
};

/// Where a `postponed` drive finds its target once `drive caller: label, ...` is read.
struct PostponedSlot {
  unsigned label = 0;
  parser::SourceLocation first_use;
  DriveCallerPtr target;
};

/// `postponed` (§2.6.27): a stand-in for a drive caller defined later in the deck.
class PostponedDrive final : public DriveCaller {
 public:
  explicit PostponedDrive(std::shared_ptr<PostponedSlot> slot) : slot_(std::move(slot)) {}
  double value(double x) const override { return target().value(x); }
  bool has_derivative() const override { return target().has_derivative(); }
  double derivative(double x) const override { return target().derivative(x); }
  std::string describe() const override;

 private:
  const DriveCaller& target() const;  ///< throws std::runtime_error while undefined
  std::shared_ptr<PostponedSlot> slot_;
};

/// `string` (§2.6.35): an expression of the math language, compiled once, evaluated with the
/// model's MathParser after setting Var to the drive's input (Time, TimeStep, Step are kept
/// current by the model). The derivative is a central difference with respect to the input
/// (and to Time when the input is the current time).
class StringDrive final : public DriveCaller {
 public:
  StringDrive(std::string text, std::shared_ptr<const math::Expression> expr,
              math::MathParser& math)
      : text_(std::move(text)), expr_(std::move(expr)), math_(&math) {}
  double value(double x) const override;
  double derivative(double x) const override;
  std::string describe() const override;

 private:
  double eval_at(double x, double time_shift) const;
  std::string text_;
  std::shared_ptr<const math::Expression> expr_;
  math::MathParser* math_;
};

/// `scalar function` (§2.6.31): f(x) of a named or inline scalar function (§2.7).
class ScalarFunctionDrive final : public DriveCaller {
 public:
  ScalarFunctionDrive(std::string name, std::shared_ptr<const ScalarFunction> f)
      : name_(std::move(name)), f_(std::move(f)) {}
  double value(double x) const override;
  bool has_derivative() const override;
  double derivative(double x) const override;
  std::string describe() const override { return "scalar function, \"" + name_ + "\""; }

 private:
  std::string name_;
  std::shared_ptr<const ScalarFunction> f_;
};

/// `node` / `element` / `dof` (§2.6.22, 2.6.13, 2.6.9): the inner drive evaluated at a private
/// datum of an entity instead of the time.
class PrivateDataDrive final : public DriveCaller {
 public:
  PrivateDataDrive(std::string what, const parser::PrivateDataOwner& owner, unsigned index,
                   DriveCallerPtr f)
      : what_(std::move(what)), owner_(&owner), index_(index), f_(std::move(f)) {}
  double value(double) const override { return f_->value(owner_->private_data(index_)); }
  /// d/dx of f at the datum (the chain through the datum is the element's business).
  bool has_derivative() const override { return f_->has_derivative(); }
  double derivative(double) const override {
    return f_->derivative(owner_->private_data(index_));
  }
  std::string describe() const override { return what_ + ", " + f_->describe(); }

 private:
  std::string what_;
  const parser::PrivateDataOwner* owner_;
  unsigned index_;
  DriveCallerPtr f_;
};

}  // namespace mbl::drives
