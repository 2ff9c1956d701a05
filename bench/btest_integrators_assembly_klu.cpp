// Kernels of one Newton iteration on the ../shared/scaling models (chain of rigid links, beam of
// three-node beams; N = 100 and 1000), each timed alone: the Jacobian assembly into the sparse
// matrix (pattern known, slot trace followed), KLU's first factorisation (symbolic analysis and
// factor), its refactorisation with the kept pivot order, and a solve; and the rotation kernels
// the elements call most (Cayley-Gibbs-Rodrigues and rotation-vector maps).
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <memory>

#include "fixture.hpp"
#include "integrators/linear_solver.hpp"
#include "integrators/sparse_matrix.hpp"
#include "mbdyn-like/core/rotations.hpp"

namespace {

using namespace mbl;

/// A scaling model at its initial state, its Jacobian assembled once (the pattern known).
struct Iterate {
  BuildResult built;
  Vector y, yp, r;
  integrators::SparseMatrix J{0};
  static constexpr double kTime = 1e-3, kCoef = 0.3;

  Iterate(const std::string& kind, int n) : built(read_deck(bench::shared_path(fmt::format("scaling/{}_{}.mbd", kind, n)))) {
    Model& m = *built.model;
    m.setup_elements();
    m.number_dofs();
    m.initial_state(y, yp);
    m.after_predict(kTime, y, yp);
    m.update(kTime, y, yp);
    r = Vector::Zero(m.size());
    J = integrators::SparseMatrix(m.size());
    assemble();
    assemble();  // the second assembly records the slot trace that later ones follow
  }
  void assemble() {
    J.zero();
    built.model->jacobian(kTime, kCoef, J);
  }
};

const char* kind_of(const benchmark::State& state) { return state.range(0) == 0 ? "chain" : "beam"; }

void BM_JacobianAssembly(benchmark::State& state) {
  Iterate it(kind_of(state), int(state.range(1)));
  for (auto _ : state) {
    it.assemble();
    benchmark::ClobberMemory();
  }
  state.counters["nonzeros"] = double(it.J.nonzeros());
}

void BM_KluFirstFactorisation(benchmark::State& state) {
  Iterate it(kind_of(state), int(state.range(1)));
  for (auto _ : state) {
    integrators::KluSolver klu;
    benchmark::DoNotOptimize(klu.factor(it.J).ok);
  }
}

void BM_KluRefactorisation(benchmark::State& state) {
  Iterate it(kind_of(state), int(state.range(1)));
  integrators::KluSolver klu;
  klu.factor(it.J);
  for (auto _ : state) benchmark::DoNotOptimize(klu.factor(it.J).ok);
  state.counters["numeric_per_call"] = double(klu.numeric_factorizations()) / double(state.iterations() + 1);
}

void BM_KluSolve(benchmark::State& state) {
  Iterate it(kind_of(state), int(state.range(1)));
  integrators::KluSolver klu;
  klu.factor(it.J);
  Eigen::VectorXd x(it.J.size());
  for (auto _ : state) {
    x.setOnes();
    klu.solve(x);
    benchmark::DoNotOptimize(x.data());
  }
}

// {kind (0 chain, 1 beam), N}
void scaling_args(benchmark::internal::Benchmark* b) {
  for (int kind : {0, 1})
    for (int n : {100, 1000}) b->Args({kind, n});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_JacobianAssembly)->Apply(scaling_args);
BENCHMARK(BM_KluFirstFactorisation)->Apply(scaling_args);
BENCHMARK(BM_KluRefactorisation)->Apply(scaling_args);
BENCHMARK(BM_KluSolve)->Apply(scaling_args);

// Rotation kernels on a spread of parameters (small, moderate and large rotations).
const Vec3 kParams[] = {Vec3(1e-4, -2e-4, 3e-4), Vec3(0.2, -0.1, 0.3), Vec3(1.1, 0.7, -0.9), Vec3(-2.0, 1.5, 0.4)};

void BM_CgrToR(benchmark::State& state) {
  for (auto _ : state)
    for (const Vec3& g : kParams) benchmark::DoNotOptimize(rot::cgr_to_R(g));
}
void BM_RotvecToR(benchmark::State& state) {
  for (auto _ : state)
    for (const Vec3& phi : kParams) benchmark::DoNotOptimize(rot::rotvec_to_R(phi));
}
void BM_RToRotvec(benchmark::State& state) {
  Mat3 R[std::size(kParams)];
  for (std::size_t i = 0; i < std::size(kParams); ++i) R[i] = rot::rotvec_to_R(kParams[i]);
  for (auto _ : state)
    for (const Mat3& m : R) benchmark::DoNotOptimize(rot::R_to_rotvec(m));
}
BENCHMARK(BM_CgrToR);
BENCHMARK(BM_RotvecToR);
BENCHMARK(BM_RToRotvec);

}  // namespace

BENCHMARK_MAIN();
