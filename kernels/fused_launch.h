// Which fused kernel, plan and grid a call takes: every routing rule of work_plan.h in the order
// the launcher (rope_kv_fused.cu) asks them, as host code that makes no CUDA call, so that tests
// and tools can ask which kernel a case runs (an A/B's judged subset is the cases whose launch a
// change moves) and the launcher only turns the answer into a launch.
#pragma once

#include <cstdint>

#include "rope_kv.h"
#include "work_plan.h"

namespace rkv {

constexpr int kFusedThreads = 128;  // threads per CTA of every fused kernel

// The fused kernels, one per launch shape (rope_kv_fused.cu).
enum class FusedKernel {
  too_large,         // the grid would pass 2^31 - 1 CTAs: refused (cudaErrorInvalidConfiguration)
  row_warp,          // rope_kv_fused_row_warp_kernel: neox rows of rotation only, decode sizes
  decode_half,       // role-major, half units, segments padded to warps, decode sizes (compact:
                     // rope_kv_fused_decode_roles_kernel with HALF, else rope_kv_fused_half_kernel)
  decode_roles,      // role-major, segments padded to warps, decode sizes (compact:
                     // rope_kv_fused_decode_roles_kernel, else the flat role-major unit kernel)
  prefill_half,      // rope_kv_fused_half_prefill_kernel: half units beyond decode sizes
  wide,              // rope_kv_fused_wide_kernel: strided, two chunks a copy unit
  flat_wide,         // rope_kv_fused_flat_wide_kernel: one unit a thread, two chunks a copy unit
                     // (fp8 caches)
  strided,           // the unit kernel on a grid of the resident CTAs (16 waves of them for long
                     // launches), threads striding over units
  strided_rotating,  // the same grid, its warps taking the CTA's 128 units a warp further round
                     // each pass (work_plan.h, strided_warps_pinned)
  phased,            // the strided or flat grid, a row-major launch's units in phases: q of
                     // every token, then k, then v (work_plan.h, row_major_warps_mix_roles;
                     // 16-bit caches)
  flat,              // the unit kernel, one unit a thread
  token_warp,        // rope_kv_fused_token_warp_kernel: one warp a token (MLA rows of rotation
                     // only)
};

// CTAs of each fused kernel that fit on one SM at once, as the runtime reports them for the
// call's instantiation (the strided and wide kernels after RKV_STRIDED_MAX_CTAS_PER_SM), and the
// GPU's SM count; 0 where unknown or where the instantiation does not exist: a shape that needs
// the number is then not taken. [0] row-major order, [1] role-major.
struct FusedOccupancy {
  int sms = 0;
  int row_warp = 0, half = 0, decode_roles = 0, token_warp = 0;
  int strided[2] = {0, 0}, wide[2] = {0, 0}, flat_wide[2] = {0, 0};
  int strided_rotating = 0;  // row-major order, gpt-j only
  int phased = 0;            // row-major order, 16-bit caches only
};

// One launch: its kernel, the order of its units (role-major or not), the plan and split it
// passes (the half-unit or two-chunk plan where the kernel takes one), the row-warp plan
// (row_warp only), the threads it covers (units, padded units or lanes) and its CTAs.
struct FusedLaunch {
  FusedKernel kernel = FusedKernel::flat;
  bool roles = false;
  WorkPlan plan;
  RoleMajorSplit split;
  RowWarpPlan rows;
  std::int64_t threads = 0;
  std::int64_t ctas = 0;
  bool compact = false;  // the kernel reads compact parameter blocks: row_warp always;
                         // decode_half, decode_roles up to kCompactDecodeCtasPerSm CTAs a SM
};

// The most CTAs a SM (of the launch, not resident) for which decode role-major launches take
// their compact parameters (fused_launch.cpp, decode_role_warps).
constexpr int kCompactDecodeCtasPerSm = 5;

// The launch rope_kv_fused() makes for `a` with `vec`-element accesses on a GPU of occupancy
// `o`, every routing rule of this file in the order the launcher asks them: at decode sizes (the
// grid within half a wave of resident CTAs) the row-warp layout, then whole warps a role (half
// units where they exist); beyond, one warp a token where token_warp_pays (mla:16 with an fp8
// cache), half units where they pay; then, with a 16-bit cache (with
// fp8 for long launches and the shapes fused_launch.cpp's fp8_strided_pays names), the wide or
// strided grid of resident CTAs, in 16 waves for long launches, unless the flat grid pays
// (neox_half_rows_split_sectors, rotation_window_splits_sectors, mla_rotation_windows_dominate);
// the flat grid otherwise, with two chunks a copy unit for fp8 MHA (fused_launch.cpp's
// fp8_flat_wide_pays).
// Host only, no CUDA call: tests and tools ask it which kernel a case runs.
FusedLaunch plan_fused_launch(const RopeKvArgs& a, int vec, const FusedOccupancy& o);

// The kernel's name in reports (RopeKvFusedLaunch::kernel): "row_warp", "wide", ...
const char* fused_kernel_name(FusedKernel k);

}  // namespace rkv
