// Device building blocks shared by the fused kernel and the unfused reference pair: vector
// loads/stores, the exact fp32 rotation, and the cache-dtype conversion. Numerics live here once
// so that "bit-exact" means one formula, checked three ways against the host golden model.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fp32_quotient.h"
#include "rope_kv.h"

namespace rkv::detail {

// ---- element types

template <DType D>
struct ScalarOf;
template <>
struct ScalarOf<DType::bf16> {
  using type = __nv_bfloat16;
};
template <>
struct ScalarOf<DType::fp16> {
  using type = __half;
};
template <>
struct ScalarOf<DType::fp32> {
  using type = float;
};

__device__ __forceinline__ float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ __forceinline__ float to_float(__half x) {
  return __half2float(x);
}
__device__ __forceinline__ float to_float(float x) {
  return x;
}

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <>
__device__ __forceinline__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __forceinline__ float from_float<float>(float x) {
  return x;
}

// ---- vectors: N elements moved by one access of up to 16 bytes (two when N*sizeof(T) is 32)

constexpr int vec_align(int bytes) {
  return bytes < 16 ? bytes : 16;
}

template <typename T, int N>
struct alignas(vec_align(sizeof(T) * N)) Vec {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ Vec<T, N> load_vec(const T* p) {
  return *reinterpret_cast<const Vec<T, N>*>(p);
}
template <typename T, int N>
__device__ __forceinline__ void store_vec(T* p, const Vec<T, N>& v) {
  *reinterpret_cast<Vec<T, N>*>(p) = v;
}

// A bf16 chunk's elements as floats, read from its 32-bit words: the low element is the word
// shifted up, the high one the word with its low half cleared, both exactly the bf16 value.
// One instruction an element from the packed register, as fp16's HADD2.F32 is; converting
// element by element first extracts each high half into a register of its own (a PRMT), which
// cost the token-warp kernels 16-19 registers and a CTA a SM (round 31).
template <int N>
__device__ __forceinline__ void bf16_chunk_floats(const Vec<__nv_bfloat16, N>& v, float (&out)[N]) {
  static_assert(N % 2 == 0, "bf16 chunks are read in pairs");
  std::uint32_t w[N / 2];
  memcpy(w, &v, sizeof(w));
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    out[2 * i] = __uint_as_float(w[i] << 16);
    out[2 * i + 1] = __uint_as_float(w[i] & 0xffff0000u);
  }
}

// Whether a kernel reads T chunks by their words (bf16_chunk_floats): the token-warp kernels'
// bf16 instantiations only. Elsewhere it made one prefill launch 4.9 % slower (round 31).
template <typename T, int N, bool kWords>
constexpr bool reads_words() {
  return kWords && std::is_same_v<T, __nv_bfloat16> && N % 2 == 0;
}

// ---- the rotation, in exactly the contract's fp32 order (docs/design.md); the intrinsics forbid
// contraction.

__device__ __forceinline__ void rotate_pair(float x, float y, float c, float s, float& xo,
                                            float& yo) {
  xo = __fmaf_rn(x, c, -__fmul_rn(y, s));
  yo = __fmaf_rn(y, c, __fmul_rn(x, s));
}

// cos/sin row entries as float, from a table stored in fp32 or in the q/k dtype.
template <typename T, int N>
__device__ __forceinline__ void load_cos_sin(const void* row, bool table_fp32, std::int64_t i,
                                             float (&out)[N]) {
  if (table_fp32) {
    const Vec<float, N> v = load_vec<float, N>(static_cast<const float*>(row) + i);
#pragma unroll
    for (int j = 0; j < N; ++j)
      out[j] = v.v[j];
  } else {
    const Vec<T, N> v = load_vec<T, N>(static_cast<const T*>(row) + i);
#pragma unroll
    for (int j = 0; j < N; ++j)
      out[j] = to_float(v.v[j]);
  }
}

// The cos/sin row of token t (the fused kernels' arguments).
template <typename T>
__device__ __forceinline__ const void* cos_sin_row(const RopeKvArgs& a, std::int64_t t) {
  return static_cast<const char*>(a.cos_sin_cache) +
         a.positions[t] * a.cos_sin_stride * (a.cos_sin_fp32 ? 4 : sizeof(T));
}

// The cos and sin entries one work unit needs: VEC of each for neox (one per pair of its two
// chunks), VEC/2 for gptj (one per interleaved pair of its chunk).
template <int VEC, bool NEOX>
struct UnitCosSin {
  static constexpr int kPairs = NEOX ? VEC : VEC / 2;
  float c[kPairs], s[kPairs];
};

// Loaded apart from the rotation so that a kernel can read them before it waits for the kernel
// that writes q/k/v (programmatic dependent launch).
template <typename T, int VEC, bool NEOX>
__device__ __forceinline__ UnitCosSin<VEC, NEOX> load_unit_cos_sin(const void* cs_row, bool cs_fp32,
                                                                   int rot_dim, int w) {
  constexpr int P = UnitCosSin<VEC, NEOX>::kPairs;
  UnitCosSin<VEC, NEOX> cs;
  load_cos_sin<T, P>(cs_row, cs_fp32, w * P, cs.c);
  load_cos_sin<T, P>(cs_row, cs_fp32, rot_dim / 2 + w * P, cs.s);
  return cs;
}

// The rotated output of one work unit: one or two VEC-element chunks and the dims they start at.
template <typename T, int VEC>
struct RotatedChunks {
  Vec<T, VEC> chunk[2];
  int dim[2];
  int count;
};

// The chunks of rotation unit `w` of one head row, the rotated window being dims [off, off + R):
//  neox: the chunk at off + w*VEC and the chunk R/2 later, whose pairs it holds (two chunks);
//  gptj: the chunk at off + w*VEC, holding VEC/2 interleaved pairs (one chunk).
// Loaded apart from the rotation so that a lane can load several units before it rotates any
// (the token-warp layout, token_warp_lane.cuh).
template <typename T, int VEC, bool NEOX>
struct UnitChunks {
  Vec<T, VEC> chunk[NEOX ? 2 : 1];
};
template <typename T, int VEC, bool NEOX>
__device__ __forceinline__ UnitChunks<T, VEC, NEOX> load_unit_chunks(const T* row, int off,
                                                                     int rot_dim, int w) {
  UnitChunks<T, VEC, NEOX> in;
  const int d = off + w * VEC;
  in.chunk[0] = load_vec<T, VEC>(row + d);
  if constexpr (NEOX) in.chunk[1] = load_vec<T, VEC>(row + d + rot_dim / 2);
  return in;
}

// A neox unit's cos and sin entries held as loaded, in the q/k dtype, each converted to float where
// it is used: 8 registers for a 16-bit table of 8-element chunks where UnitCosSin holds 16, with
// the same arithmetic, so the same bytes. Only the row-major flat kernel with a 16-bit cache holds
// it (packs_flat in rope_kv_fused.cu: bf16 44 -> 38 registers; results/NOTES.md, round 58), and
// only for a table in the q/k dtype (dispatch_cos_sin_packing, dispatch.cuh).
template <typename T, int VEC>
struct NeoxPackedCosSin {
  Vec<T, VEC> c, s;
};
template <typename T, int VEC>
__device__ __forceinline__ NeoxPackedCosSin<T, VEC> load_neox_packed_cos_sin(const void* cs_row,
                                                                             int rot_dim, int w) {
  const T* row = static_cast<const T*>(cs_row);
  return {load_vec<T, VEC>(row + w * VEC), load_vec<T, VEC>(row + rot_dim / 2 + w * VEC)};
}

// Entry j of a neox unit's cos and sin, as float, from either holding.
template <int VEC>
__device__ __forceinline__ float cos_entry(const UnitCosSin<VEC, true>& cs, int j) {
  return cs.c[j];
}
template <int VEC>
__device__ __forceinline__ float sin_entry(const UnitCosSin<VEC, true>& cs, int j) {
  return cs.s[j];
}
template <typename T, int VEC>
__device__ __forceinline__ float cos_entry(const NeoxPackedCosSin<T, VEC>& cs, int j) {
  return to_float(cs.c.v[j]);
}
template <typename T, int VEC>
__device__ __forceinline__ float sin_entry(const NeoxPackedCosSin<T, VEC>& cs, int j) {
  return to_float(cs.s.v[j]);
}

// Rotates a neox unit's two loaded chunks (element j with element j half a row on).
template <typename T, int VEC, typename CosSin>
__device__ __forceinline__ RotatedChunks<T, VEC> rotate_neox_chunks(
    const UnitChunks<T, VEC, true>& in, int off, int rot_dim, int w, const CosSin& cs) {
  RotatedChunks<T, VEC> out;
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    float xo, yo;
    rotate_pair(to_float(in.chunk[0].v[j]), to_float(in.chunk[1].v[j]), cos_entry(cs, j),
                sin_entry(cs, j), xo, yo);
    out.chunk[0].v[j] = from_float<T>(xo);
    out.chunk[1].v[j] = from_float<T>(yo);
  }
  out.dim[0] = off + w * VEC;
  out.dim[1] = out.dim[0] + rot_dim / 2;
  out.count = 2;
  return out;
}

