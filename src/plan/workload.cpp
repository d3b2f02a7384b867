#include "plan/workload.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <tuple>
#include <unordered_set>

#include "host_numeric.h"

namespace rkv {
namespace {

constexpr std::int64_t kMaxPosition = 8192;
constexpr double kRopeBase = 10000.0;
constexpr int kMlaLatent = 512, kMlaRope = 64;

// Streams of the case's seed, one per input, so adding an input never changes another's bytes.
enum class HostStream : std::uint64_t { positions = 11, slots = 12, scales = 13 };

std::mt19937_64 rng_for(const CaseSpec& s, HostStream stream) {
  return std::mt19937_64(s.seed * 1000003ull + static_cast<std::uint64_t>(stream));
}

// cos/sin built as serving engines build it: fp32 inverse frequencies base^(-2i/R), fp32 angles
// p * f_i, then cos and sin, cast to the table's dtype. A sweep asks for the same few tables over
// and over, so they are made once per process.
std::vector<std::uint8_t> cos_sin_table(int rot_dim, DType table, std::int64_t max_position) {
  static std::mutex mutex;
  static std::map<std::tuple<int, DType, std::int64_t>, std::vector<std::uint8_t>> made;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& out = made[{rot_dim, table, max_position}];
  if (!out.empty()) return out;
  const int half = rot_dim / 2;
  out.resize(static_cast<std::size_t>(max_position) * rot_dim * dtype_bytes(table));
  std::vector<float> inv_freq(static_cast<std::size_t>(half));
  for (int i = 0; i < half; ++i)
    inv_freq[i] = static_cast<float>(1.0 / std::pow(kRopeBase, (2.0 * i) / rot_dim));
  for (std::int64_t pos = 0; pos < max_position; ++pos) {
    for (int i = 0; i < half; ++i) {
      const float angle = static_cast<float>(pos) * inv_freq[i];
      store_scalar(table, out.data(), pos * rot_dim + i, std::cos(angle));
      store_scalar(table, out.data(), pos * rot_dim + half + i, std::sin(angle));
    }
  }
  return out;
}

}  // namespace

TensorPlan make_tensor_plan(const CaseSpec& s) {
  TensorPlan p;
  p.spec = s;
  p.tokens = s.tokens;
  p.cache_tokens = s.slots == SlotMode::rope_only ? 0 : s.cache_tokens();
  p.num_q_heads = s.heads.num_q_heads;
  p.num_kv_heads = s.heads.kv_heads();
  p.q_head_size = s.heads.q_head_size();
  p.k_head_size = s.heads.k_head_size();
  p.v_head_size = s.heads.v_head_size();
  p.rot_dim = s.effective_rot_dim();
  p.q_rot_offset = s.heads.mla ? p.q_head_size - kMlaRope : 0;
  p.elem_bytes = dtype_bytes(s.dtype);
  p.cache_elem_bytes = cache_elem_bytes(s.cache_dtype, s.dtype);
  p.cos_sin_elem_bytes = s.cos_sin_fp32 ? 4 : p.elem_bytes;
  p.max_position = kMaxPosition;

  const std::int64_t q_cols = std::int64_t{p.num_q_heads} * p.q_head_size;
  const std::int64_t k_cols = std::int64_t{p.num_kv_heads} * p.k_head_size;
  const std::int64_t v_cols = std::int64_t{p.num_kv_heads} * p.v_head_size;
  p.row_elems = q_cols + k_cols + v_cols;
  p.q_col = 0;
  if (s.heads.mla) {  // [q | kv_c | k_pe], as DeepSeek's kv_a projection emits them
    p.v_col = q_cols;
    p.k_col = q_cols + v_cols;
  } else {
    p.k_col = q_cols;
    p.v_col = q_cols + k_cols;
  }

  // A quarter more slots than cached tokens, so some entries are never targeted and must keep
  // their sentinel bytes; at least one whole spare block.
  p.block_size = s.block_size;
  p.num_blocks = (p.cache_tokens + p.cache_tokens / 4 + s.block_size - 1) / s.block_size + 1;
  if (s.heads.mla) {
    // cache: [num_blocks, block_size, 576], entry = kv_c (V) | k_pe (K)
    const int entry = kMlaLatent + kMlaRope;
    p.cache_tensors = 1;
    p.slot_stride = entry;
    p.block_stride = std::int64_t{entry} * s.block_size;
    p.head_stride = entry;
    p.cache_elems = p.num_blocks * p.block_stride;
    p.v_offset = 0;
    p.k_offset = kMlaLatent;
  } else {
    const CacheGeometry g = make_cache_geometry(s.layout, p.num_blocks, s.block_size,
                                                p.num_kv_heads, p.k_head_size, p.v_head_size);
    p.cache_tensors = g.num_tensors;
    p.block_stride = g.block_stride;
    p.slot_stride = g.slot_stride;
    p.head_stride = g.head_stride;
    p.cache_elems = g.elements_per_tensor;
    p.k_offset = 0;
    p.v_offset = g.value_offset;
  }
  return p;
}

HostInputs make_host_inputs(const TensorPlan& p) {
  const CaseSpec& s = p.spec;
  HostInputs in;

  std::mt19937_64 pos_rng = rng_for(s, HostStream::positions);
  std::uniform_int_distribution<std::int64_t> pos_dist(0, p.max_position - 1);
  in.positions.resize(static_cast<std::size_t>(p.tokens));
  for (auto& x : in.positions)
    x = pos_dist(pos_rng);

  if (p.has_slots()) {
    // Unique slots: the first Tc entries of a partial Fisher-Yates shuffle of all slots.
    std::mt19937_64 slot_rng = rng_for(s, HostStream::slots);
    std::vector<std::int64_t> all(static_cast<std::size_t>(p.num_blocks * p.block_size));
    std::iota(all.begin(), all.end(), 0);
    in.slots.resize(static_cast<std::size_t>(p.cache_tokens));
    for (std::size_t t = 0; t < in.slots.size(); ++t) {
      std::uniform_int_distribution<std::size_t> pick(t, all.size() - 1);
      std::swap(all[t], all[pick(slot_rng)]);
      in.slots[t] = all[t];
    }
    // About 1 in 16 tokens skipped (-1), and always one when there are two or more.
    for (std::size_t t = 0; t < in.slots.size(); ++t)
      if (s.slots == SlotMode::all_invalid || (slot_rng() & 15u) == 0) in.slots[t] = -1;
    if (in.slots.size() >= 2) in.slots[in.slots.size() / 2] = -1;
  }

  if (s.cache_dtype != CacheDType::auto_) {
    if (s.scale == ScaleKind::per_tensor) {
      in.k_scale = {0.7f};
      in.v_scale = {1.3f};
    } else {
      std::mt19937_64 scale_rng = rng_for(s, HostStream::scales);
      std::uniform_real_distribution<float> dist(0.5f, 1.5f);
      for (int h = 0; h < p.num_kv_heads; ++h) {
        in.k_scale.push_back(dist(scale_rng));
        in.v_scale.push_back(dist(scale_rng));
      }
    }
  }

  in.cos_sin = cos_sin_table(p.rot_dim, s.cos_sin_fp32 ? DType::fp32 : s.dtype, p.max_position);
  return in;
}

RopeKvArgs bind_args(const TensorPlan& p, const BufferPointers& b) {
  auto at = [](void* base, std::int64_t elems, std::size_t elem_bytes) -> void* {
    return base == nullptr
               ? nullptr
               : static_cast<char*>(base) + elems * static_cast<std::int64_t>(elem_bytes);
  };
  RopeKvArgs a;
  a.num_tokens = p.tokens;
  a.num_cache_tokens = p.cache_tokens;
  a.num_q_heads = p.num_q_heads;
  a.num_kv_heads = p.num_kv_heads;
  a.q_head_size = p.q_head_size;
  a.k_head_size = p.k_head_size;
  a.v_head_size = p.v_head_size;
  a.rot_dim = p.rot_dim;
  a.q_rot_offset = p.q_rot_offset;
  a.dtype = p.spec.dtype;
  a.cache_dtype = p.spec.cache_dtype;
  a.style = p.spec.style;

  a.positions = b.positions;
  a.cos_sin_cache = b.cos_sin;
  a.cos_sin_fp32 = p.spec.cos_sin_fp32;
  a.cos_sin_stride = p.rot_dim;
  a.max_position = p.max_position;

  a.query = {at(b.qkv, p.q_col, p.elem_bytes), p.row_elems, p.q_head_size};
  if (p.separate_query_out())
    a.query_out = {b.query_out, std::int64_t{p.num_q_heads} * p.q_head_size, p.q_head_size};
  a.key = {at(b.qkv, p.k_col, p.elem_bytes), p.row_elems, p.k_head_size};
  a.value = {at(b.qkv, p.v_col, p.elem_bytes), p.row_elems, p.v_head_size};
  a.write_back_key = p.spec.key_out == KeyOut::writeback;

  if (p.has_slots()) {
    a.slot_mapping = b.slots;
    a.key_cache = {at(b.k_cache, p.k_offset, p.cache_elem_bytes), p.block_stride, p.slot_stride,
                   p.head_stride};
    a.value_cache = {at(b.v_cache, p.v_offset, p.cache_elem_bytes), p.block_stride, p.slot_stride,
                     p.head_stride};
    a.block_size = p.block_size;
    a.num_blocks = p.num_blocks;
    a.k_scale = b.k_scale;
    a.v_scale = b.v_scale;
    a.scale_head_stride = p.spec.scale == ScaleKind::per_head ? 1 : 0;
  }
  return a;
}

BufferPointers input_pointers(const HostInputs& in) {
  BufferPointers b;
  b.positions = in.positions.data();
  b.slots = in.slots.empty() ? nullptr : in.slots.data();
  b.k_scale = in.k_scale.empty() ? nullptr : in.k_scale.data();
  b.v_scale = in.v_scale.empty() ? nullptr : in.v_scale.data();
  b.cos_sin = in.cos_sin.data();
  return b;
}

HostSideInputs host_side(const HostInputs& in) {
  const BufferPointers b = input_pointers(in);
  HostSideInputs h;
  h.positions = b.positions;
  h.slot_mapping = b.slots;
  h.k_scale = b.k_scale;
  h.v_scale = b.v_scale;
  return h;
}

std::int64_t min_bytes_moved(const TensorPlan& p, const HostInputs& in) {
  const std::int64_t e = static_cast<std::int64_t>(p.elem_bytes);
  const std::int64_t ce = static_cast<std::int64_t>(p.cache_elem_bytes);
  const std::int64_t T = p.tokens, Hq = p.num_q_heads, Hkv = p.num_kv_heads, R = p.rot_dim;
  std::int64_t cached = 0;
  for (std::int64_t s : in.slots)
    cached += s >= 0;

  std::int64_t bytes = T * 8;  // positions
  bytes += p.separate_query_out() ? 2 * T * Hq * p.q_head_size * e : 2 * T * Hq * R * e;
  if (p.spec.key_out == KeyOut::writeback)
    bytes += 2 * T * Hkv * R * e + cached * Hkv * (p.k_head_size - R) * e;
  else
    bytes += cached * Hkv * p.k_head_size * e;
  bytes += cached * Hkv * p.v_head_size * e;                     // v read
  bytes += cached * Hkv * (p.k_head_size + p.v_head_size) * ce;  // cache entries written
  bytes += static_cast<std::int64_t>(in.slots.size()) * 8;       // slot ids
  bytes += static_cast<std::int64_t>(in.k_scale.size() + in.v_scale.size()) * 4;
  const std::unordered_set<std::int64_t> rows(in.positions.begin(), in.positions.end());
  bytes +=
      static_cast<std::int64_t>(rows.size()) * R * static_cast<std::int64_t>(p.cos_sin_elem_bytes);
  return bytes;
}

}  // namespace rkv
