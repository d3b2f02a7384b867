// From the imported tensor arguments of rope_kv._ext to one rkv::RopeKvArgs: the whole O(1) half of
// the launch contract (presence, one device, dtypes, shapes, strides, no written byte shared with
// another argument, aligned access). None of it touches device memory, so it runs before every
// launch, also while a CUDA graph is being captured; the data-dependent half is launch.h's.
#pragma once

#include <cstdint>
#include <string>

#include "dlpack_tensor.h"
#include "refusal.h"
#include "rope_kv.h"

namespace rkv_ext {

// What run() does once the arguments are checked; the numbers are the module's OP_* constants.
enum class Op : int { check = 0, fused = 1, unfused_pair = 2, rope_inplace = 3, cache_write = 4 };

struct Options {
  bool is_neox = true;
  std::string kv_cache_dtype = "auto";
  rkv::CacheDType cache_dtype = rkv::CacheDType::auto_;
  std::string layout;  // "", "nhd" or "hnd": the order of the cache tensors' dims
  std::int64_t head_size = 0;
  bool write_back_key = true;
  bool pdl = false;
};

// Everything run() needs after the checks: the launch arguments and what the launch must hold.
struct Prepared {
  rkv::RopeKvArgs args;
  int device = 0;
  std::int64_t scale_count = 0;
};

struct Inputs {
  Tensor positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache, k_scale,
      v_scale, query_out;
};

// kv_cache_dtype= as vLLM spells it: "auto", "fp8" (= "fp8_e4m3") or "fp8_e5m2".
Error parse_cache_dtype(const std::string& s, rkv::CacheDType& out);

// Checks `in` for `op` and fills `p`; refuses what the launchers would misread.
Error prepare(Op op, Inputs& in, Options& o, Prepared& p);

}  // namespace rkv_ext