// Rotates the loaded chunks of unit `w` (load_unit_chunks' arguments) with its cos/sin entries.
template <typename T, int VEC, bool NEOX, bool kWords = false>
__device__ __forceinline__ RotatedChunks<T, VEC> rotate_unit_chunks(
    const UnitChunks<T, VEC, NEOX>& in, int off, int rot_dim, int w,
    const UnitCosSin<VEC, NEOX>& cs) {
  if constexpr (NEOX) {
    return rotate_neox_chunks<T, VEC>(in, off, rot_dim, w, cs);
  } else {
    RotatedChunks<T, VEC> out;
    const int d = off + w * VEC;
    if constexpr (reads_words<T, VEC, kWords>()) {
      float x[VEC];
      bf16_chunk_floats<VEC>(in.chunk[0], x);
#pragma unroll
      for (int j = 0; j < VEC / 2; ++j) {
        float xo, yo;
        rotate_pair(x[2 * j], x[2 * j + 1], cs.c[j], cs.s[j], xo, yo);
        out.chunk[0].v[2 * j] = from_float<T>(xo);
        out.chunk[0].v[2 * j + 1] = from_float<T>(yo);
      }
      out.dim[0] = d;
      out.dim[1] = 0;
      out.count = 1;
    } else {
#pragma unroll
      for (int j = 0; j < VEC / 2; ++j) {
        float xo, yo;
        rotate_pair(to_float(in.chunk[0].v[2 * j]), to_float(in.chunk[0].v[2 * j + 1]), cs.c[j],
                    cs.s[j], xo, yo);
        out.chunk[0].v[2 * j] = from_float<T>(xo);
        out.chunk[0].v[2 * j + 1] = from_float<T>(yo);
      }
      out.dim[0] = d;
      out.dim[1] = 0;
      out.count = 1;
    }
    return out;
  }
}

