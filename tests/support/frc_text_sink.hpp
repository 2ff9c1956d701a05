#pragma once
// An OutputSink that keeps the .frc text only, in memory: "<id> v v v ..." with one blank before
// each number and labels unpadded (what the external forces' output prints, for the tests of
// their records and the fuzz target of their socket protocol, tests/fuzz/targets/fuzz_extforce.cpp).
#include <ostream>
#include <sstream>
#include <string>

#include "mbdyn-like/core/output_sink.hpp"

namespace mbl::test_support {

class FrcTextSink final : public OutputSink {
 public:
  /// Another file's text instead (`frc` keeps it), labels right-aligned in 8 if `padded_labels`
  /// (MBDyn's setw(8) everywhere but the .frc file).
  explicit FrcTextSink(OutputFile file = OutputFile::Frc, bool padded_labels = false)
      : file_(file), padded_labels_(padded_labels) {}
  std::ostringstream frc;
  std::ostream* text(OutputFile f) override { return f == file_ ? &frc : nullptr; }
  void write(std::ostream& os, double v) override { os << ' ' << v; }
  void write_label(std::ostream& os, unsigned label) override {
    const std::string s = std::to_string(label);
    if (padded_labels_ && s.size() < 8) os << std::string(8 - s.size(), ' ');
    os << s;
  }
  bool netcdf() const override { return false; }
  void declare_entity(const std::string&, const std::string&) override {}
  VarId declare(const std::string&, NcShape, const std::string&, const std::string&) override { return 0; }
  void put(VarId, double) override {}
  void put(VarId, const Vec3&) override {}
  void put(VarId, const Mat3&) override {}

 private:
  OutputFile file_;
  bool padded_labels_;
};

}  // namespace mbl::test_support
