// Byte offsets -> the coordinates a person debugs a mismatch with (buffer_coordinates.h): the
// q/k/v regions of the fused qkv tensor, query_out, every cache layout (K and V in two tensors or
// packed into one), MLA's kv_c | k_pe entries, and locate_cache_element on every element.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "plan/workload.h"
#include "validate/buffer_coordinates.h"

namespace rkv {
namespace {

// bf16 4x2x64, 10 tokens: qkv rows [q 4*64 | k 2*64 | v 2*64] = 512 elements.
CaseSpec small_spec(const std::string& layout = "nhd") {
  CaseSpec s;
  s.heads = HeadConfig{4, 2, 64, false};
  s.tokens = 10;
  s.layout = *CacheLayout::parse(layout);
  return s;
}

// Byte offset of element `e` of a buffer whose elements are `bytes` wide, plus `within` bytes.
std::int64_t byte_of(std::int64_t e, std::size_t bytes, std::int64_t within = 0) {
  return e * static_cast<std::int64_t>(bytes) + within;
}

// Element offset of cache row (block, offset, head) plus `dim`, from the plan's strides.
std::int64_t cache_element(const TensorPlan& p, std::int64_t block, std::int64_t offset,
                           std::int64_t head, std::int64_t dim) {
  return block * p.block_stride + offset * p.slot_stride + head * p.head_stride + dim;
}

TEST(DescribeByte, QkvRegions) {
  const TensorPlan p = make_tensor_plan(small_spec());
  ASSERT_EQ(p.row_elems, 512);
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, 0), "query[t=0, h=0, d=0]");
  // Both bytes of a bf16 element name the same element.
  const std::int64_t q = 3 * 512 + 2 * 64 + 5;
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(q, 2)), "query[t=3, h=2, d=5]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(q, 2, 1)), "query[t=3, h=2, d=5]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(3 * 512 + 255, 2)), "query[t=3, h=3, d=63]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(3 * 512 + 256, 2)), "key[t=3, h=0, d=0]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(9 * 512 + 256 + 64 + 63, 2)),
            "key[t=9, h=1, d=63]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(512 + 384, 2)), "value[t=1, h=0, d=0]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(2 * 512 - 1, 2, 1)), "value[t=1, h=1, d=63]");
}

TEST(DescribeByte, QkvInFp32) {
  CaseSpec s = small_spec();
  s.dtype = DType::fp32;
  const TensorPlan p = make_tensor_plan(s);
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(2 * 512 + 300, 4, 3)), "key[t=2, h=0, d=44]");
}

TEST(DescribeByte, MlaQkvHasLatentBeforeRopeKey) {
  CaseSpec s;
  s.heads = HeadConfig{16, 1, 0, true};
  s.tokens = 4;
  const TensorPlan p = make_tensor_plan(s);  // [q 16*192 | kv_c 512 | k_pe 64] = 3648
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(3648 + 15 * 192 + 130, 2)),
            "query[t=1, h=15, d=130]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(2 * 3648 + 3072 + 511, 2)),
            "value[t=2, h=0, d=511]");
  EXPECT_EQ(describe_byte(p, BufferKind::qkv, byte_of(2 * 3648 + 3584 + 7, 2)),
            "key[t=2, h=0, d=7]");
}

TEST(DescribeByte, QueryOut) {
  CaseSpec s = small_spec();
  s.query_out = QueryOut::separate;
  const TensorPlan p = make_tensor_plan(s);  // [10, 4, 64]
  EXPECT_EQ(describe_byte(p, BufferKind::query_out, byte_of(2 * 256 + 3 * 64 + 7, 2, 1)),
            "query_out[t=2, h=3, d=7]");
  EXPECT_EQ(describe_byte(p, BufferKind::query_out, 0), "query_out[t=0, h=0, d=0]");
}

TEST(DescribeByte, SeparateCaches) {
  for (const std::string layout : {"nhd", "hnd", "hbs"}) {
    const TensorPlan p = make_tensor_plan(small_spec(layout));
    ASSERT_EQ(p.cache_tensors, 2) << layout;
    const std::int64_t e = cache_element(p, 1, 7, 1, 10);
    EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(e, 2)),
              "key_cache[block=1, offset=7, head=1, d=10]")
        << layout;
    EXPECT_EQ(describe_byte(p, BufferKind::v_cache, byte_of(e, 2, 1)),
              "value_cache[block=1, offset=7, head=1, d=10]")
        << layout;
  }
}

TEST(DescribeByte, PackedCachesNameTheHalf) {
  for (const std::string layout : {"packed_nhd", "packed_hnd", "packed_sbh"}) {
    const TensorPlan p = make_tensor_plan(small_spec(layout));
    ASSERT_EQ(p.cache_tensors, 1) << layout;
    ASSERT_EQ(p.v_offset, 64) << layout;
    // One allocation, described through k_cache: K in [0, 64) of a row, V in [64, 128).
    EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 1, 3, 0, 63), 2)),
              "key_cache[block=1, offset=3, head=0, d=63]")
        << layout;
    EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 1, 3, 0, 64), 2)),
              "value_cache[block=1, offset=3, head=0, d=0]")
        << layout;
    EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 0, 15, 1, 127), 2, 1)),
              "value_cache[block=0, offset=15, head=1, d=63]")
        << layout;
  }
}

