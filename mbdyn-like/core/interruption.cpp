#include "mbdyn-like/core/interruption.hpp"

#include <semaphore.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <thread>

namespace mbl {

namespace {
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "note_interruption must be async-signal-safe");

// The handler's side of the watchdog: a counter and a semaphore (sem_post is async-signal-safe).
std::atomic<int> signals_received{0};
sem_t wake;

void on_stop_signal(int signal) {
  const int n = ++signals_received;
  if (n == 1) note_interruption(signal);
  if (n >= 3) {  // the watchdog itself is stuck: the default action, at once
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  sem_post(&wake);
}

void install(void (*handler)(int)) {
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, nullptr);
  }
}

/// Waits on the semaphore until `deadline` (none: for ever); false on time-out.
bool wait_until(const timespec* deadline) {
  for (;;) {
    const int r = deadline ? sem_timedwait(&wake, deadline) : sem_wait(&wake);
    if (r == 0) return true;
    if (errno == ETIMEDOUT) return false;
    // EINTR: a signal interrupted the wait; look again
  }
}
}  // namespace

void note_interruption(int signal) noexcept { stop_signal.store(signal); }
int interruption_signal() noexcept { return stop_signal.load(); }

struct StopWatchdog::State {
  Finish finish;
  double grace_seconds;
  std::atomic<bool> done{false};
  std::thread thread;

  void watch() {
    wait_until(nullptr);
    if (done) return;
    timespec deadline{};
    clock_gettime(CLOCK_REALTIME, &deadline);
    const long grace_ns = static_cast<long>(grace_seconds * 1e9);
    deadline.tv_sec += grace_ns / 1'000'000'000L;
    deadline.tv_nsec += grace_ns % 1'000'000'000L;
    if (deadline.tv_nsec >= 1'000'000'000L) {
      deadline.tv_sec += 1;
      deadline.tv_nsec -= 1'000'000'000L;
    }
    const bool woken = wait_until(&deadline);
    if (done) return;
    finish(stop_signal.load(), woken && signals_received >= 2);
  }
};

StopWatchdog::StopWatchdog(Finish finish, double grace_seconds) : state_(std::make_unique<State>()) {
  state_->finish = std::move(finish);
  state_->grace_seconds = grace_seconds;
  sem_init(&wake, 0, 0);
  signals_received = 0;
  // The thread blocks SIGINT/SIGTERM: the handler runs on the main thread, whose blocking calls
  // (a socket wait) it interrupts with EINTR.
  sigset_t block, previous;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &previous);
  state_->thread = std::thread([s = state_.get()] { s->watch(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  install(on_stop_signal);
}

StopWatchdog::~StopWatchdog() {
  install(SIG_DFL);
  state_->done = true;
  sem_post(&wake);
  sem_post(&wake);
  state_->thread.join();
  sem_destroy(&wake);
}

}  // namespace mbl
