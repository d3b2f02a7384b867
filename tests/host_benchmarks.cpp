// Host-side costs as Google Benchmark micro-benchmarks: how long the CPU golden model takes, which
// bounds how large a case the validator can check in full before it must sample tokens.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "golden.h"
#include "host_numeric.h"
#include "plan/cache_layout.h"
#include "plan/case_spec.h"
#include "plan/sweep_config.h"
#include "plan/sweep_plan.h"

namespace rkv {
namespace {

// ---- golden model

// A 32x8x128 bf16 neox problem with full rotary: q, k, v as views of one fused qkv tensor
// [T, (32 + 2*8) * 128], an nhd cache with one slot per token, per-tensor fp8 scales.
struct GoldenWorkload {
  static constexpr int kHq = 32, kHkv = 8, kD = 128, kBlockSize = 16, kMaxPosition = 4096;
  std::vector<std::uint16_t> qkv, table;
  std::vector<std::int64_t> positions, slots;
  std::vector<unsigned char> k_cache, v_cache;
  float k_scale = 0.7f, v_scale = 1.3f;
  RopeKvArgs args;

  GoldenWorkload(std::int64_t tokens, CacheDType cache) {
    const std::int64_t row = (kHq + 2 * kHkv) * kD;
    qkv.resize(tokens * row);
    for (std::size_t i = 0; i < qkv.size(); ++i)
      qkv[i] = float_to_bf16(static_cast<float>(static_cast<int>(i % 17) - 8) / 4.0f);
    table.resize(kMaxPosition * kD);
    for (int p = 0; p < kMaxPosition; ++p)
      for (int i = 0; i < kD / 2; ++i) {
        const float angle = p * std::pow(10000.0f, -2.0f * i / kD);
        table[p * kD + i] = float_to_bf16(std::cos(angle));
        table[p * kD + kD / 2 + i] = float_to_bf16(std::sin(angle));
      }
    positions.resize(tokens);
    slots.resize(tokens);
    for (std::int64_t t = 0; t < tokens; ++t) {
      positions[t] = (t * 7) % kMaxPosition;
      slots[t] = t;
    }
    const std::int64_t blocks = (tokens + kBlockSize - 1) / kBlockSize;
    const CacheGeometry g =
        make_cache_geometry(*CacheLayout::parse("nhd"), blocks, kBlockSize, kHkv, kD, kD);
    const std::size_t cache_bytes = cache == CacheDType::auto_ ? 2 : 1;
    k_cache.resize(g.elements_per_tensor * cache_bytes);
    v_cache.resize(g.elements_per_tensor * cache_bytes);

    args.num_tokens = args.num_cache_tokens = tokens;
    args.num_q_heads = kHq;
    args.num_kv_heads = kHkv;
    args.q_head_size = args.k_head_size = args.v_head_size = args.rot_dim = kD;
    args.cache_dtype = cache;
    args.positions = positions.data();
    args.cos_sin_cache = table.data();
    args.cos_sin_stride = kD;
    args.max_position = kMaxPosition;
    args.query = {qkv.data(), row, kD};
    args.key = {qkv.data() + kHq * kD, row, kD};
    args.value = {qkv.data() + (kHq + kHkv) * kD, row, kD};
    args.slot_mapping = slots.data();
    args.key_cache = g.key_view(k_cache.data());
    args.value_cache = g.value_view(v_cache.data(), cache_bytes);
    args.block_size = kBlockSize;
    args.num_blocks = blocks;
    args.k_scale = &k_scale;
    args.v_scale = &v_scale;
  }

  // Bytes the op must move per token: q and k read and written, v read, K and V cache entries
  // written, plus the position, the slot and one cos/sin row.
  std::int64_t bytes_per_token() const {
    const std::int64_t cache_bytes = args.cache_dtype == CacheDType::auto_ ? 2 : 1;
    return 2 * (2 * kHq * kD + 2 * kHkv * kD + kHkv * kD) + 2 * kHkv * kD * cache_bytes + 8 + 8 +
           2 * kD;
  }
};

// Arguments: tokens, fp8 (0: auto cache, 1: fp8_e4m3), host threads.
void BM_GoldenRopeKv(benchmark::State& state) {
  const std::int64_t tokens = state.range(0);
  GoldenWorkload w(tokens, state.range(1) ? CacheDType::fp8_e4m3 : CacheDType::auto_);
  const int threads = static_cast<int>(state.range(2));
  for (auto _ : state) {
    golden_rope_kv(w.args, nullptr,
                   threads);  // rotates in place again each time, as a kernel would
    benchmark::DoNotOptimize(w.k_cache.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * tokens);
  state.SetBytesProcessed(state.iterations() * tokens * w.bytes_per_token());
}
BENCHMARK(BM_GoldenRopeKv)
    ->ArgNames({"tokens", "fp8", "threads"})
    ->Args({128, 0, 1})
    ->Args({128, 1, 1})
    ->Args({2048, 0, 1})
    ->Args({2048, 1, 1})
    ->Args({2048, 1, 4})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// ---- planner

#include "host_benchmarks_planner.inc"

}  // namespace
}  // namespace rkv

BENCHMARK_MAIN();
