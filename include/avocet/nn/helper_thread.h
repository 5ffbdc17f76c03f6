// A second thread for one network evaluation: Threads 2 gives the one search thread a helper
// that takes half of each step of the trunk (half the token rows, half the attention heads),
// so each evaluation, and with it each node, takes about half as long. Splitting the search's
// tree over two searching threads instead gained about 1.37x in time to depth (src/search).
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace avocet::nn {

class HelperThread {
 public:
  HelperThread();
  ~HelperThread();
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;

  // Runs task(0) on the calling thread and task(1) on the helper, or on the calling thread too
  // when the helper has not started it by the time task(0) is done (its core is busy), and
  // returns when both have finished. The two calls must touch disjoint data and give the same
  // results on either thread; the task must not throw.
  template <class Task>
  void run(Task& task) {
    run_parts([](void* t, int part) { (*static_cast<Task*>(t))(part); }, &task);
  }

  // While held, the helper takes no part, exactly as when another process holds its core and
  // it never gets to run: for tests, which cannot hold a core at will.
  void hold(bool held) { held_.store(held); }

 private:
  using Part = void (*)(void* task, int part);
  void run_parts(Part part, void* task);
  void loop();

  // Written by the caller before it bumps `posted_`, read by the helper after it sees that.
  Part part_ = nullptr;
  void* task_ = nullptr;
  std::atomic<uint32_t> posted_{0};    // tasks posted so far
  std::atomic<uint32_t> claimed_{0};   // the last task whose part 1 a thread has taken
  std::atomic<uint32_t> finished_{0};  // tasks whose part 1 the helper has finished
  std::atomic<bool> sleeping_{false};  // the helper waits on posted_ (see loop())
  std::atomic<bool> quit_{false};
  std::atomic<bool> held_{false};
  std::thread thread_;
};

}  // namespace avocet::nn
