// Keeps the inputs of in-place launches from drifting out of the range the kernels are timed on.
//
// Why: the fused kernel, the pair and its rope kernel rotate q and k in place, so every launch
// rotates the previous launch's output again. Each rotation rounds to the q/k dtype, and a cos/sin
// row in that dtype is not exactly of norm one, so the values grow or shrink geometrically
// (about 0.25 % per launch in bf16). After 20 000 to 37 000 launches (bf16 and fp16 alike) k
// holds values the fp8 quotient's fast path does not take (below 2^-90 or above 2^91 in bf16,
// inf in fp16; kernels/fp32_quotient.h), and every chunk with one of them takes the out-of-line
// division: the fp8 kernels ran 1.9-3.3x slower after that many launches, at decode sizes
// within one pass. The work would then depend on how many launches came before, not on the case.
//
// So each output slot's launches are counted, and before a sample that would take a slot past
// kInPlaceLaunchBudget launches since its q/k/v were pristine, the slot's q/k/v bytes are copied
// back from the case's pristine copy, queued on the timing stream ahead of the sample: outside
// every timed window (cold mode flushes after it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>

#include "timing/sampler.h"

namespace rkv {

// Launches on one slot between restores, at most: 1000 launches move a rotated pair's norm by
// less than a factor of 16 (about 13 in bf16; tests/input_refresh_test.cpp measures it on the
// seeded inputs), far inside the fast range, and at decode sizes a restore is a few kilobytes
// every ten graph samples.
inline constexpr std::int64_t kInPlaceLaunchBudget = 1000;

// One output slot's launch count and the copy that restores its q/k/v. Shared by every variant
// that launches on the slot (TimedVariant::refresh).
class InputRefresh {
 public:
  using Restore = std::function<cudaError_t(cudaStream_t)>;
  explicit InputRefresh(Restore restore, std::int64_t budget = kInPlaceLaunchBudget);

  // Call before `launches` launches on the slot are queued on `stream`: restores first when they
  // would take the slot past the budget (a sample larger than the budget restores every time),
  // and on the first call, since what ran on the slot before (validation) is not counted.
  void before(std::int64_t launches, cudaStream_t stream);

  std::int64_t restores() const { return restores_; }
  std::int64_t launches_since_restore() const { return since_restore_; }

 private:
  Restore restore_;
  std::int64_t budget_;
  std::int64_t since_restore_;  // starts at the budget: the first call restores
  std::int64_t restores_ = 0;
};

// A sampler that calls its variants' refresh before each of the inner sampler's samples. Variants
// without one (the empty kernel, the producer modes, whose producer restores q/k/v before every
// launch) are sampled as they are.
class RefreshingSampler : public Sampler {
 public:
  RefreshingSampler(Sampler& inner, const std::vector<TimedVariant>& variants, cudaStream_t stream);
  double sample(std::size_t index) override;
  int launches_per_sample() const override { return inner_.launches_per_sample(); }
  double last_producer_us() const override { return inner_.last_producer_us(); }

 private:
  Sampler& inner_;
  const std::vector<TimedVariant>& variants_;
  cudaStream_t stream_;
};

}  // namespace rkv
