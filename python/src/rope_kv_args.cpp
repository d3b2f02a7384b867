// The argument checks of rope_kv_args.h, in the order the messages are reported: presence first,
// then devices, q/k/v, positions, the cos/sin table, the cache, and last memory (memory_checks.h).
#include "rope_kv_args.h"

#include <cstdint>
#include <string>

#include "memory_checks.h"
#include "tensor_views.h"

namespace rkv_ext {

namespace {

// PDL lives in one place: rope_kv.h defines RKV_HAS_PDL where RopeKvArgs has the field.
Error set_pdl(rkv::RopeKvArgs& a, bool pdl) {
#ifdef RKV_HAS_PDL
  a.programmatic_dependent_launch = pdl;
#else
  (void)a;
  if (pdl)
    return value_error(
        "pdl: this build of the kernel library has no programmatic dependent launch");
#endif
  return {};
}

const char* cache_dtype_text(rkv::CacheDType c) {
  return c == rkv::CacheDType::fp8_e4m3 ? "float8_e4m3fn" : "float8_e5m2";
}

// The paged-cache half of prepare(), where slot_mapping is given: value, slot_mapping, both caches
// and the fp8 scales; q and k are the views prepare() made.
Error prepare_caches(const Inputs& in, const Options& o, const Heads& q, const Heads& k,
                     Prepared& p) {
  rkv::RopeKvArgs& a = p.args;
  RKV_TRY(require_int64_vector(in.slot_mapping, "[num_cache_tokens], int64"));
  const std::int64_t tc = in.slot_mapping.shape[0];
  if (tc > q.tokens)
    return value_error("slot_mapping: ", tc, " slots for ", q.tokens,
                       " tokens; expected at most one per token");
  RKV_TRY(require_dtype_like(in.value, in.query));
  Heads v;
  RKV_TRY(head_view(in.value, o.head_size,
                    "[num_tokens, num_kv_heads, head_size] or [num_tokens, "
                    "num_kv_heads * head_size] with head_size=",
                    v));
  if (v.heads != k.heads)
    return value_error("value: expected ", k.heads, " heads (those of key), got shape ",
                       shape_text(in.value.shape));
  if (v.tokens < tc)
    return value_error("value: expected at least ", tc,
                       " tokens (the length of slot_mapping), got "
                       "shape ",
                       shape_text(in.value.shape));
  a.v_head_size = static_cast<std::int32_t>(v.dim);
  a.value = v.view;
  a.num_cache_tokens = tc;
  a.slot_mapping = static_cast<const std::int64_t*>(in.slot_mapping.data);

  // Cache dtype: the q/k/v dtype for "auto", one byte (uint8 or the matching float8) for fp8.
  for (const Tensor* t : {&in.key_cache, &in.value_cache}) {
    if (a.cache_dtype == rkv::CacheDType::auto_) {
      if (t->code != in.query.code || t->bits != in.query.bits)
        return type_error(t->name, ": expected dtype ", in.query.dtype(),
                          " (kv_cache_dtype='auto' stores the dtype of query), got ", t->dtype());
    } else {
      const std::uint8_t fp8 =
          a.cache_dtype == rkv::CacheDType::fp8_e4m3 ? kFloat8E4M3FN : kFloat8E5M2;
      if (!t->is(kUInt, 8) && !t->is(fp8, 8))
        return type_error(t->name, ": expected dtype uint8 or ", cache_dtype_text(a.cache_dtype),
                          " for kv_cache_dtype='", o.kv_cache_dtype, "', got ", t->dtype());
    }
  }
  std::string layout = o.layout;
  Cache kc, vc;
  RKV_TRY(cache_view(in.key_cache, k.heads, k.dim, layout, kc));
  RKV_TRY(cache_view(in.value_cache, k.heads, v.dim, layout, vc));
  if (vc.blocks != kc.blocks || vc.block_size != kc.block_size)
    return value_error("value_cache: expected ", kc.blocks, " blocks of ", kc.block_size,
                       " slots (those of key_cache), got shape ", shape_text(in.value_cache.shape));
  if (kc.blocks > 0x7fffffffLL / kc.block_size)
    return value_error("key_cache: ", kc.blocks, " blocks of ", kc.block_size,
                       " slots; at most 2^31 - 1 slots are supported");
  a.key_cache = kc.view;
  a.value_cache = vc.view;
  a.block_size = static_cast<std::int32_t>(kc.block_size);
  a.num_blocks = kc.blocks;

  // fp8 scales: float32, one per tensor or one per KV head, the same for K and V.
  if (a.cache_dtype != rkv::CacheDType::auto_) {
    std::int64_t counts[2] = {0, 0};
    int i = 0;
    for (const Tensor* t : {&in.k_scale, &in.v_scale}) {
      if (!t->given)
        return value_error(t->name, ": kv_cache_dtype='", o.kv_cache_dtype,
                           "' needs a float32 CUDA tensor of 1 or num_kv_heads = ", k.heads,
                           " scales, got None");
      if (!t->is(kFloat, 32))
        return type_error(t->name, ": expected dtype float32, got ", t->dtype());
      std::int64_t n = 1;
      for (std::int64_t d : t->shape)
        n *= d;
      if (t->ndim() > 1 || (n != 1 && n != k.heads))
        return value_error(t->name, ": expected shape [], [1] or [", k.heads,
                           "] (one scale, or one per KV head), got ", shape_text(t->shape));
      RKV_TRY(require_inner_contiguous(*t, "scale"));
      counts[i++] = n;
    }
    if (counts[0] != counts[1])
      return value_error("v_scale: expected ", counts[0], " scale(s) like k_scale, got ",
                         counts[1]);
    a.k_scale = static_cast<const float*>(in.k_scale.data);
    a.v_scale = static_cast<const float*>(in.v_scale.data);
    a.scale_head_stride = counts[0] > 1 ? 1 : 0;
    p.scale_count = counts[0];
  }
  return {};
}

}  // namespace

Error parse_cache_dtype(const std::string& s, rkv::CacheDType& out) {
  if (s == "auto")
    out = rkv::CacheDType::auto_;
  else if (s == "fp8" || s == "fp8_e4m3")
    out = rkv::CacheDType::fp8_e4m3;
  else if (s == "fp8_e5m2")
    out = rkv::CacheDType::fp8_e5m2;
  else
    return value_error("kv_cache_dtype: expected 'auto', 'fp8', 'fp8_e4m3' or 'fp8_e5m2', got '", s,
                       "'");
  return {};
}

Error prepare(Op op, Inputs& in, Options& o, Prepared& p) {
  rkv::RopeKvArgs& a = p.args;
  const bool caches = in.slot_mapping.given;

  // Presence first, so "missing" is reported before anything about the others.
  RKV_TRY(require_given(in.positions, "positions [num_tokens], int64"));
  RKV_TRY(require_given(in.query, "query [num_tokens, num_heads, head_size]"));
  RKV_TRY(require_given(in.key, "key [num_tokens, num_kv_heads, head_size]"));
  RKV_TRY(require_given(in.cos_sin_cache, "cos_sin_cache [max_position, rot_dim]"));
  if (caches) {
    RKV_TRY(require_given(in.value, "value is cached wherever slot_mapping is given"));
    RKV_TRY(require_given(in.key_cache, "slot_mapping is given"));
    RKV_TRY(require_given(in.value_cache, "slot_mapping is given"));
  } else {
    for (const Tensor* t : {&in.value, &in.key_cache, &in.value_cache})
      if (t->given)
        return value_error(t->name,
                           ": given without slot_mapping; pass slot_mapping to write the cache, "
                           "or None for value, key_cache and value_cache to rotate only");
  }
  if (!o.write_back_key && op != Op::fused && op != Op::check)
    return value_error(
        "write_back_key: the unfused kernels always write the rotated key back; "
        "write_back_key=False is the fused kernel's alone");

  // One device for everything.
  p.device = in.query.device_id;
  for (const Tensor* t : {&in.positions, &in.key, &in.value, &in.cos_sin_cache, &in.slot_mapping,
                          &in.key_cache, &in.value_cache, &in.k_scale, &in.v_scale, &in.query_out})
    if (t->given && t->device_id != p.device)
      return value_error(t->name, ": expected CUDA device ", p.device,
                         " (that of query), got device ", t->device_id);

  // q/k/v dtype and views.
  if (in.query.is(kBfloat, 16))
    a.dtype = rkv::DType::bf16;
  else if (in.query.is(kFloat, 16))
    a.dtype = rkv::DType::fp16;
  else if (in.query.is(kFloat, 32))
    a.dtype = rkv::DType::fp32;
  else
    return type_error("query: expected dtype bfloat16, float16 or float32, got ", in.query.dtype());
  Heads q;
  RKV_TRY(head_view(in.query, o.head_size,
                    "[num_tokens, num_heads, head_size] or [num_tokens, num_heads * "
                    "head_size] with head_size=",
                    q));
  RKV_TRY(require_dtype_like(in.key, in.query));
  Heads k;
  RKV_TRY(head_view(in.key, o.head_size,
                    "[num_tokens, num_kv_heads, head_size] or [num_tokens, num_kv_heads "
                    "* head_size] with head_size=",
                    k));
  if (k.tokens != q.tokens)
    return value_error("key: expected ", q.tokens, " tokens (those of query), got shape ",
                       shape_text(in.key.shape));
  if (q.heads % k.heads != 0)
    return value_error("key: query's ", q.heads, " heads are not a multiple of key's ", k.heads,
                       " heads");
  Heads qo;
  if (in.query_out.given) {
    RKV_TRY(require_dtype_like(in.query_out, in.query));
    RKV_TRY(head_view(in.query_out, o.head_size, "the shape of query", qo));
    if (qo.tokens != q.tokens || qo.heads != q.heads || qo.dim != q.dim)
      return value_error("query_out: expected the shape of query [", q.tokens, ", ", q.heads, ", ",
                         q.dim, "], got shape ", shape_text(in.query_out.shape));
  }

  RKV_TRY(require_int64_vector(in.positions, "[num_tokens], int64"));
  if (in.positions.shape[0] != q.tokens)
    return value_error("positions: expected shape [", q.tokens, "] (num_tokens of query), got ",
                       shape_text(in.positions.shape));

  // cos/sin table: [max_position, rot_dim], cos then sin in each row.
  const Tensor& cs = in.cos_sin_cache;
  if (!cs.is(kFloat, 32) && !(cs.code == in.query.code && cs.bits == in.query.bits))
    return type_error("cos_sin_cache: expected dtype float32 or ", in.query.dtype(),
                      " (that of query), got ", cs.dtype());
  if (cs.ndim() != 2)
    return value_error("cos_sin_cache: expected [max_position, rot_dim], got shape ",
                       shape_text(cs.shape));
  RKV_TRY(require_inner_contiguous(cs, "rot_dim"));
  const std::int64_t rot = cs.shape[1];
  if (rot <= 0 || rot % 2 != 0)
    return value_error("cos_sin_cache: rot_dim = shape[1] = ", rot, " must be even and positive");
  if (rot > q.dim || rot > k.dim)
    return value_error("cos_sin_cache: rot_dim = shape[1] = ", rot,
                       " exceeds the head size (query ", q.dim, ", key ", k.dim, ")");
  if (cs.shape[0] <= 0) return value_error("cos_sin_cache: has no rows (max_position = 0)");

  a.num_tokens = q.tokens;
  a.num_q_heads = static_cast<std::int32_t>(q.heads);
  a.num_kv_heads = static_cast<std::int32_t>(k.heads);
  a.q_head_size = static_cast<std::int32_t>(q.dim);
  a.k_head_size = static_cast<std::int32_t>(k.dim);
  a.v_head_size = a.k_head_size;
  a.rot_dim = static_cast<std::int32_t>(rot);
  a.q_rot_offset = 0;
  a.style = o.is_neox ? rkv::RopeStyle::neox : rkv::RopeStyle::gptj;
  a.positions = static_cast<const std::int64_t*>(in.positions.data);
  a.cos_sin_cache = cs.data;
  a.cos_sin_fp32 = cs.is(kFloat, 32);
  a.cos_sin_stride = cs.shape[0] > 1 ? cs.strides[0] : rot;
  if (a.cos_sin_stride < rot)
    return value_error("cos_sin_cache: row stride ", a.cos_sin_stride, " is shorter than rot_dim ",
                       rot);
  a.max_position = cs.shape[0];
  a.query = q.view;
  a.query_out = qo.view;
  a.key = k.view;
  a.write_back_key = o.write_back_key;
  RKV_TRY(set_pdl(a, o.pdl));

  a.cache_dtype = o.cache_dtype;

  if (caches) RKV_TRY(prepare_caches(in, o, q, k, p));
  RKV_TRY(refuse_overlaps(in, p));
  return refuse_misaligned(in, p.args);
}

}  // namespace rkv_ext
