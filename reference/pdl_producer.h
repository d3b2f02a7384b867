// A stand-in for the kernel that produces q/k/v in a serving engine (the QKV projection): a
// bandwidth-bound kernel that writes a buffer and lets the next kernel in the stream start early.
// The timing code launches it before each variant, with and without programmatic dependent launch
// (RopeKvArgs::programmatic_dependent_launch), to measure what PDL saves between the producer and
// the fused kernel or the pair. The GPU tests use it to show that a PDL launch still sees every
// byte the producer wrote.
//
// It lives in reference/ (the benchmark's side), not in kernels/: the library that engines and the
// Python binding link stays the operation and nothing else.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace rkv {

// Writes `bytes` bytes at `dst`: a copy of `src` when it is not null (so the consumer keeps
// reading valid data), else the byte `fill` everywhere. Every CTA triggers launch_dependents
// (griddepcontrol.launch_dependents) as its first instruction, so a kernel launched next with
// PDL may start at once and run its prologue while this one writes; its griddepcontrol.wait still
// waits for all of this kernel's writes. The producer itself is launched normally: it must not
// overlap the kernel before it, which may still read the buffer it overwrites.
// dst and src must not overlap. Returns the launch error, if any.
cudaError_t launch_pdl_producer(void* dst, const void* src, std::size_t bytes, std::uint8_t fill,
                                cudaStream_t stream);

}  // namespace rkv
