#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/seeded_fill.h"
#include "device/special_values.h"
#include "dispatch.cuh"

namespace rkv {
namespace {

template <typename T>
__global__ void fill_values_kernel(T* dst, std::int64_t n, std::uint64_t seed,
                                   std::uint64_t stream) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    dst[i] = detail::from_float<T>(seeded_value(seed, stream, static_cast<std::uint64_t>(i)));
}

__global__ void fill_sentinel_kernel(std::uint8_t* dst, std::int64_t bytes, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < bytes;
       i += std::int64_t{gridDim.x} * blockDim.x)
    dst[i] = sentinel_byte(seed, static_cast<std::uint64_t>(i));
}

unsigned fill_blocks(std::int64_t n) {
  const std::int64_t b = (n + 255) / 256;
  return static_cast<unsigned>(b < 65536 ? (b > 0 ? b : 1) : 65536);
}

std::string mib(std::int64_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

template <typename Bits>
__global__ void plant_specials_kernel(Bits* dst, std::int64_t n, bool fp16) {
  for (std::int64_t j = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; j * kSpecialEvery < n;
       j += std::int64_t{gridDim.x} * blockDim.x)
    dst[j * kSpecialEvery] =
        static_cast<Bits>(special_bits(sizeof(Bits), fp16, static_cast<int>(j % kSpecialCount)));
}

}  // namespace

std::string cuda_device_problem() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  // Without a GPU the runtime usually answers "driver version is insufficient" (no driver at
  // all): say what that means before quoting it.
  if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice)
    return std::string("no NVIDIA GPU with a working driver found (CUDA: ") +
           cudaGetErrorString(e) + ")";
  if (e != cudaSuccess) return std::string("no usable CUDA device: ") + cudaGetErrorString(e);
  if (count == 0) return "no CUDA device found";
  return "";
}

// Freed blocks are kept for reuse: a sweep allocates the same few sizes thousands of times, and
// cudaMalloc/cudaFree of hundreds of MB per case (cudaFree synchronizes) would dominate it.
class BlockPool {
 public:
  static BlockPool& instance() {
    static BlockPool pool;
    return pool;
  }
  // Handing the blocks back at exit keeps leak checkers (compute-sanitizer --leak-check) quiet.
  ~BlockPool() { release_all(); }
  // Rounds up to a 2 MiB multiple so nearby sizes share blocks.
  static std::int64_t rounded(std::int64_t bytes) { return (bytes + kGrain - 1) / kGrain * kGrain; }

  // A cached block of at least `bytes` (at most twice as large), its size in `*got`.
  void* take(std::int64_t bytes, std::int64_t* got) {
    auto it = free_.lower_bound(bytes);
    if (it == free_.end() || it->first > 2 * bytes) return nullptr;
    void* p = it->second;
    *got = it->first;
    cached_ -= it->first;
    free_.erase(it);
    return p;
  }
  void give(void* p, std::int64_t bytes) {
    if (cached_ + bytes > kMaxCached) {
      cudaFree(p);
      return;
    }
    free_.emplace(bytes, p);
    cached_ += bytes;
  }
  void release_all() {
    for (auto& [bytes, p] : free_)
      cudaFree(p);
    free_.clear();
    cached_ = 0;
  }

 private:
  static constexpr std::int64_t kGrain = std::int64_t{2} << 20;
  static constexpr std::int64_t kMaxCached = std::int64_t{24} << 30;
  std::multimap<std::int64_t, void*> free_;
  std::int64_t cached_ = 0;
};

DeviceBuffer::DeviceBuffer(std::int64_t bytes, const char* name, int offset) : bytes_(bytes) {
  if (bytes <= 0) return;
  const std::int64_t block = BlockPool::rounded(bytes + offset);
  base_ = BlockPool::instance().take(block, &capacity_);
  if (base_ == nullptr) {
    cudaError_t e = cudaMalloc(&base_, static_cast<std::size_t>(block));
    if (e == cudaErrorMemoryAllocation) {  // cached blocks may be what is missing: retry once
      (void)cudaGetLastError();
      BlockPool::instance().release_all();
      e = cudaMalloc(&base_, static_cast<std::size_t>(block));
    }
    if (e != cudaSuccess) {
      base_ = nullptr;
      (void)cudaGetLastError();  // an allocation failure is not sticky: clear it
      throw CudaError(std::string("allocating ") + mib(bytes) + " for " + name, e);
    }
    capacity_ = block;
  }
  ptr_ = static_cast<char*>(base_) + offset;
}

