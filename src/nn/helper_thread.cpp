#include "avocet/nn/helper_thread.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace avocet::nn {

namespace {

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// How long the helper spins for the next task before it sleeps. Between two evaluations of a
// search the search thread works for tens of microseconds, and waking a sleeping thread costs
// about as much, so the helper spins through those gaps; it sleeps once the search has ended
// or waits on something else.
constexpr std::chrono::microseconds kSpinTime{2000};

// Spins (a pause each, tens of nanoseconds) before a waiting thread starts to yield its core at
// every turn: about what a part of one step takes.
constexpr int kSpinsBeforeYield = 4096;

// One turn of a wait that has spun `spins` times already.
void wait_a_turn(int spins) {
  if (spins < kSpinsBeforeYield)
    pause();
  else
    std::this_thread::yield();
}

}  // namespace

HelperThread::HelperThread() : thread_(&HelperThread::loop, this) {}

HelperThread::~HelperThread() {
  quit_.store(true);
  posted_.fetch_add(1);
  posted_.notify_one();
  thread_.join();
}

void HelperThread::run_parts(Part part, void* task) {
  part_ = part;
  task_ = task;
  // Sequentially consistent, with the helper's store to sleeping_ and its load of posted_: one
  // of the two threads sees the other's write, so a sleeping helper is always woken.
  const uint32_t ticket = posted_.fetch_add(1) + 1;
  if (sleeping_.load()) posted_.notify_one();
  part(task, 0);
  // Part 1 goes to whichever thread claims it first. A helper that runs claims it within
  // microseconds of the post, long before part 0 is done. One whose core another process holds
  // may not run for a whole time slice (milliseconds); then this thread does both parts, no
  // slower than one thread alone (issue 52, N11: a lichess-bot host is rarely idle).
  uint32_t unclaimed = ticket - 1;
  if (claimed_.compare_exchange_strong(unclaimed, ticket)) {
    part(task, 1);
    return;
  }
  // The helper is running part 1, which takes about as long as part 0: it is normally done or
  // nearly. Yielding lets it have the core when both threads share one.
  for (int spins = 0; finished_.load(std::memory_order_acquire) != ticket; ++spins)
    wait_a_turn(spins);
}

void HelperThread::loop() {
  uint32_t seen = 0;
  for (;;) {
    uint32_t now = posted_.load(std::memory_order_acquire);
    if (now == seen) {
      const auto give_up = std::chrono::steady_clock::now() + kSpinTime;
      for (int spins = 0; (now = posted_.load(std::memory_order_acquire)) == seen; ++spins) {
        wait_a_turn(spins);
        if (spins % 256 == 0 && std::chrono::steady_clock::now() >= give_up) {
          sleeping_.store(true);
          if ((now = posted_.load()) == seen) posted_.wait(seen);
          sleeping_.store(false);
        }
      }
    }
    seen = now;
    if (quit_.load()) return;
    if (held_.load(std::memory_order_relaxed)) continue;
    // Tickets the caller finished alone were claimed by it, so the last claim is now - 1
    // exactly when part 1 of `now` is still to run (run_parts).
    uint32_t unclaimed = now - 1;
    if (!claimed_.compare_exchange_strong(unclaimed, now)) continue;  // the caller took it
    part_(task_, 1);
    finished_.store(seen, std::memory_order_release);
  }
}

}  // namespace avocet::nn
