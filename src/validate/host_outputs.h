// One host copy of every buffer the operation writes (qkv, query_out, both caches), downloaded
// from one output slot. The validator keeps several (golden, fused, pair, the inputs) in a
// ValidationScratch that its caller owns across a sweep.
#pragma once

#include "device/device_buffers.h"
#include "device/host_bytes.h"
#include "plan/workload.h"
#include "validate/buffer_coordinates.h"

namespace rkv {

struct HostOutputs {
  HostBytes qkv, query_out, k_cache, v_cache;

  void download(const OutputBuffers& b);
  HostBytes& of(BufferKind k);
  // The case's input pointers with the written buffers pointing here (the golden model's view).
  BufferPointers pointers(const HostInputs& in);
};

// The validator's page-locked host buffers, grow-only: a sweep of thousands of cases reuses them
// instead of allocating (and faulting in) fresh pinned memory per case.
struct ValidationScratch {
  HostOutputs golden;  // holds the inputs, then the golden model's outputs
  HostOutputs fused;   // the fused kernel's outputs
  HostOutputs pair;    // the pair's outputs (dumps only)
  HostOutputs inputs;  // the inputs before any kernel ran (dumps only)
};

}  // namespace rkv
