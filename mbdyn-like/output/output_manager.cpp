#include "mbdyn-like/output/output_manager.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>

#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::output {

std::string_view extension(OutputFile f) {
  switch (f) {
    case OutputFile::Out: return "out";
    case OutputFile::Log: return "log";
    case OutputFile::Mov: return "mov";
    case OutputFile::Jnt: return "jnt";
    case OutputFile::Frc: return "frc";
    case OutputFile::Ine: return "ine";
    case OutputFile::Act: return "act";
    case OutputFile::Drv: return "drv";
    case OutputFile::Grv: return "grv";
    case OutputFile::Abs: return "abs";
    case OutputFile::Rot: return "rot";
    case OutputFile::Prm: return "prm";
    case OutputFile::Prs: return "prs";
    case OutputFile::Hyd: return "hyd";
    case OutputFile::Mod: return "mod";
    case OutputFile::Aer: return "aer";
    case OutputFile::Air: return "air";
    case OutputFile::Thn: return "thn";
    case OutputFile::Prl: return "prl";  // surface loads
    case OutputFile::Rfm: return "rfm";  // reference frames
    case OutputFile::Pla: return "pla";  // plates (shells, membranes)
    case OutputFile::Dof: return "dof";  // `print: ..., to file`
  }
  return "txt";
}

OutputManager::OutputManager(OutputConfig config) : config_(std::move(config)) {
  if (config_.frequency < 1) config_.frequency = 1;
  if (config_.precision < 1) config_.precision = 1;
  out_format_.precision = config_.precision;
  out_format_.precision_given = config_.precision_given;
}

OutputManager::~OutputManager() {
  try {
    close();
  } catch (...) {
    // never throw from a destructor; an explicit close() reports errors
  }
}

std::string OutputManager::path(OutputFile f) const {
  return config_.prefix + "." + std::string(extension(f));
}

std::ofstream& OutputManager::open(OutputFile f) {
  auto& slot = files_[std::size_t(f)];
  if (!slot) {
    auto file = std::make_unique<std::ofstream>(path(f), std::ios::out | std::ios::trunc);
    if (!*file) throw OutputError(fmt::format("cannot create output file {}", path(f)));
    slot = std::move(file);
  }
  return *slot;
}

void OutputManager::begin_setup() {
  // The files of an earlier run with this prefix go: what is there after this run is this run's,
  // whether it writes a kind of file or not, and however early it fails (MBDyn truncates the files
  // it opens at the start; ours are created on first use). The CLI refuses a prefix whose output
  // would be the deck itself.
  for (int f = 0; f < kOutputFileKinds; ++f) {
    std::error_code ec;
    std::filesystem::remove(path(OutputFile(f)), ec);
  }
  if (!config_.netcdf) {
    std::error_code ec;
    std::filesystem::remove(config_.prefix + ".nc", ec);
  }
  auto& log = open(OutputFile::Log);
  // Appendix E.3.2: "custom" when an output meter decides.
  if (config_.meter)
    log << "output frequency: custom\n";
  else
    log << "output frequency: " << config_.frequency << '\n';
  open(OutputFile::Out);
  if (config_.netcdf && !nc_) {
    nc_ = std::make_unique<NcWriter>(config_.prefix + ".nc", config_.netcdf_format,
                                     config_.netcdf_sync ? 1 : 50);
  }
}

void OutputManager::declare_group(const std::string& level, const std::string& type_key,
                                  const std::vector<unsigned>& labels,
                                  const std::string& description) {
  if (!nc_) return;
  nc_->declare_group(level, type_key,
                     description.empty() ? nc_group_description(level, type_key) : description,
                     labels);
}

void OutputManager::end_setup() {
  setup_done_ = true;
  if (nc_) nc_->end_define();
  for (auto& f : files_)
    if (f) f->flush();
}

