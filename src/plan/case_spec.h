// CaseSpec: one point of a sweep, the shared vocabulary of the planner, the workload builder, the
// validator, the timer and the reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plan/cache_layout.h"
#include "rope_kv.h"

namespace rkv {

// "HqxHkvxD" (e.g. 32x8x128), or "mla:Hq" for DeepSeek's MLA shapes (q [T, Hq, 192] with the
// last 64 dims rotated, k_pe [T, 64], kv_c [Tc, 512], cache entry 576 = kv_c | k_pe).
struct HeadConfig {
  int num_q_heads = 32;
  int num_kv_heads = 8;
  int head_size = 128;
  bool mla = false;

  std::string name() const;
  // Parses without judging: 32x7x128 parses, and `problem()` says why it is impossible.
  static std::optional<HeadConfig> parse(const std::string& text);
  std::optional<std::string> problem() const;  // nullopt when the config is possible

  int q_head_size() const { return mla ? 192 : head_size; }
  int k_head_size() const { return mla ? 64 : head_size; }
  int v_head_size() const { return mla ? 512 : head_size; }
  int kv_heads() const { return mla ? 1 : num_kv_heads; }
  bool operator==(const HeadConfig& o) const {
    return num_q_heads == o.num_q_heads && num_kv_heads == o.num_kv_heads &&
           head_size == o.head_size && mla == o.mla;
  }
};

// Which tokens get a cache slot.
enum class SlotMode : std::uint8_t {
  mixed,   // Tc = T, unique slots, about 1 in 16 tokens (and always at least one when T > 1) -1
  padded,  // T > Tc (CUDA-graph padding): Tc = T - max(1, T/4) when T > 1, slots as mixed
  all_invalid,  // every slot -1: nothing may be written
  rope_only,    // no slot mapping at all
};
enum class ScaleKind : std::uint8_t { per_tensor, per_head };
enum class QueryOut : std::uint8_t { inplace, separate };
enum class KeyOut : std::uint8_t { writeback, cache_only };
// q/k/v inputs: seeded values within +-600, or the same with NaN, +-Inf, +-0, subnormals and the
// largest finite values planted (the edge-case contract of docs/design.md).
enum class FillValues : std::uint8_t { seeded, specials };
// Largest `misalign` byte offset; 16 bytes is the widest access, so larger offsets repeat these.
inline constexpr int kMaxMisalign = 15;

struct CaseSpec {
  DType dtype = DType::bf16;
  CacheDType cache_dtype = CacheDType::auto_;
  HeadConfig heads;
  RopeStyle style = RopeStyle::neox;
  int rot_dim = 0;  // 0 = full rotary (R = the rotated head's size; 64 for MLA)
  CacheLayout layout;
  std::int64_t tokens = 1;
  int block_size = 16;
  ScaleKind scale = ScaleKind::per_tensor;
  SlotMode slots = SlotMode::mixed;
  QueryOut query_out = QueryOut::inplace;
  KeyOut key_out = KeyOut::writeback;
  bool cos_sin_fp32 = false;
  std::uint64_t seed = 0;
  // Bytes added to the base pointers of qkv, query_out and the caches (0: the allocator's
  // 2 MiB alignment), so the kernels must take their narrower accesses (or refuse).
  int misalign = 0;
  FillValues values = FillValues::seeded;

  int effective_rot_dim() const {
    return rot_dim != 0 ? rot_dim : (heads.mla ? 64 : heads.head_size);
  }
  std::int64_t cache_tokens() const;  // Tc for this slot mode

  // The stable id used in tables, JSON, NVTX ranges and --case:
  // bf16|fp8_e4m3|32x8x128|neox|nhd|N=128 plus `|key=value` for each non-default option.
  std::string id() const;
  static std::optional<CaseSpec> parse_id(const std::string& id, std::string* error);
  // The command line that reruns exactly this case.
  std::string repro_args() const;
};

// Text names of the enums (the CLI, the JSON and the tables all use these).
std::string to_string(DType v);
std::string to_string(CacheDType v);
std::string to_string(RopeStyle v);
std::string to_string(SlotMode v);
std::string to_string(ScaleKind v);
std::string to_string(QueryOut v);
std::string to_string(KeyOut v);
std::string to_string(FillValues v);
std::optional<DType> parse_dtype(const std::string& s);
std::optional<CacheDType> parse_cache_dtype(
    const std::string& s);  // "auto", "fp8_e4m3", "fp8" (= e4m3), "fp8_e5m2"
std::optional<RopeStyle> parse_style(const std::string& s);  // "neox", "gptj"
std::optional<SlotMode> parse_slot_mode(const std::string& s);
std::optional<ScaleKind> parse_scale_kind(const std::string& s);  // "tensor", "head"
std::optional<QueryOut> parse_query_out(const std::string& s);
std::optional<KeyOut> parse_key_out(const std::string& s);
std::optional<FillValues> parse_fill_values(const std::string& s);

}  // namespace rkv
