#pragma once
// File drivers (input manual chapter 7.1): tables of input channels read from text files, and the
// `file` drive caller (§2.6.15) that reads one channel.
#include <memory>
#include <string>
#include <vector>

#include "mbdyn-like/core/drive_caller.hpp"

namespace mbl::drives {

/// A file driver (input manual §7.1): `channels()` input channels, read by `file` drive callers.
class FileDriver {
 public:
  explicit FileDriver(unsigned label) : label_(label) {}
  virtual ~FileDriver() = default;
  unsigned label() const { return label_; }
  virtual int channels() const = 0;
  /// Channel `column` (1-based) at time t.
  virtual double value(int column, double t) const = 0;
  virtual double derivative(int column, double t) const = 0;

 private:
  unsigned label_;
};

/// Fixed and variable step drivers (§7.1.1, §7.1.2): tables of records read from a data file.
class TableFileDriver final : public FileDriver {
 public:
  enum class Interpolation { Linear, Const };
  /// Outside the time range: zeros (`pad zeroes, yes`, the default), the end records
  /// (`pad zeroes, no`), or an error (`bailout, upper|lower|any`).
  enum class OutOfRange { PadZeroes, HoldEnds };
  struct Options {
    Interpolation interpolation = Interpolation::Linear;
    OutOfRange out_of_range = OutOfRange::PadZeroes;
    bool bailout_lower = false;
    bool bailout_upper = false;
  };

  /// `times` ascending, one per record; `records[i]` has `channels` values.
  TableFileDriver(unsigned label, std::string path, std::vector<double> times,
                  std::vector<std::vector<double>> records, Options options);

  int channels() const override { return records_.empty() ? 0 : int(records_.front().size()); }
  std::size_t record_count() const { return times_.size(); }
  double initial_time() const { return times_.front(); }
  double final_time() const { return times_.back(); }
  /// Throws math::StopRequest on bailout.
  double value(int column, double t) const override;
  double derivative(int column, double t) const override;
  const std::string& path() const { return path_; }

 private:
  /// Record i such that t in [t_i, t_{i+1}) (clamped), or -1/-2 below/above the range.
  long locate(double t) const;
  std::string path_;
  std::vector<double> times_;
  std::vector<std::vector<double>> records_;
  Options options_;
};

/// `file, label [, column] [, amplitude, a]`
class FileDrive final : public DriveCaller {
 public:
  FileDrive(std::shared_ptr<const FileDriver> driver, int column, double amplitude)
      : driver_(std::move(driver)), column_(column), amplitude_(amplitude) {}
  double value(double t) const override { return amplitude_ * driver_->value(column_, t); }
  double derivative(double t) const override {
    return amplitude_ * driver_->derivative(column_, t);
  }
  std::string describe() const override;

 private:
  std::shared_ptr<const FileDriver> driver_;
  int column_;
  double amplitude_;
};

/// Parses the text of a data file (comment lines start with '#'; `# initial time: x` and
/// `# time step: x` comments are recognised). Numbers are read in order, `per_record` per record.
struct FileDriverData {
  std::vector<std::vector<double>> records;
  bool has_initial_time = false, has_time_step = false;
  double initial_time = 0.0, time_step = 0.0;
};
/// Throws std::runtime_error "<path>:<line>: ..." on malformed content.
FileDriverData parse_file_driver_data(const std::string& path, const std::string& text,
                                      int per_record);

}  // namespace mbl::drives
