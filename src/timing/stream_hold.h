// Holds a stream while work is queued behind it, so the queued work then runs back to back on the
// GPU with no host in between (the technique nvbench uses for its cold measurements): a one-thread
// kernel spins on a flag in host-mapped memory until the host sets it, then exits.
//
// It can never hang: the kernel gives up after `timeout_ns` of %globaltimer and says so in a
// second mapped word, so a host that stalls while queueing (preempted, paging) costs one discarded
// sample, never a stuck GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace rkv {

class StreamHold {
 public:
  explicit StreamHold(std::uint64_t timeout_ns = 100'000'000);  // 100 ms
  ~StreamHold();
  StreamHold(const StreamHold&) = delete;
  StreamHold& operator=(const StreamHold&) = delete;

  // Clears the flag and launches the holding kernel on `stream`. Work queued on `stream` after
  // this waits until release().
  void hold(cudaStream_t stream);
  // Sets the flag: the holding kernel exits and the queued work starts.
  void release();
  // After the stream has been synchronized past the hold: whether the kernel gave up waiting
  // (the queued work then started before release(), so what it timed may include the host).
  bool timed_out() const;

 private:
  struct Words {
    int release;
    int timed_out;
  };
  Words* host_ = nullptr;    // page-locked, mapped
  Words* device_ = nullptr;  // the same words as the device sees them
  std::uint64_t timeout_ns_;
};

// Keeps the GPU busy for about `ns` nanoseconds on `stream` (one thread spinning on
// %globaltimer): sustained load lets the clocks ramp up before anything is measured.
void launch_spin(cudaStream_t stream, std::uint64_t ns);

}  // namespace rkv
