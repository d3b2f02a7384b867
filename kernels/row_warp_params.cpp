#include "row_warp_params.h"

#include "fits.h"

namespace rkv {
namespace {

// `data` moved by `elems` elements of `bytes` bytes (q's rotation offset).
const void* offset_by(const void* data, std::int64_t elems, std::size_t bytes) {
  return data == nullptr ? nullptr : static_cast<const char*>(data) + elems * std::int64_t(bytes);
}

void set_cache(RowWarpRole& role, const CacheTensor& c, const WorkPlan& p) {
  role.cache = c.data;
  role.cache_block_stride = c.block_stride;
  role.cache_slot_stride = c.slot_stride;
  role.cache_head_stride = static_cast<std::int32_t>(c.head_stride);
  role.per_block = p.per_block;
}

}  // namespace

bool row_warp_params_fit(const RopeKvArgs& a, const RowWarpPlan& r) {
  using I32 = std::int32_t;
  return fits_in<std::uint16_t>(std::int64_t{r.q_warps} + r.k_warps) &&
         fits_in<I32>(a.query.head_stride) && fits_in<I32>(a.query_out.head_stride) &&
         fits_in<I32>(a.key.head_stride) && fits_in<I32>(a.value.head_stride) &&
         fits_in<I32>(a.key_cache.head_stride) && fits_in<I32>(a.value_cache.head_stride) &&
         fits_in<I32>(a.num_cache_tokens);
}

void make_row_warp_params(const RopeKvArgs& a, const WorkPlan& p, const RowWarpPlan& r,
                          std::int64_t lanes, RowWarpHead& head, RowWarpRoles& roles) {
  const std::size_t bytes = dtype_bytes(a.dtype);
  const bool caching = writes_cache(a);
  head = RowWarpHead{};
  head.positions = a.positions;
  head.slot_mapping = caching ? a.slot_mapping : nullptr;
  head.total_lanes = static_cast<std::uint32_t>(lanes);
  head.per_token = r.per_token;
  head.q_warps = static_cast<std::uint16_t>(r.q_warps);
  head.qk_warps = static_cast<std::uint16_t>(r.q_warps + r.k_warps);
  head.num_cache_tokens = static_cast<std::int32_t>(a.num_cache_tokens);
  head.scale_head_stride = a.scale_head_stride;

  roles = RowWarpRoles{};
  RowWarpRole& q = roles.role[0];
  q.src = offset_by(a.query.data, a.q_rot_offset, bytes);
  q.src_token_stride = a.query.token_stride;
  q.src_head_stride = static_cast<std::int32_t>(a.query.head_stride);
  q.cos_sin = a.cos_sin_cache;
  q.cos_sin_stride = a.cos_sin_stride;
  q.per_row = r.per_row;
  q.rows = a.num_q_heads;
  const HeadTensor& q_out = a.query_out.data != nullptr ? a.query_out : a.query;
  q.out = const_cast<void*>(offset_by(q_out.data, a.q_rot_offset, bytes));
  q.out_token_stride = q_out.token_stride;
  q.out_head_stride = static_cast<std::int32_t>(q_out.head_stride);

  RowWarpRole& k = roles.role[1];
  k.src = a.key.data;
  k.src_token_stride = a.key.token_stride;
  k.src_head_stride = static_cast<std::int32_t>(a.key.head_stride);
  k.cos_sin = a.cos_sin_cache;
  k.cos_sin_stride = a.cos_sin_stride;
  // The lanes read a scale wherever it is set, whatever the slot (so that its load does not wait
  // for the slot's): set only where the cache is written, since RoPE-only calls may pass none.
  const bool scaled = caching && a.cache_dtype != CacheDType::auto_;
  k.scale = scaled ? a.k_scale : nullptr;
  k.per_row = r.per_row;
  k.rows = a.num_kv_heads;
  k.out = a.write_back_key ? a.key.data : nullptr;
  k.out_token_stride = a.key.token_stride;
  k.out_head_stride = static_cast<std::int32_t>(a.key.head_stride);
  if (caching) set_cache(k, a.key_cache, p);

  RowWarpRole& v = roles.role[2];
  v.src = a.value.data;
  v.src_token_stride = a.value.token_stride;
  v.src_head_stride = static_cast<std::int32_t>(a.value.head_stride);
  v.scale = scaled ? a.v_scale : nullptr;
  v.per_row = p.per_v_row;
  v.rows = a.num_kv_heads * p.v_units;
  if (caching) set_cache(v, a.value_cache, p);
}

}  // namespace rkv
