// Calls rope_kv_fused over ~60k argument sets (shapes, rotary widths, dtypes, caches, styles,
// token counts, optional outputs, misaligned q) and prints each call with the launch the fake
// runtime recorded or the error returned (scripts/launch_trace/compare.sh).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>
#include "rope_kv.h"
extern std::string g_last;
using namespace rkv;
int main() {
  struct H {
    int hq, hkv, dq, dk, dv, off;
    const char* n;
  };
  const H heads[] = {{32, 32, 128, 128, 128, 0, "32x32x128"}, {32, 8, 128, 128, 128, 0, "32x8x128"},
                     {64, 8, 128, 128, 128, 0, "64x8x128"},   {28, 4, 128, 128, 128, 0, "28x4x128"},
                     {8, 1, 64, 64, 64, 0, "8x1x64"},         {16, 2, 256, 256, 256, 0, "16x2x256"},
                     {40, 8, 80, 80, 80, 0, "40x8x80"},       {16, 1, 192, 64, 512, 128, "mla:16"},
                     {128, 1, 192, 64, 512, 128, "mla:128"},  {8, 2, 96, 96, 96, 0, "8x2x96"},
                     {4, 4, 32, 32, 32, 0, "4x4x32"}};
  const long long toks[] = {1, 2, 7, 8, 33, 128, 500, 1000, 2048, 4099, 16384, 65536, 1 << 20};
  static std::int64_t slots_buf[1];
  static float scale[1];
  long calls = 0;
  for (const H& h : heads)
    for (int rotk = 0; rotk < 4; ++rotk)
      for (int dt = 0; dt < 3; ++dt)
        for (int cache = 0; cache < 3; ++cache)
          for (int style = 0; style < 2; ++style)
            for (long long T : toks)
              for (int variant = 0; variant < 6; ++variant) {
                RopeKvArgs a;
                const int kdim = h.dk;
                int rot = rotk == 0 ? kdim : rotk == 1 ? kdim / 2 : rotk == 2 ? 64 : 32;
                if (rot > kdim) continue;
                a.num_tokens = T;
                a.num_cache_tokens = variant == 3 ? T / 2 : T;
                a.num_q_heads = h.hq;
                a.num_kv_heads = h.hkv;
                a.q_head_size = h.dq;
                a.k_head_size = h.dk;
                a.v_head_size = h.dv;
                a.q_rot_offset = h.off;
                a.rot_dim = rot;
                a.dtype = dt == 0 ? DType::bf16 : dt == 1 ? DType::fp16 : DType::fp32;
                a.cache_dtype = cache == 0   ? CacheDType::auto_
                                : cache == 1 ? CacheDType::fp8_e4m3
                                             : CacheDType::fp8_e5m2;
                a.style = style ? RopeStyle::neox : RopeStyle::gptj;
                const std::int64_t es = dt == 2 ? 4 : 2;
                const std::uintptr_t align = variant == 4   ? 8
                                             : variant == 5 ? 4
                                                            : 0;  // misaligned q
                a.positions = reinterpret_cast<const std::int64_t*>(0x100000000ull);
                a.cos_sin_cache = reinterpret_cast<const void*>(0x200000000ull);
                a.cos_sin_fp32 = variant == 1;
                a.cos_sin_stride = rot;
                a.max_position = 4096;
                const std::int64_t tok =
                    std::int64_t{h.hq} * h.dq + std::int64_t{h.hkv} * (h.dk + h.dv);
                a.query = {reinterpret_cast<void*>(0x10000000000ull + align), tok, h.dq};
                a.key = {reinterpret_cast<void*>(0x10000000000ull + es * h.hq * h.dq), tok, h.dk};
                a.value = {
                    reinterpret_cast<void*>(0x10000000000ull + es * (h.hq * h.dq + h.hkv * h.dk)),
                    tok, h.dv};
                if (variant == 2)
                  a.query_out = {reinterpret_cast<void*>(0x20000000000ull),
                                 std::int64_t{h.hq} * h.dq, h.dq};
                if (variant == 3) a.write_back_key = false;
                a.slot_mapping = variant == 1 && rotk == 3 ? nullptr : slots_buf;
                a.block_size = 16;
                a.num_blocks = (T + 15) / 16 + 1;
                const std::int64_t ces = cache == 0 ? es : 1;
                (void)ces;
                a.key_cache = {reinterpret_cast<void*>(0x30000000000ull), 16LL * h.hkv * h.dk,
                               std::int64_t{h.hkv} * h.dk, h.dk};
                a.value_cache = {reinterpret_cast<void*>(0x40000000000ull), 16LL * h.hkv * h.dv,
                                 std::int64_t{h.hkv} * h.dv, h.dv};
                a.k_scale = a.v_scale = scale;
                a.programmatic_dependent_launch = (T % 2) == 1;
                g_last = "(no launch)";
                const cudaError_t e = rope_kv_fused(a, nullptr);
                std::printf("%s rot=%d dt=%d c=%d s=%d T=%lld v=%d -> e=%d %s\n", h.n, rot, dt,
                            cache, style, T, variant, (int)e, g_last.c_str());
                ++calls;
              }
  std::fprintf(stderr, "%ld calls\n", calls);
}
