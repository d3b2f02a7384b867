// bf16 chunks read by their 32-bit words (kernels/rope_kv_device.cuh, bf16_chunk_floats; the
// token-warp kernels' reads): for every bf16 code in either half of a word, the same float bits as
// the element-by-element conversion (__bfloat162float), and through the helpers that take the flag
// (the gpt-j rotation, the fp8 cache store in both formats) the same output bytes as without it.
// Needs a GPU: GTEST_SKIP() with the reason when there is none.
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "gpu_skip.h"
#include "rope_kv_device.cuh"

namespace rkv {
namespace {

class GpuBf16Words : public GpuTest {};

constexpr int kVec = 8;
using Chunk = detail::Vec<__nv_bfloat16, kVec>;

// Per chunk: mismatching elements of the word read against the element read, and of the rotated
// chunk and both fp8 stores with the flag against without it. Any NaN code converts to the same
// bits both ways (neither read quiets it), so the comparison is on raw bits.
__global__ void words_kernel(const Chunk* in, std::int64_t chunks, float c0, float s0, float scale,
                             int* bad) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i >= chunks) return;
  const Chunk v = in[i];
  float words[kVec];
  detail::bf16_chunk_floats<kVec>(v, words);
  int wrong = 0;
  for (int j = 0; j < kVec; ++j)
    wrong += __float_as_uint(words[j]) != __float_as_uint(__bfloat162float(v.v[j]));

  detail::UnitCosSin<kVec, false> cs;
  for (int j = 0; j < kVec / 2; ++j) {
    cs.c[j] = c0 + 0.125f * j;
    cs.s[j] = s0 - 0.0625f * j;
  }
  detail::UnitChunks<__nv_bfloat16, kVec, false> unit;
  unit.chunk[0] = v;
  const auto by_words =
      detail::rotate_unit_chunks<__nv_bfloat16, kVec, false, true>(unit, 0, 64, 0, cs);
  const auto by_elems =
      detail::rotate_unit_chunks<__nv_bfloat16, kVec, false, false>(unit, 0, 64, 0, cs);
  for (int j = 0; j < kVec; ++j)
    wrong += __bfloat16_as_ushort(by_words.chunk[0].v[j]) !=
             __bfloat16_as_ushort(by_elems.chunk[0].v[j]);

  std::uint8_t e4_words[kVec], e4_elems[kVec], e5_words[kVec], e5_elems[kVec];
  detail::store_cache_chunk<__nv_bfloat16, CacheDType::fp8_e4m3, kVec, true>(e4_words, v, scale);
  detail::store_cache_chunk<__nv_bfloat16, CacheDType::fp8_e4m3, kVec, false>(e4_elems, v, scale);
  detail::store_cache_chunk<__nv_bfloat16, CacheDType::fp8_e5m2, kVec, true>(e5_words, v, scale);
  detail::store_cache_chunk<__nv_bfloat16, CacheDType::fp8_e5m2, kVec, false>(e5_elems, v, scale);
  for (int j = 0; j < kVec; ++j)
    wrong += (e4_words[j] != e4_elems[j]) + (e5_words[j] != e5_elems[j]);
  bad[i] = wrong;
}

// Every bf16 code at every element position of a chunk: chunk k holds codes 8k .. 8k+7 rotated by
// k, so each code sits in the low half of a word in some chunks and the high half in others.
std::vector<Chunk> every_code_in_every_lane() {
  std::vector<Chunk> chunks;
  for (std::uint32_t base = 0; base < 65536; base += kVec) {
    for (int shift = 0; shift < kVec; ++shift) {
      Chunk c;
      for (int j = 0; j < kVec; ++j)
        c.v[j] = __ushort_as_bfloat16(static_cast<unsigned short>(base + (j + shift) % kVec));
      chunks.push_back(c);
    }
  }
  return chunks;
}

TEST_F(GpuBf16Words, EveryCodeReadsAsTheElementConversionDoes) {
  const std::vector<Chunk> chunks = every_code_in_every_lane();
  const auto n = static_cast<std::int64_t>(chunks.size());
  DeviceBuffer d_in(n * sizeof(Chunk), "chunks"), d_bad(n * 4, "mismatches");
  d_in.upload(chunks.data(), n * sizeof(Chunk));
  struct Setting {
    float c0, s0, scale;
  };
  // Cos/sin values of both signs and sizes; scales below, at and above 1 (the quotient's fast
  // range and, at 2^-40, its division fallback).
  for (const Setting& s : {Setting{0.8f, 0.6f, 1.0f}, Setting{-0.3f, 0.95f, 0.0173f},
                           Setting{0.999f, -0.04f, 37.5f}, Setting{0.5f, 0.5f, 0x1p-40f}}) {
    words_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(
        static_cast<const Chunk*>(d_in.get()), n, s.c0, s.s0, s.scale,
        static_cast<int*>(d_bad.get()));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<int> bad(static_cast<std::size_t>(n));
    d_bad.download(bad.data(), n * 4);
    std::int64_t total = 0, first = -1;
    for (std::int64_t i = 0; i < n; ++i) {
      total += bad[static_cast<std::size_t>(i)];
      if (first < 0 && bad[static_cast<std::size_t>(i)] != 0) first = i;
    }
    EXPECT_EQ(total, 0) << "scale " << s.scale << ", first bad chunk " << first;
  }
}

}  // namespace
}  // namespace rkv