DeviceBuffer::~DeviceBuffer() {
  if (base_ != nullptr) BlockPool::instance().give(base_, capacity_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : base_(std::exchange(o.base_, nullptr)),
      ptr_(std::exchange(o.ptr_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)),
      capacity_(std::exchange(o.capacity_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (base_ != nullptr) BlockPool::instance().give(base_, capacity_);
    base_ = std::exchange(o.base_, nullptr);
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    capacity_ = std::exchange(o.capacity_, 0);
  }
  return *this;
}

void DeviceBuffer::upload(const void* src, std::int64_t bytes) {
  if (bytes > 0) cuda_check(cudaMemcpy(ptr_, src, bytes, cudaMemcpyHostToDevice), "upload");
}

void DeviceBuffer::download(void* dst, std::int64_t bytes) const {
  if (bytes > 0) cuda_check(cudaMemcpy(dst, ptr_, bytes, cudaMemcpyDeviceToHost), "download");
}

std::vector<std::uint8_t> DeviceBuffer::to_host() const {
  std::vector<std::uint8_t> v(static_cast<std::size_t>(bytes_));
  download(v.data(), bytes_);
  return v;
}

void fill_values_device(void* dst, DType dtype, std::int64_t n, std::uint64_t seed,
                        std::uint64_t stream) {
  // The same dtype dispatch and conversions as the kernels, so the fill rounds exactly as they do.
  const cudaError_t e = detail::dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_values_kernel<<<fill_blocks(n), 256>>>(static_cast<T*>(dst), n, seed, stream);
    return cudaGetLastError();
  });
  cuda_check(e, "fill_values_kernel");
}

void fill_sentinel_device(void* dst, std::int64_t bytes, std::uint64_t seed) {
  fill_sentinel_kernel<<<fill_blocks(bytes), 256>>>(static_cast<std::uint8_t*>(dst), bytes, seed);
  cuda_check(cudaGetLastError(), "fill_sentinel_kernel");
}

void plant_specials_device(void* dst, DType dtype, std::int64_t n) {
  const std::int64_t planted = (n + kSpecialEvery - 1) / kSpecialEvery;
  if (dtype == DType::fp32)
    plant_specials_kernel<<<fill_blocks(planted), 256>>>(static_cast<std::uint32_t*>(dst), n,
                                                         false);
  else
    plant_specials_kernel<<<fill_blocks(planted), 256>>>(static_cast<std::uint16_t*>(dst), n,
                                                         dtype == DType::fp16);
  cuda_check(cudaGetLastError(), "plant_specials_kernel");
}

namespace {

// The case's q/k/v values (from its seed, with the specials planted when asked), at `dst`.
void fill_qkv_device(void* dst, const CaseSpec& spec, const TensorPlan& plan) {
  const std::int64_t n = plan.tokens * plan.row_elems;
  fill_values_device(dst, spec.dtype, n, spec.seed, static_cast<std::uint64_t>(FillStream::qkv));
  if (spec.values == FillValues::specials) plant_specials_device(dst, spec.dtype, n);
}

}  // namespace