TEST(DescribeByte, Fp8CacheCountsBytes) {
  CaseSpec s = small_spec("hnd");
  s.cache_dtype = CacheDType::fp8_e4m3;
  const TensorPlan p = make_tensor_plan(s);
  const std::int64_t e = cache_element(p, 2, 5, 1, 33);
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, e), "key_cache[block=2, offset=5, head=1, d=33]");
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, e + 1),
            "key_cache[block=2, offset=5, head=1, d=34]");
}

TEST(DescribeByte, MlaCacheKeyAtOffset512) {
  CaseSpec s;
  s.heads = HeadConfig{16, 1, 0, true};
  s.tokens = 40;
  const TensorPlan p = make_tensor_plan(s);  // [num_blocks, 16, 576] = kv_c | k_pe
  ASSERT_EQ(p.k_offset, 512);
  ASSERT_GE(p.num_blocks, 3);
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 2, 9, 0, 512 + 3), 2)),
            "key_cache[block=2, offset=9, head=0, d=3]");
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 2, 9, 0, 575), 2, 1)),
            "key_cache[block=2, offset=9, head=0, d=63]");
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, byte_of(cache_element(p, 2, 9, 0, 511), 2)),
            "value_cache[block=2, offset=9, head=0, d=511]");
  EXPECT_EQ(describe_byte(p, BufferKind::k_cache, 0),
            "value_cache[block=0, offset=0, head=0, d=0]");
}

// Every element of every layout maps back to the (block, offset, head, dim) it was computed from.
TEST(LocateCacheElement, RoundTripsEveryElement) {
  for (const std::string layout :
       {"nhd", "hnd", "packed_nhd", "packed_hnd", "hbs", "sbh", "packed_shb", "packed_hsb"}) {
    for (int kv_heads : {1, 3}) {
      CaseSpec s = small_spec(layout);
      s.heads = HeadConfig{3, kv_heads, 8, false};
      s.block_size = 4;
      const TensorPlan p = make_tensor_plan(s);
      const std::int64_t row = p.cache_tensors == 1 ? 16 : 8;
      std::int64_t checked = 0;
      for (std::int64_t b = 0; b < p.num_blocks; ++b)
        for (std::int64_t o = 0; o < p.block_size; ++o)
          for (std::int64_t h = 0; h < p.num_kv_heads; ++h)
            for (std::int64_t d = 0; d < row; ++d) {
              const CacheEntryRef r = locate_cache_element(p, cache_element(p, b, o, h, d));
              ASSERT_EQ(r.block, b) << layout << " Hkv=" << kv_heads;
              ASSERT_EQ(r.offset, o) << layout << " Hkv=" << kv_heads;
              ASSERT_EQ(r.head, h) << layout << " Hkv=" << kv_heads;
              ASSERT_EQ(r.dim, d) << layout << " Hkv=" << kv_heads;
              ++checked;
            }
      EXPECT_EQ(checked, p.cache_elems) << layout;  // the walk covered the whole allocation
    }
  }
}

// Block size 1 gives the block and slot dims equal strides in nhd; the block must still win.
TEST(LocateCacheElement, BlockSizeOne) {
  CaseSpec s = small_spec("nhd");
  s.block_size = 1;
  const TensorPlan p = make_tensor_plan(s);
  ASSERT_EQ(p.block_stride, p.slot_stride);
  const CacheEntryRef r = locate_cache_element(p, cache_element(p, 5, 0, 1, 9));
  EXPECT_EQ(r.block, 5);
  EXPECT_EQ(r.offset, 0);
  EXPECT_EQ(r.head, 1);
  EXPECT_EQ(r.dim, 9);
}

// In hnd with one-slot blocks the slot and head strides are equal (both D): the slot dim has
// extent 1 and must be skipped, or head h would come back as offset h.
TEST(LocateCacheElement, HndBlockSizeOne) {
  CaseSpec s = small_spec("hnd");
  s.block_size = 1;
  const TensorPlan p = make_tensor_plan(s);
  ASSERT_EQ(p.slot_stride, p.head_stride);
  const CacheEntryRef r = locate_cache_element(p, cache_element(p, 5, 0, 1, 9));
  EXPECT_EQ(r.block, 5);
  EXPECT_EQ(r.offset, 0);
  EXPECT_EQ(r.head, 1);
  EXPECT_EQ(r.dim, 9);
}

TEST(LocateCacheElement, Mla) {
  CaseSpec s;
  s.heads = HeadConfig{16, 1, 0, true};
  s.tokens = 40;
  const TensorPlan p = make_tensor_plan(s);
  const CacheEntryRef r = locate_cache_element(p, cache_element(p, 1, 15, 0, 570));
  EXPECT_EQ(r.block, 1);
  EXPECT_EQ(r.offset, 15);
  EXPECT_EQ(r.head, 0);
  EXPECT_EQ(r.dim, 570);
}

}  // namespace
}  // namespace rkv