bool OutputManager::begin_step(long step, double time, double dt) {
  if (in_step_ && in_output_step_ && nc_) nc_->end_record();  // previous step never ended
  in_step_ = true;
  const bool out = config_.meter ? config_.meter->value(time) != 0.0 : step % config_.frequency == 0;
  in_output_step_ = out;
  if (out) ++output_records_;
  if (out && nc_) nc_->begin_record(step, time, dt);
  return out;
}

void OutputManager::write_step_key_once() {
  if (step_key_written_) return;
  step_key_written_ = true;
  open(OutputFile::Out) << step_key_lines();
}

void OutputManager::end_step(const StepLine& line, bool step_line) {
  StepLine l = line;
  l.output = in_output_step_;
  if (step_line && config_.step_lines) {
    if (config_.step_key) write_step_key_once();
    auto& out = open(OutputFile::Out);
    // The .out lines go to disk at least every kOutFlushInterval: after a crash they tell how far
    // the run got, without a write per step (a few percent of a small model's run).
    out << format_step_line(l, out_format_.precision_for_step_line(step_lines_)) << '\n';
    const auto now = std::chrono::steady_clock::now();
    if (now - last_out_flush_ >= kOutFlushInterval) {
      out.flush();
      last_out_flush_ = now;
    }
    ++step_lines_;
  }
  if (nc_ && in_output_step_) nc_->end_record();
  if (config_.netcdf_sync) flush();
  in_step_ = false;
  in_output_step_ = false;
}

void OutputManager::write_derivatives_line(double time, int iterations, double error) {
  open(OutputFile::Out) << format_derivatives_line(time, iterations, error,
                                                   out_format_.precision_for_header())
                        << '\n';
}

void OutputManager::write_dummy_steps_line(double time, int iterations, double error) {
  open(OutputFile::Out) << format_dummy_steps_line(time, iterations, error,
                                                   out_format_.precision_for_header())
                        << '\n';
}

void OutputManager::write_out_line(const std::string& line) {
  open(OutputFile::Out) << line << '\n';
}

void OutputManager::flush() {
  for (auto& f : files_)
    if (f) f->flush();
  if (nc_) nc_->sync();
}

void OutputManager::close() {
  std::string error;
  for (std::size_t i = 0; i < files_.size(); ++i) {
    auto& f = files_[i];
    if (!f) continue;
    f->flush();
    if (!*f && error.empty()) error = fmt::format("error writing {}", path(OutputFile(i)));
    f->close();
    f.reset();
  }
  if (nc_) {
    auto nc = std::move(nc_);
    nc->close();
  }
  if (!error.empty()) throw OutputError(error);
}

std::ostream* OutputManager::text(OutputFile f) {
  if (f == OutputFile::Out || f == OutputFile::Log) return &open(f);
  if (!config_.text) return nullptr;
  if (in_step_ && !in_output_step_) return nullptr;
  return &open(f);
}

void OutputManager::write(std::ostream& os, double v) {
  buffer_.clear();
  append_real(buffer_, v, config_.precision);
  os.write(buffer_.data(), std::streamsize(buffer_.size()));
}

void OutputManager::write_label(std::ostream& os, unsigned label) {
  const auto& frc = files_[std::size_t(OutputFile::Frc)];
  buffer_ = frc && &os == frc.get() ? std::to_string(label) : format_label(label);
  os.write(buffer_.data(), std::streamsize(buffer_.size()));
}

void OutputManager::declare_entity(const std::string& name, const std::string& type) {
  if (nc_) nc_->declare_entity(name, type);
}

OutputSink::VarId OutputManager::declare(const std::string& name, NcShape shape,
                                         const std::string& units,
                                         const std::string& description) {
  return nc_ ? nc_->declare(name, shape, units, description) : -1;
}

void OutputManager::put(VarId var, double v) {
  if (nc_ && in_output_step_) nc_->put(var, v);
}
void OutputManager::put(VarId var, const Vec3& v) {
  if (nc_ && in_output_step_) nc_->put(var, v);
}
void OutputManager::put(VarId var, const Mat3& m) {
  if (nc_ && in_output_step_) nc_->put(var, m);
}

}  // namespace mbl::output