// The same for a neox unit holding its entries packed.
template <typename T, int VEC>
__device__ __forceinline__ RotatedChunks<T, VEC> rotate_unit_chunks(
    const UnitChunks<T, VEC, true>& in, int off, int rot_dim, int w,
    const NeoxPackedCosSin<T, VEC>& cs) {
  return rotate_neox_chunks<T, VEC>(in, off, rot_dim, w, cs);
}

// Rotates unit `w` of one head row with its cos/sin entries: its chunks loaded, then rotated.
template <typename T, int VEC, bool NEOX, typename CosSin>
__device__ __forceinline__ RotatedChunks<T, VEC> rotate_unit(const T* row, int off, int rot_dim,
                                                             int w, const CosSin& cs) {
  return rotate_unit_chunks<T, VEC>(load_unit_chunks<T, VEC, NEOX>(row, off, rot_dim, w), off,
                                    rot_dim, w, cs);
}

// ---- the row-warp layout (work_plan.h, RowWarpPlan): a neox row's chunks on consecutive lanes,
// each lane's rotation partner half a row (chunks / 2 lanes) away in the same warp.

// A chunk from another lane of the warp (every lane of the warp must call it).
template <typename T, int VEC>
__device__ __forceinline__ Vec<T, VEC> shuffle_chunk(const Vec<T, VEC>& v, int src_lane) {
  static_assert(sizeof(Vec<T, VEC>) % 4 == 0, "a chunk moves as 32-bit words");
  constexpr int kWords = sizeof(Vec<T, VEC>) / 4;
  std::uint32_t w[kWords];
  memcpy(w, &v, sizeof(v));
#pragma unroll
  for (int i = 0; i < kWords; ++i)
    w[i] = __shfl_sync(0xffffffffu, w[i], src_lane & 31);
  Vec<T, VEC> out;
  memcpy(&out, w, sizeof(out));
  return out;
}

// One lane's rotated chunk: `own` is its chunk, `partner` the lane holding the chunk it pairs
// with, `first_half` whether its own chunk is x (the first half) or y; cos/sin in the q/k dtype.
// rotate_pair's two formulas, each lane the one of its half (x' = x c - y s, y' = y c + x s),
// element by element so that one cos/sin pair at a time is a float. Every lane of the warp must
// call it (idle lanes with any chunk, and ignore the result).
template <typename T, int VEC>
__device__ __forceinline__ Vec<T, VEC> rotate_row_warp_chunk(const Vec<T, VEC>& own, int partner,
                                                             bool first_half,
                                                             const Vec<T, VEC>& cos_raw,
                                                             const Vec<T, VEC>& sin_raw) {
  const Vec<T, VEC> other = shuffle_chunk<T, VEC>(own, partner);
  Vec<T, VEC> out;
#pragma unroll
  for (int j = 0; j < VEC; ++j) {
    const float mine = to_float(own.v[j]), theirs = to_float(other.v[j]);
    const float c = to_float(cos_raw.v[j]), s = to_float(sin_raw.v[j]);
    out.v[j] = from_float<T>(first_half ? __fmaf_rn(mine, c, -__fmul_rn(theirs, s))
                                        : __fmaf_rn(mine, c, __fmul_rn(theirs, s)));
  }
  return out;
}

