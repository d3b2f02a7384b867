// The floor probe's copies on the device: with every copy kernel, every span byte arrives (XORed
// with the flip), every gap byte and the canary past the last row keep their poison, in place and
// out of place, over row counts that end inside a block's tile; bad arguments are refused before
// launching; and the probe's timing returns every kernel's runs and bytes. Needs a GPU:
// GTEST_SKIP() with the reason when there is none.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "floor/floor_probe.h"
#include "floor/strided_copy.h"
#include "gpu_skip.h"

namespace rkv {
namespace {

class GpuStridedCopy : public GpuTest {};

constexpr std::uint8_t kPoison = 0xa5;
constexpr std::int64_t kCanaryBytes = 4096;

std::vector<std::uint8_t> random_bytes(std::int64_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
  for (std::uint8_t& b : out)
    b = static_cast<std::uint8_t>(rng());
  return out;
}

// Copies `rows` rows of `p` from fresh random bytes into a poisoned buffer (or in place) and
// counts the bytes that differ from what the copy must leave.
std::int64_t wrong_bytes(CopyPattern p, std::int64_t rows, bool in_place, std::uint32_t flip,
                         CopyKernel kernel) {
  const std::int64_t footprint = rows * p.row_bytes;
  const std::int64_t total = footprint + kCanaryBytes;
  const std::vector<std::uint8_t> src_host = random_bytes(total, static_cast<std::uint32_t>(rows));
  DeviceBuffer src(total, "source"), dst(total, "destination");
  src.upload(src_host.data(), total);
  std::vector<std::uint8_t> poisoned(static_cast<std::size_t>(total), kPoison);
  dst.upload(poisoned.data(), total);
  void* out = in_place ? src.get() : dst.get();
  cuda_check(launch_strided_copy(src.get(), out, rows, p, flip, nullptr, kernel), "strided copy");
  cuda_check(cudaDeviceSynchronize(), "strided copy");
  const std::vector<std::uint8_t> got = in_place ? src.to_host() : dst.to_host();
  const std::vector<std::uint8_t>& untouched = in_place ? src_host : poisoned;
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < total; ++i) {
    const bool in_span = i < footprint && i % p.row_bytes < p.span_bytes;
    const auto flip_byte = static_cast<std::uint8_t>(flip >> (8 * (i % 4)));
    const std::uint8_t want =
        in_span ? static_cast<std::uint8_t>(src_host[i] ^ flip_byte) : untouched[i];
    if (got[i] != want && ++wrong <= 3)
      ADD_FAILURE() << copy_kernel_name(kernel) << " " << p.text() << " rows " << rows << " byte "
                    << i << ": got " << int(got[i]) << ", want " << int(want);
  }
  return wrong;
}

// Every copy kernel, over row counts that end inside a tile of 4 or 8 vectors a thread; and, so
// that the grid-stride kernel loops, 300000 rows of 128/384: 2.4 M vectors, 2344 tiles of 1024,
// more than twice its resident wave (8 CTAs of 256 threads a SM: 1056 on 132 SMs).
TEST_F(GpuStridedCopy, SpansArriveAndGapsAndCanariesKeepTheirPoison) {
  for (CopyKernel k : all_copy_kernels())
    for (const CopyPattern p : {CopyPattern{128, 384}, CopyPattern{48, 80}, CopyPattern{16, 16},
                                CopyPattern{1152, 1152}, CopyPattern{16, 4096}})
      for (const std::int64_t rows : {1, 7, 1023, 4099})
        EXPECT_EQ(wrong_bytes(p, rows, false, 0, k), 0)
            << copy_kernel_name(k) << " " << p.text() << " rows " << rows;
  for (CopyKernel k : {CopyKernel::tile8, CopyKernel::grid_stride})
    EXPECT_EQ(wrong_bytes({128, 384}, 300000, false, 0, k), 0) << copy_kernel_name(k);
}

TEST_F(GpuStridedCopy, InPlaceFlipsEverySpanWordAndNothingElse) {
  for (CopyKernel k : all_copy_kernels()) {
    if (!copy_kernel_applies(k, true, 0x01010101u)) continue;
    for (const CopyPattern p : {CopyPattern{128, 384}, CopyPattern{64, 64}})
      for (const std::int64_t rows : {3, 2050})
        EXPECT_EQ(wrong_bytes(p, rows, true, 0x01010101u, k), 0)
            << copy_kernel_name(k) << " " << p.text() << " rows " << rows;
    EXPECT_EQ(wrong_bytes({32, 96}, 333, false, 0xdeadbeefu, k), 0) << copy_kernel_name(k);
  }
}

TEST_F(GpuStridedCopy, BadArgumentsAreRefusedWithoutALaunch) {
  DeviceBuffer buf(1 << 16, "buffer");
  auto* base = static_cast<std::uint8_t*>(buf.get());
  EXPECT_EQ(launch_strided_copy(base + 8, base, 4, {16, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base + 4, 4, {16, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base, 0, {16, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base, 4, {48, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base, 4, {24, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base, 4, {0, 32}, 0, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base, kMaxStridedCopyVectors + 1, {16, 16}, 0, nullptr),
            cudaErrorInvalidValue);
  // memcpy2d cannot flip, nor copy in place.
  EXPECT_EQ(launch_strided_copy(base, base, 4, {16, 32}, 0, nullptr, CopyKernel::memcpy2d),
            cudaErrorInvalidValue);
  EXPECT_EQ(launch_strided_copy(base, base + 4096, 4, {16, 32}, 1, nullptr, CopyKernel::memcpy2d),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(GpuStridedCopy, TheProbeReturnsEveryRunOfEveryCopyOfEveryPattern) {
  FloorRequest r;
  r.patterns = {{128, 384}, {384, 384}};
  r.moved_mib = 4;
  int l2 = 0;
  cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0), "L2 size");
  for (const bool in_place : {false, true}) {
    r.in_place = in_place;
    const std::vector<PatternTiming> t = time_copy_patterns(r, l2);
    ASSERT_EQ(t.size(), 2u);
    for (std::size_t k = 0; k < t.size(); ++k) {
      EXPECT_EQ(t[k].pattern, r.patterns[k]);
      EXPECT_EQ(t[k].rows, floor_probe_rows(r.patterns[k], 4));
      EXPECT_EQ(t[k].bytes_moved, 2 * t[k].rows * r.patterns[k].span_bytes);
      // Out of place every kernel; in place all but memcpy2d.
      ASSERT_EQ(t[k].copies.size(), in_place ? 3u : 4u);
      for (std::size_t c = 0; c < t[k].copies.size(); ++c) {
        const CopyTiming& copy = t[k].copies[c];
        EXPECT_EQ(copy.kernel, all_copy_kernels()[c]);
        ASSERT_EQ(copy.runs_us.size(), static_cast<std::size_t>(kFloorProbeRuns));
        for (double us : copy.runs_us)
          EXPECT_GT(us, 0.0);
        EXPECT_DOUBLE_EQ(copy.gbps, t[k].bytes_moved / (copy.median_us * 1e3));
        EXPECT_LE(t[k].best().median_us, copy.median_us);
      }
    }
  }
}

}  // namespace
}  // namespace rkv
