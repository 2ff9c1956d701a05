#include "elements/misc/driven.hpp"

#include "mbdyn-like/core/model.hpp"
#include "mbdyn-like/core/nc_catalog.hpp"

namespace mbl::elements {
namespace {

/// While a driven element is inactive MBDyn writes no text line and leaves its NetCDF records
/// unwritten (NetCDF's default fill value for doubles): the wrapped element writes through this.
class InactiveSink final : public OutputSink {
 public:
  explicit InactiveSink(OutputSink& out) : out_(out) {}
  std::ostream* text(OutputFile) override { return nullptr; }
  void write(std::ostream& os, double v) override { out_.write(os, v); }
  void write_label(std::ostream& os, unsigned label) override { out_.write_label(os, label); }
  bool netcdf() const override { return out_.netcdf(); }
  void declare_entity(const std::string& name, const std::string& type) override { out_.declare_entity(name, type); }
  VarId declare(const std::string& name, NcShape shape, const std::string& units, const std::string& description) override {
    return out_.declare(name, shape, units, description);
  }
  void put(VarId var, double) override { out_.put(var, kFill); }
  void put(VarId var, const Vec3&) override { out_.put(var, Vec3(Vec3::Constant(kFill))); }
  void put(VarId var, const Mat3&) override { out_.put(var, Mat3(Mat3::Constant(kFill))); }

 private:
  static constexpr double kFill = 9.9692099683868690e+36;  // NC_FILL_DOUBLE
  OutputSink& out_;
};

}  // namespace

Driven::Driven(unsigned label, std::unique_ptr<Element> inner, DriveCallerPtr drive, std::vector<Hint> hints,
               InitialState initial)
    : Element(label), inner_(std::move(inner)), drive_(std::move(drive)), hints_(std::move(hints)), initial_(initial) {
  where = inner_->where;
  set_output_enabled(inner_->output_enabled());
}

void Driven::setup(Model& m) {
  inner_->setup(m);
  // The state at the initial time (initial assembly asks before any residual).
  switch (initial_) {
    case InitialState::Active: active_ = true; break;
    case InitialState::Inactive: active_ = false; break;
    case InitialState::FromDrive: active_ = drive_->value(m.drive_env().time) != 0.0; break;
  }
  was_active_ = active_;
}

void Driven::sync_indices() const { inner_->set_first_index(first_index()); }

void Driven::initial_state(Vector& y, Vector& yp) const {
  sync_indices();
  inner_->initial_state(y, yp);
}

bool Driven::drive_on(double t) const {
  // `initial state` stands for the drive until the first step starts.
  if (!stepping_ && initial_ != InitialState::FromDrive) return initial_ == InitialState::Active;
  return drive_->value(t) != 0.0;
}

void Driven::update_activation(double t) {
  active_ = drive_on(t);
  // The hints are applied once per step, at its first assembly, when the element was inactive
  // at the end of the previous step (MBDyn applies them after the prediction).
  if (pending_ && active_ && !was_active_)
    for (const Hint& h : hints_) h(*inner_);
  pending_ = false;
}

void Driven::residual(ResidualSink& r, const StepContext& c) {
  sync_indices();
  // As MBDyn's DrivenElem, the drive is asked again at every assembly: a drive of the state (a
  // bound reaction, a parameter) may switch the element within a Newton iteration sequence.
  update_activation(c.t);
  if (active_) return inner_->residual(r, c);
  // Inactive: the element's own unknowns are driven to zero.
  for (int k = 0; k < dof_count(); ++k) r.add(first_index() + k, -(*c.y)[first_index() + k]);
}

void Driven::jacobian(JacobianSink& J, const StepContext& c) {
  sync_indices();
  update_activation(c.t);
  if (active_) return inner_->jacobian(J, c);
  for (int k = 0; k < dof_count(); ++k) J.add(first_index() + k, first_index() + k, 1.0);
}

void Driven::after_convergence(const StepContext& c) {
  update_activation(c.t);
  was_active_ = active_;
  if (active_) inner_->after_convergence(c);
}

void Driven::after_predict(const StepContext& c) {
  stepping_ = true;
  if (active_) inner_->after_predict(c);
  pending_ = true;
}

void Driven::output_setup(OutputSink& out) {
  inner_->set_output_enabled(output_enabled());
  inner_->output_setup(out);
  if (output_enabled() && out.netcdf())
    nc_activation_ = output::nc_declare(out, "elem.driven." + std::to_string(label()), output::nc::driven_activation);
}

void Driven::output(OutputSink& out) const {
  if (!output_enabled()) return;
  // MBDyn writes no record of a driven element while it is inactive.
  if (active_) {
    inner_->output(out);
  } else if (out.netcdf()) {
    InactiveSink fill(out);
    inner_->output(fill);
  }
  if (nc_activation_ >= 0) out.put(nc_activation_, active_ ? 1.0 : 0.0);
}

}  // namespace mbl::elements
