#include "decode_role_params.h"

#include <initializer_list>

#include "fits.h"

namespace rkv {
namespace {

void set_rows(DecodeRole& r, const HeadTensor& src, const HeadTensor* out) {
  r.src = src.data;
  r.src_token_stride = src.token_stride;
  r.src_head_stride = static_cast<std::int32_t>(src.head_stride);
  if (out != nullptr) {
    r.out = out->data;
    r.out_token_stride = out->token_stride;
    r.out_head_stride = static_cast<std::int32_t>(out->head_stride);
  }
}

void set_cache(DecodeRole& r, const CacheTensor& c, const WorkPlan& p, const float* scale) {
  r.cache = c.data;
  r.cache_block_stride = c.block_stride;
  r.cache_slot_stride = c.slot_stride;
  r.cache_head_stride = static_cast<std::int32_t>(c.head_stride);
  r.per_block = p.per_block;
  r.scale = scale;
}

void set_table(DecodeRole& r, const RopeKvArgs& a) {
  r.cos_sin = a.cos_sin_cache;
  r.cos_sin_stride = a.cos_sin_stride;
  r.cos_sin_fp32 = a.cos_sin_fp32 ? 1 : 0;
}

}  // namespace

bool decode_role_params_fit(const RopeKvArgs& a, const WorkPlan& p, const RoleMajorSplit& s) {
  using I32 = std::int32_t;
  using U16 = std::uint16_t;
  return fits_in<I32>(a.query.head_stride) && fits_in<I32>(a.query_out.head_stride) &&
         fits_in<I32>(a.key.head_stride) && fits_in<I32>(a.value.head_stride) &&
         fits_in<I32>(a.key_cache.head_stride) && fits_in<I32>(a.value_cache.head_stride) &&
         fits_in<I32>(a.num_cache_tokens) && fits_in<U16>(launched_units_per_token(p, s, true)) &&
         fits_in<U16>(a.rot_dim) && fits_in<U16>(a.q_rot_offset);
}

void make_decode_role_params(const RopeKvArgs& a, const WorkPlan& p, const RoleMajorSplit& s,
                             std::int64_t lanes, DecodeRoleHead& head, DecodeRoles& roles) {
  const bool caching = writes_cache(a);
  head = DecodeRoleHead{};
  head.positions = a.positions;
  head.slot_mapping = caching ? a.slot_mapping : nullptr;
  head.total_lanes = static_cast<std::uint32_t>(lanes);
  head.per_token = s.padded_units_per_token > 0 ? s.per_padded_token : p.per_token;
  // seg_start is each segment's first lane whether or not the split pads: an unpadded split is
  // one whose segments are whole warps already.
  for (int i = 1; i < 5; ++i)
    head.segment_start[i - 1] = static_cast<std::uint16_t>(s.seg_start[i]);
  head.num_cache_tokens = static_cast<std::int32_t>(a.num_cache_tokens);
  head.scale_head_stride = a.scale_head_stride;

  // The lanes read a scale wherever it is set, whatever the slot (so that its load does not wait
  // for the slot's): set only where the cache is written, since RoPE-only calls may pass none.
  const bool scaled = caching && a.cache_dtype != CacheDType::auto_;
  const HeadTensor& q_out = a.query_out.data != nullptr ? a.query_out : a.query;
  roles = DecodeRoles{};
  const FastDivmod per_row[5] = {s.per_q_rot, s.per_q_pass, s.per_k_rot, s.per_k_pass, p.per_v_row};
  for (int i = 0; i < 5; ++i) {
    DecodeRole& r = roles.segment[i];
    r.per_row = per_row[i];
    r.units = s.seg_len[i];
    r.rot_dim = static_cast<std::uint16_t>(a.rot_dim);
  }
  for (int i : {q_rotation, q_passthrough}) {
    set_rows(roles.segment[i], a.query, &q_out);
    roles.segment[i].rot_offset = static_cast<std::uint16_t>(a.q_rot_offset);
  }
  set_table(roles.segment[q_rotation], a);
  set_rows(roles.segment[k_rotation], a.key, a.write_back_key ? &a.key : nullptr);
  set_table(roles.segment[k_rotation], a);
  set_rows(roles.segment[k_passthrough], a.key, nullptr);
  set_rows(roles.segment[v_copy], a.value, nullptr);
  if (caching) {
    for (int i : {k_rotation, k_passthrough})
      set_cache(roles.segment[i], a.key_cache, p, scaled ? a.k_scale : nullptr);
    set_cache(roles.segment[v_copy], a.value_cache, p, scaled ? a.v_scale : nullptr);
  }
}

}  // namespace rkv
