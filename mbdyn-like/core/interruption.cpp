#include "mbdyn-like/core/interruption.hpp"

#include <atomic>

namespace mbl {

namespace {
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "note_interruption must be async-signal-safe");
}  // namespace

void note_interruption(int signal) noexcept { stop_signal.store(signal); }
int interruption_signal() noexcept { return stop_signal.load(); }

}  // namespace mbl
