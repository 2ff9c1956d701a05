#pragma once
// Template drive callers (input manual §2.6.42, §2.4.12): drive callers whose value is a real, a
// 3- or 6-vector, or a 3x3 / 6x6 matrix. Four kinds: null, single (constant entity times a drive),
// component (one drive per component; `inactive` = 0), array (sum of template drives).
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"
#include "mbdyn-like/core/types.hpp"
#include "parser/card_reader.hpp"

namespace mbl::drives {

template <class T>
class TplDriveCaller {
 public:
  virtual ~TplDriveCaller() = default;
  virtual T value(double t) const = 0;
  virtual bool has_derivative() const { return false; }
  virtual T derivative(double t) const = 0;
  virtual std::string describe() const = 0;
};

template <class T>
using TplDriveCallerPtr = std::shared_ptr<const TplDriveCaller<T>>;

/// Component count and layout of each entity type.
template <class T>
struct TplTraits;
template <>
struct TplTraits<double> {
  static constexpr int size = 1;
  static constexpr const char* name = "1";
  static double zero() { return 0.0; }
  static double& at(double& v, int) { return v; }
};
template <int R, int C, const char* Name>
struct EigenTplTraits {
  using T = Eigen::Matrix<double, R, C>;
  static constexpr int size = R * C;
  static constexpr const char* name = Name;
  static T zero() { return T::Zero(); }
  /// Components in reading order: row by row.
  static double& at(T& v, int k) { return v(k / C, k % C); }
};
inline constexpr char kName3[] = "3";
inline constexpr char kName6[] = "6";
inline constexpr char kName3x3[] = "3x3";
inline constexpr char kName6x6[] = "6x6";
template <>
struct TplTraits<Vec3> : EigenTplTraits<3, 1, kName3> {};
template <>
struct TplTraits<Vec6> : EigenTplTraits<6, 1, kName6> {};
template <>
struct TplTraits<Mat3> : EigenTplTraits<3, 3, kName3x3> {};
template <>
struct TplTraits<Mat6> : EigenTplTraits<6, 6, kName6x6> {};

template <class T>
class TplNullDrive final : public TplDriveCaller<T> {
 public:
  T value(double) const override { return TplTraits<T>::zero(); }
  bool has_derivative() const override { return true; }
  T derivative(double) const override { return TplTraits<T>::zero(); }
  std::string describe() const override { return "null"; }
};

/// entity * drive(t)
template <class T>
class TplSingleDrive final : public TplDriveCaller<T> {
 public:
  TplSingleDrive(T entity, DriveCallerPtr d) : entity_(std::move(entity)), d_(std::move(d)) {}
  T value(double t) const override { return entity_ * d_->value(t); }
  bool has_derivative() const override { return d_->has_derivative(); }
  T derivative(double t) const override { return entity_ * d_->derivative(t); }
  std::string describe() const override { return "single, ..., " + d_->describe(); }

 private:
  T entity_;
  DriveCallerPtr d_;
};

/// One drive per component, in reading order (null pointer = inactive = 0).
template <class T>
class TplComponentDrive final : public TplDriveCaller<T> {
 public:
  explicit TplComponentDrive(std::vector<DriveCallerPtr> d) : d_(std::move(d)) {}
  T value(double t) const override {
    T v = TplTraits<T>::zero();
    for (int k = 0; k < TplTraits<T>::size; ++k)
      if (d_[k]) TplTraits<T>::at(v, k) = d_[k]->value(t);
    return v;
  }
  bool has_derivative() const override {
    for (const auto& d : d_)
      if (d && !d->has_derivative()) return false;
    return true;
  }
  T derivative(double t) const override {
    T v = TplTraits<T>::zero();
    for (int k = 0; k < TplTraits<T>::size; ++k)
      if (d_[k]) TplTraits<T>::at(v, k) = d_[k]->derivative(t);
    return v;
  }
  std::string describe() const override { return "component, ..."; }

 private:
  std::vector<DriveCallerPtr> d_;
};

template <class T>
class TplArrayDrive final : public TplDriveCaller<T> {
 public:
  explicit TplArrayDrive(std::vector<TplDriveCallerPtr<T>> d) : d_(std::move(d)) {}
  T value(double t) const override {
    T v = TplTraits<T>::zero();
    for (const auto& d : d_) v += d->value(t);
    return v;
  }
  bool has_derivative() const override {
    for (const auto& d : d_)
      if (!d->has_derivative()) return false;
    return true;
  }
  T derivative(double t) const override {
    T v = TplTraits<T>::zero();
    for (const auto& d : d_) v += d->derivative(t);
    return v;
  }
  std::string describe() const override { return "array, ..."; }

 private:
  std::vector<TplDriveCallerPtr<T>> d_;
};

/// How the Vec3 of `single` (and of `array` items) is read, as MBDyn's ReadDCVecRel and
/// ReadDCVecAbs: Relative, in `frame` unless a leading `reference, ...` says otherwise, the result
/// expressed in `frame`; Absolute, global unless `reference, ...` (`reference, node` = `frame`),
/// the result global. Without a frame the vector is global and may still start with
/// `reference, <label>` or `reference, global`.
enum class VecIn { Relative, Absolute };

/// Reads a `<tpl_drive_caller>` of entity T (double, Vec3, Vec6, Mat3, Mat6).
template <class T>
TplDriveCallerPtr<T> read_tpl_drive_caller(parser::CardReader& in, DriveEnvironment& env,
                                           const parser::RigidFrame* frame = nullptr,
                                           VecIn vec_in = VecIn::Relative);

/// Reads a template drive caller from text, e.g. the body of `hint, "drive3{...}"` (§2.6.42).
template <class T>
TplDriveCallerPtr<T> tpl_drive_caller_from_text(const std::string& text, const std::string& name,
                                                parser::ReadContext& ctx, DriveEnvironment& env,
                                                const parser::RigidFrame* frame = nullptr);

#define MBL_TPL_DRIVE_EXTERN(T)                                                               \
  extern template TplDriveCallerPtr<T> read_tpl_drive_caller<T>(                            \
      parser::CardReader&, DriveEnvironment&, const parser::RigidFrame*, VecIn);            \
  extern template TplDriveCallerPtr<T> tpl_drive_caller_from_text<T>(                       \
      const std::string&, const std::string&, parser::ReadContext&, DriveEnvironment&,      \
      const parser::RigidFrame*);
MBL_TPL_DRIVE_EXTERN(double)
MBL_TPL_DRIVE_EXTERN(Vec3)
MBL_TPL_DRIVE_EXTERN(Vec6)
MBL_TPL_DRIVE_EXTERN(Mat3)
MBL_TPL_DRIVE_EXTERN(Mat6)
#undef MBL_TPL_DRIVE_EXTERN

}  // namespace mbl::drives
