#include "work_plan.h"

#include <cstddef>
#include <numeric>

namespace rkv {
namespace {

bool aligned(const void* p, std::size_t bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

bool head_tensor_fits(const HeadTensor& t, int vec, std::size_t elem) {
  if (t.data == nullptr) return true;
  return aligned(t.data, vec * elem) && t.token_stride % vec == 0 && t.head_stride % vec == 0;
}

bool cache_tensor_fits(const CacheTensor& c, int vec, std::size_t elem) {
  if (c.data == nullptr) return true;
  return aligned(c.data, vec * elem) && c.block_stride % vec == 0 && c.slot_stride % vec == 0 &&
         c.head_stride % vec == 0;
}

// A divider for a unit count; 0 (unusable) where the count is not in 1..2^31-1.
FastDivmod unit_divider(std::int64_t d) {
  return FastDivmod(d > 0 && d <= 0x7fffffff ? static_cast<std::uint32_t>(d) : 0);
}

}  // namespace

bool vector_width_fits(const RopeKvArgs& a, int vec) {
  const std::size_t elem = dtype_bytes(a.dtype);
  if (vec < 2 || vec * elem > 16) return false;
  const int half = a.rot_dim / 2;
  // Rotation window: neox chunks must not straddle the x/y halves, gptj chunks hold whole pairs.
  const int window = a.style == RopeStyle::neox ? half : a.rot_dim;
  if (window % vec != 0 || a.q_rot_offset % vec != 0) return false;
  if (a.q_head_size % vec != 0 || a.k_head_size % vec != 0 || a.v_head_size % vec != 0)
    return false;
  if (!head_tensor_fits(a.query, vec, elem) || !head_tensor_fits(a.query_out, vec, elem) ||
      !head_tensor_fits(a.key, vec, elem) || !head_tensor_fits(a.value, vec, elem))
    return false;
  const std::size_t cache_elem = cache_elem_bytes(a.cache_dtype, a.dtype);
  if (writes_cache(a) && (!cache_tensor_fits(a.key_cache, vec, cache_elem) ||
                          !cache_tensor_fits(a.value_cache, vec, cache_elem)))
    return false;
  // cos/sin: each unit reads `per_unit` entries at multiples of per_unit, from the row start and
  // from R/2; the access is min(16, per_unit * entry) bytes wide.
  const int per_unit = a.style == RopeStyle::neox ? vec : vec / 2;
  const std::size_t cs_elem = a.cos_sin_fp32 ? 4 : elem;
  std::size_t access = per_unit * cs_elem;
  if (access > 16) access = 16;
  return aligned(a.cos_sin_cache, access) && (a.cos_sin_stride * cs_elem) % access == 0 &&
         (half * cs_elem) % access == 0;
}

int rope_kv_vector_elems(const RopeKvArgs& a) {
  for (int vec = 8; vec >= 2; vec /= 2)
    if (vector_width_fits(a, vec)) return vec;
  return 0;
}

WorkPlan make_fused_plan(const RopeKvArgs& a, int vec, int copy_chunks, int rot_vec) {
  WorkPlan p;
  p.vec = vec;
  const bool cache = writes_cache(a);
  const int rv = rot_vec > 0 ? rot_vec : vec;
  p.q_rot = rotation_units(a, rv);
  p.q_pass = a.query_out.data != nullptr ? (a.q_head_size - a.rot_dim) / vec : 0;
  if (a.write_back_key || cache) {
    p.k_rot = rotation_units(a, rv);
    p.k_pass = cache ? (a.k_head_size - a.rot_dim) / vec : 0;
  }
  p.v_units = cache ? a.v_head_size / vec : 0;
  p.k_pass /= copy_chunks;
  p.v_units /= copy_chunks;
  p.q_units = p.q_rot + p.q_pass;
  p.k_units = p.k_rot + p.k_pass;
  p.q_end = std::int64_t{a.num_q_heads} * p.q_units;
  p.k_end = p.q_end + std::int64_t{a.num_kv_heads} * p.k_units;
  p.units_per_token = p.k_end + std::int64_t{a.num_kv_heads} * p.v_units;
  p.per_token = unit_divider(p.units_per_token);
  p.per_q_row = unit_divider(p.q_units);
  p.per_k_row = unit_divider(p.k_units);
  p.per_v_row = unit_divider(p.v_units);
  p.per_block = unit_divider(a.block_size);
  return p;
}

RoleMajorSplit make_role_major_split(const RopeKvArgs& a, const WorkPlan& p, bool pad_always) {
  RoleMajorSplit r;
  r.q_rot_end = std::int64_t{a.num_q_heads} * p.q_rot;
  r.k_rot_end = p.q_end + std::int64_t{a.num_kv_heads} * p.k_rot;
  r.per_q_rot = unit_divider(p.q_rot);
  r.per_q_pass = unit_divider(p.q_pass);
  r.per_k_rot = unit_divider(p.k_rot);
  r.per_k_pass = unit_divider(p.k_pass);
  // Warp-aligned segments where a token's units are not whole warps (every token boundary then
  // falls inside a warp, whose lanes mix one token's v copies with the next one's q rotations)
  // and padding costs at most a quarter more threads.
  const std::int64_t lens[5] = {r.q_rot_end, p.q_end - r.q_rot_end, r.k_rot_end - p.q_end,
                                p.k_end - r.k_rot_end, p.units_per_token - p.k_end};
  std::int64_t padded = 0;
  for (int i = 0; i < 5; ++i) {
    r.seg_start[i] = static_cast<int>(padded);
    r.seg_len[i] = static_cast<int>(lens[i]);
    padded += (lens[i] + 31) / 32 * 32;
  }
  if (padded > p.units_per_token &&
      (pad_always || (p.units_per_token % 32 != 0 && 4 * padded <= 5 * p.units_per_token))) {
    r.padded_units_per_token = padded;
    r.per_padded_token = unit_divider(padded);
  }
  return r;
}

PhaseSplit make_phase_split(const RopeKvArgs& a, const WorkPlan& p) {
  PhaseSplit s;
  s.q_end = static_cast<std::uint32_t>(p.q_end);
  s.k_end = static_cast<std::uint32_t>(p.k_end);
  s.q_total = static_cast<std::uint32_t>(a.num_tokens * p.q_end);
  s.k_total = static_cast<std::uint32_t>(a.num_tokens * p.k_end);
  s.per_q = FastDivmod(static_cast<std::uint32_t>(p.q_end));
  s.per_k = FastDivmod(static_cast<std::uint32_t>(p.k_end - p.q_end));
  s.per_v = FastDivmod(static_cast<std::uint32_t>(p.units_per_token - p.k_end));
  return s;
}

bool row_warp_layout(const RopeKvArgs& a, const WorkPlan& p) {
  if (a.style != RopeStyle::neox || mla_layout(a) || a.cos_sin_fp32 || p.vec == 0) return false;
  if (p.q_pass != 0 || p.k_pass != 0 || a.rot_dim != a.q_head_size) return false;
  const int chunks = a.rot_dim / p.vec;
  return chunks >= 2 && chunks <= 32;
}

RowWarpPlan make_row_warp_plan(const RopeKvArgs& a, const WorkPlan& p) {
  RowWarpPlan r;
  r.chunks = a.rot_dim / p.vec;
  r.rows_per_warp = 32 / r.chunks;
  const auto warps = [&](std::int64_t rows) {
    return static_cast<int>((rows + r.rows_per_warp - 1) / r.rows_per_warp);
  };
  r.q_warps = warps(a.num_q_heads);
  r.k_warps = p.k_rot > 0 ? warps(a.num_kv_heads) : 0;
  r.v_warps = static_cast<int>((std::int64_t{a.num_kv_heads} * p.v_units + 31) / 32);
  r.lanes_per_token = 32 * std::int64_t{r.q_warps + r.k_warps + r.v_warps};
  r.per_token = unit_divider(r.lanes_per_token);
  r.per_row = unit_divider(r.chunks);
  return r;
}

std::int64_t strided_grid_ctas(std::int64_t resident, std::int64_t units_per_token,
                               int threads_per_cta) {
  if (resident <= 0 || units_per_token <= 0 || threads_per_cta <= 0) return resident;
  const std::int64_t threads = threads_per_cta;
  // The fewest shared factors any CTA count can give: those of one CTA's threads.
  const std::int64_t least = std::gcd(threads, units_per_token);
  for (std::int64_t ctas = resident; ctas > 0 && ctas >= resident - resident / 16; --ctas)
    if (std::gcd(ctas * threads, units_per_token) == least) return ctas;
  return resident;
}

}  // namespace rkv
