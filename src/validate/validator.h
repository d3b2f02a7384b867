// Validation of one case: the unfused pair and the fused kernel run on identical copies of fresh
// seeded inputs (caches and query_out pre-filled with a sentinel pattern), then
//   fused vs pair:   every byte of qkv, query_out and both caches, compared on the device;
//   fused vs golden: the CPU golden model on the downloaded inputs, compared on the host, on all
//                    tokens or (large cases) on a sample of tokens plus every untargeted cache
//                    entry, which must still hold its sentinel bytes.
#pragma once

#include <cstdint>
#include <string>

#include "device/cuda_failure.h"
#include "device/device_buffers.h"
#include "plan/case_spec.h"
#include "validate/disposition.h"
#include "validate/host_outputs.h"

namespace rkv {

struct ValidateOptions {
  std::int64_t golden_sample_tokens = 2048;  // T above this: golden on this many sampled tokens
  int threads = 0;                           // golden model threads; 0 = hardware concurrency
  std::string dump_dir;      // non-empty: one folder per dumped case here (case_dump.h)
  bool dump_all = false;     // dump every case, not only those that come out `incorrect`
  std::string tool_version;  // written into every dump's meta.json
  // Self-test of the checker (--plant-error): after the kernels ran, flip one byte of the fused
  // output at this offset into the key cache (or qkv for RoPE-only cases); -1 = off. The case
  // must then come out `incorrect`, naming that byte.
  std::int64_t plant_error_at = -1;
};

struct CaseValidation {
  Disposition disposition = Disposition::skipped;
  std::int64_t mismatches = 0;  // pair-vs-fused plus golden-vs-fused differing bytes
  std::string first_mismatch;   // "vs pair: key_cache[block=3, offset=7, head=2, d=100]"
  std::string detail;           // one line: what ran, what was sampled, or why it failed
  // For `failed`: how far the CUDA failure behind it reaches (sticky: the sweep must end).
  CudaFailureReach reach = CudaFailureReach::none;
  // Where the time went, for `validate`'s closing line (seconds).
  double inputs_s = 0, kernels_s = 0, device_compare_s = 0, golden_s = 0, host_compare_s = 0;
};

// Runs the fused kernel on output slot A and the pair on slot B of `dc` (which then hold outputs,
// no longer inputs). `scratch` holds the host copies; pass the same one for every case of a sweep.
CaseValidation validate_case(DeviceCase& dc, const ValidateOptions& options,
                             ValidationScratch& scratch);

// Validates `spec` from scratch, turning every failure (bad arguments, CUDA errors, out of
// memory) into a disposition instead of an exception.
CaseValidation validate_spec(const CaseSpec& spec, const ValidateOptions& options,
                             ValidationScratch& scratch);
// The same with host buffers of its own (one-off checks and tests).
CaseValidation validate_spec(const CaseSpec& spec, const ValidateOptions& options);

}  // namespace rkv
