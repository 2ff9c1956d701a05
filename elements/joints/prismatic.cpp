#include "elements/joints/prismatic.hpp"

#include "elements/joints/axis_constraints.hpp"

namespace mbl::elements {
namespace {
const std::vector<AxisPair> kPrismaticAxes{{1, 2, 1.0}, {2, 0, 1.0}, {0, 1, 1.0}};
}  // namespace

Prismatic::Prismatic(unsigned label, const Attachment& a, const Attachment& b)
    : Joint(label), a_(a), b_(b) {
  R_WJ_ = a_.R_WH();
}

void Prismatic::residual(ResidualSink& r, const StepContext& c) {
  add_axis_pairs_residual(r, c, a_, b_, kPrismaticAxes, first_index(), lambdas(c, 0));
}

void Prismatic::jacobian(JacobianSink& J, const StepContext& c) {
  add_axis_pairs_jacobian(J, c, a_, b_, kPrismaticAxes, first_index(), lambdas(c, 0));
}

void Prismatic::after_convergence(const StepContext& c) {
  R_WJ_ = a_.R_WH();
  M_W_ = R_WJ_ * lambda3(c, 0);  // MBDyn reports the multipliers rotated, not the moment
}

}  // namespace mbl::elements