DeviceCase::DeviceCase(const CaseSpec& spec_in)
    : spec(spec_in), plan(make_tensor_plan(spec)), host(make_host_inputs(plan)) {
  const std::uint64_t seed = spec.seed;
  positions = DeviceBuffer(plan.tokens * 8, "positions");
  positions.upload(host.positions.data(), positions.bytes());
  slots = DeviceBuffer(static_cast<std::int64_t>(host.slots.size()) * 8, "slot_mapping");
  slots.upload(host.slots.data(), slots.bytes());
  k_scale = DeviceBuffer(static_cast<std::int64_t>(host.k_scale.size()) * 4, "k_scale");
  k_scale.upload(host.k_scale.data(), k_scale.bytes());
  v_scale = DeviceBuffer(static_cast<std::int64_t>(host.v_scale.size()) * 4, "v_scale");
  v_scale.upload(host.v_scale.data(), v_scale.bytes());
  cos_sin = DeviceBuffer(static_cast<std::int64_t>(host.cos_sin.size()), "cos_sin_cache");
  cos_sin.upload(host.cos_sin.data(), cos_sin.bytes());

  for (OutputBuffers* out : {&slot_a, &slot_b}) {
    const int off = spec.misalign;
    out->qkv = DeviceBuffer(plan.qkv_bytes(), "qkv", off);
    out->query_out = DeviceBuffer(plan.query_out_bytes(), "query_out", off);
    if (plan.has_slots()) {
      out->k_cache = DeviceBuffer(plan.cache_bytes(), "key cache", off);
      if (plan.cache_tensors == 2)
        out->v_cache = DeviceBuffer(plan.cache_bytes(), "value cache", off);
    }
  }
  fill_qkv_device(slot_a.qkv.get(), spec, plan);
  // Each sentinel-filled buffer gets its own pattern (seed offsets), so a copy between them shows.
  fill_sentinel_device(slot_a.query_out.get(), slot_a.query_out.bytes(), seed + 1);
  fill_sentinel_device(slot_a.k_cache.get(), slot_a.k_cache.bytes(), seed + 2);
  fill_sentinel_device(slot_a.v_cache.get(), slot_a.v_cache.bytes(), seed + 3);
  const std::pair<DeviceBuffer*, DeviceBuffer*> copies[] = {{&slot_a.qkv, &slot_b.qkv},
                                                            {&slot_a.query_out, &slot_b.query_out},
                                                            {&slot_a.k_cache, &slot_b.k_cache},
                                                            {&slot_a.v_cache, &slot_b.v_cache}};
  for (const auto& [from, to] : copies)
    if (from->bytes() > 0)
      cuda_check(cudaMemcpy(to->get(), from->get(), from->bytes(), cudaMemcpyDeviceToDevice),
                 "copying slot A's inputs into slot B");
  cuda_check(cudaDeviceSynchronize(), "preparing case buffers");
}

void DeviceCase::make_pristine_qkv() {
  pristine_qkv = DeviceBuffer(plan.qkv_bytes(), "pristine qkv", spec.misalign);
  fill_qkv_device(pristine_qkv.get(), spec, plan);
  cuda_check(cudaDeviceSynchronize(), "filling the pristine qkv");
}

cudaError_t DeviceCase::restore_qkv(OutputSlot s, cudaStream_t stream) const {
  if (pristine_qkv.get() == nullptr)
    throw std::logic_error("restoring a slot's q/k/v: the case has no pristine copy");
  const DeviceBuffer& qkv = outputs(s).qkv;
  return cudaMemcpyAsync(qkv.get(), pristine_qkv.get(), static_cast<std::size_t>(qkv.bytes()),
                         cudaMemcpyDeviceToDevice, stream);
}

const char* to_string(OutputSlot s) {
  return s == OutputSlot::a ? "a" : "b";
}

RopeKvArgs DeviceCase::args(const OutputBuffers& out) const {
  BufferPointers b;
  b.qkv = out.qkv.get();
  b.query_out = out.query_out.get();
  b.k_cache = out.k_cache.get();
  b.v_cache = out.v_cache_ptr();
  b.positions = static_cast<const std::int64_t*>(positions.get());
  b.slots = static_cast<const std::int64_t*>(slots.get());
  b.k_scale = static_cast<const float*>(k_scale.get());
  b.v_scale = static_cast<const float*>(v_scale.get());
  b.cos_sin = cos_sin.get();
  return bind_args(plan, b);
}

}  // namespace rkv
