#include "timing/input_refresh.h"

#include <stdexcept>
#include <utility>

#include "device/cuda_check.h"

namespace rkv {

InputRefresh::InputRefresh(Restore restore, std::int64_t budget)
    : restore_(std::move(restore)), budget_(budget), since_restore_(budget) {
  if (!restore_ || budget_ <= 0)
    throw std::logic_error("InputRefresh needs a restore and a budget");
}

void InputRefresh::before(std::int64_t launches, cudaStream_t stream) {
  if (since_restore_ + launches > budget_) {
    cuda_check(restore_(stream), "restoring a slot's q/k/v from the pristine copy");
    since_restore_ = 0;
    ++restores_;
  }
  since_restore_ += launches;
}

RefreshingSampler::RefreshingSampler(Sampler& inner, const std::vector<TimedVariant>& variants,
                                     cudaStream_t stream)
    : inner_(inner), variants_(variants), stream_(stream) {}

double RefreshingSampler::sample(std::size_t index) {
  if (const auto& refresh = variants_.at(index).refresh)
    refresh->before(inner_.launches_per_sample(), stream_);
  return inner_.sample(index);
}

}  // namespace rkv