// ---- programmatic dependent launch (PDL). Both instructions are no-ops in a grid that was not
// launched with the attribute, so one kernel serves both launches.

// Blocks until the grid this one depends on has completed and its writes are visible.
__device__ __forceinline__ void wait_for_prerequisite_grid() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
// Lets the next grid in the stream be scheduled once every CTA of this one has issued it.
__device__ __forceinline__ void allow_dependent_grid_launch() {
  asm volatile("griddepcontrol.launch_dependents;" :::);
}

// The dim where pass-through unit `c` starts: chunks outside the rotated window [off, off + R).
__device__ __forceinline__ int passthrough_dim(int c, int vec, int off, int rot_dim) {
  const int d = c * vec;
  return d < off ? d : d + rot_dim;
}

// ---- cache entries

template <typename T, CacheDType C>
struct CacheElem {
  using type = std::uint8_t;  // fp8 kinds
};
template <typename T>
struct CacheElem<T, CacheDType::auto_> {
  using type = T;
};

template <CacheDType C>
__device__ __forceinline__ std::uint8_t float_to_fp8(float x) {
  constexpr __nv_fp8_interpretation_t kind = C == CacheDType::fp8_e4m3 ? __NV_E4M3 : __NV_E5M2;
  return static_cast<std::uint8_t>(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, kind));
}

// The same conversion of two floats by one instruction (a in the low byte).
template <CacheDType C>
__device__ __forceinline__ std::uint16_t float2_to_fp8x2(float a, float b) {
  constexpr __nv_fp8_interpretation_t kind = C == CacheDType::fp8_e4m3 ? __NV_E4M3 : __NV_E5M2;
  return static_cast<std::uint16_t>(
      __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, kind));
}

// Address of the cache entry (block, offset in the block, head, dim) through the view's strides.
template <typename E>
__device__ __forceinline__ E* cache_entry_at(const CacheTensor& c, std::int64_t block,
                                             std::int64_t offset, int head, int dim) {
  return static_cast<E*>(c.data) + block * c.block_stride + offset * c.slot_stride +
         head * c.head_stride + dim;
}

// Address of the cache entry (slot, head, dim) through the view's strides.
template <typename E>
__device__ __forceinline__ E* cache_entry(const CacheTensor& c, std::int64_t slot, int block_size,
                                          int head, int dim) {
  const std::int64_t block = slot / block_size;
  return cache_entry_at<E>(c, block, slot - block * block_size, head, dim);
}

// Stores one chunk of (already rounded) q/k/v-dtype values into the cache: the bits themselves
// for `auto`, fp8_satfinite(RN32(x / scale)) otherwise, the contract's two roundings: the exact
// fp32 quotient (fp32_quotient.h, proof there), then the hardware conversion, two at a time.
template <typename T, CacheDType C, int VEC, bool kWords = false>
__device__ __forceinline__ void store_cache_chunk(typename CacheElem<T, C>::type* dst,
                                                  const Vec<T, VEC>& v, float scale) {
  if constexpr (C == CacheDType::auto_) {
    (void)scale;
    store_vec<T, VEC>(dst, v);
  } else {
    static_assert(VEC % 2 == 0, "fp8 chunks are converted in pairs");
    FloatChunk<VEC> x;
    if constexpr (reads_words<T, VEC, kWords>()) {
      bf16_chunk_floats<VEC>(v, x.v);
    } else {
#pragma unroll
      for (int j = 0; j < VEC; ++j)
        x.v[j] = to_float(v.v[j]);
    }
    const FloatChunk<VEC> q = quotients<VEC>(x, ScaleDivider(scale));
    Vec<std::uint8_t, VEC> out;
#pragma unroll
    for (int j = 0; j < VEC; j += 2) {
      const std::uint16_t two = float2_to_fp8x2<C>(q.v[j], q.v[j + 1]);
      out.v[j] = static_cast<std::uint8_t>(two);
      out.v[j + 1] = static_cast<std::uint8_t>(two >> 8);
    }
    store_vec<std::uint8_t, VEC>(dst, out);
  }
}

}  // namespace rkv::detail
