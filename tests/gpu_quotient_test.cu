// The fp8 store's quotient on the device (kernels/fp32_quotient.h): bit for bit __fdiv_rn (and
// the host's float division) for every bf16 and fp16 code, edge values, random floats of every
// exponent and values whose quotient lies next to an fp32 midpoint, at the same ~80 scales as the
// host test; and the cache store's fp8 bytes equal the host model's fp8_satfinite(x / scale).
// Needs a GPU: GTEST_SKIP() with the reason when there is none.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "gpu_skip.h"
#include "host_numeric.h"
#include "quotient_inputs.h"
#include "rope_kv_device.cuh"

namespace rkv {
namespace {

using quotient_inputs::bits_of;

class GpuQuotient : public GpuTest {};

constexpr int kChunk = 8;

// One chunk per thread, as the kernels run it: the chunked entry point, the fast path alone
// where it applies (so that a mixed chunk's fallback cannot hide a fast-path error), the
// division itself, and the cache store's bytes in both fp8 formats.
__global__ void quotient_kernel(const float* in, std::int64_t chunks, float scale, float* chunked,
                                float* single, float* divided, std::uint8_t* e4m3,
                                std::uint8_t* e5m2) {
  const std::int64_t c = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (c >= chunks) return;
  const detail::ScaleDivider d(scale);
  detail::FloatChunk<kChunk> x;
  for (int j = 0; j < kChunk; ++j)
    x.v[j] = in[c * kChunk + j];
  const detail::FloatChunk<kChunk> q = detail::quotients<kChunk>(x, d);
  for (int j = 0; j < kChunk; ++j) {
    const std::int64_t i = c * kChunk + j;
    chunked[i] = q.v[j];
    divided[i] = __fdiv_rn(x.v[j], scale);
    single[i] = d.fast && detail::fast_quotient_input(x.v[j]) ? detail::fast_quotient(x.v[j], d)
                                                              : __fdiv_rn(x.v[j], scale);
  }
  const auto v = detail::load_vec<float, kChunk>(in + c * kChunk);
  detail::store_cache_chunk<float, CacheDType::fp8_e4m3, kChunk>(e4m3 + c * kChunk, v, scale);
  detail::store_cache_chunk<float, CacheDType::fp8_e5m2, kChunk>(e5m2 + c * kChunk, v, scale);
}

// Runs `in` (padded to whole chunks) at scale s; returns the number of wrong values, reporting
// the first few.
std::int64_t check_on_device(std::vector<float> in, float s) {
  in.resize((in.size() + kChunk - 1) / kChunk * kChunk, 1.0f);
  const auto n = static_cast<std::int64_t>(in.size());
  DeviceBuffer d_in(n * 4, "inputs"), d_chunked(n * 4, "chunked"), d_single(n * 4, "single"),
      d_divided(n * 4, "divided"), d_e4m3(n, "e4m3"), d_e5m2(n, "e5m2");
  d_in.upload(in.data(), n * 4);
  const std::int64_t chunks = n / kChunk;
  quotient_kernel<<<static_cast<unsigned>((chunks + 255) / 256), 256>>>(
      static_cast<const float*>(d_in.get()), chunks, s, static_cast<float*>(d_chunked.get()),
      static_cast<float*>(d_single.get()), static_cast<float*>(d_divided.get()),
      static_cast<std::uint8_t*>(d_e4m3.get()), static_cast<std::uint8_t*>(d_e5m2.get()));
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> chunked(in.size()), single(in.size()), divided(in.size());
  std::vector<std::uint8_t> e4m3(in.size()), e5m2(in.size());
  d_chunked.download(chunked.data(), n * 4);
  d_single.download(single.data(), n * 4);
  d_divided.download(divided.data(), n * 4);
  d_e4m3.download(e4m3.data(), n);
  d_e5m2.download(e5m2.data(), n);
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float x = in[i], host = x / s;
    const std::uint32_t want = bits_of(divided[i]);
    // NaN payloads may differ between host and device; everything else must not.
    const bool division_ok = std::isnan(host) ? std::isnan(divided[i]) : bits_of(host) == want;
    const bool ok = division_ok && bits_of(chunked[i]) == want && bits_of(single[i]) == want &&
                    e4m3[i] == float_to_fp8_e4m3_satfinite(host) &&
                    e5m2[i] == float_to_fp8_e5m2_satfinite(host);
    if (!ok && ++bad <= 5)
      ADD_FAILURE() << std::hexfloat << x << " / " << s << ": host " << host << ", __fdiv_rn "
                    << divided[i] << ", chunked " << chunked[i] << ", fast " << single[i]
                    << std::defaultfloat << ", e4m3 0x" << std::hex << int{e4m3[i]} << ", e5m2 0x"
                    << int{e5m2[i]} << std::dec;
  }
  return bad;
}

TEST_F(GpuQuotient, Every16BitCodeAtEveryScale) {
  const std::vector<float> codes = quotient_inputs::all_16_bit_codes();
  for (float s : quotient_inputs::scales())
    ASSERT_EQ(check_on_device(codes, s), 0) << "scale " << s;
}

TEST_F(GpuQuotient, EdgeRandomAndNearMidpointFloatsAtEveryScale) {
  std::uint32_t seed = 1;
  for (float s : quotient_inputs::scales()) {
    std::vector<float> in = quotient_inputs::edge_floats();
    for (const std::vector<float>& more : {quotient_inputs::near_midpoints(s, 100000, seed),
                                           quotient_inputs::hardest_near_midpoints(s, seed),
                                           quotient_inputs::random_floats(250'000, seed + 1000)})
      in.insert(in.end(), more.begin(), more.end());
    ++seed;
    ASSERT_EQ(check_on_device(in, s), 0) << "scale " << s;
  }
}

}  // namespace
}  // namespace rkv
