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

// Bytes the producer reads before it writes, as a projection reads its weights: at decode a QKV
// projection is a matrix-vector product whose time is the weights' bytes streamed from DRAM (a
// 4096-wide model's bf16 q/k/v weights are 48-96 MiB), far longer than writing q/k/v. The
// producer only folds what it reads into a word it never stores (unless the XOR equals a value
// zeroed weights never give; then into `sink`), so its output stays the copy below.
struct ProducerRead {
  const void* weights = nullptr;  // 16-byte aligned; null or `bytes` 0: nothing is read
  std::size_t bytes = 0;          // a multiple of 16
  unsigned* sink = nullptr;       // one word, required when `bytes` > 0
};

// Writes `bytes` bytes at `dst`: a copy of `src` when it is not null (so the consumer keeps
// reading valid data), else the byte `fill` everywhere; with `read`, first streams its bytes. Every
// CTA triggers launch_dependents (griddepcontrol.launch_dependents) as its first instruction, so a
// kernel launched next with PDL may start at once and run its prologue while this one reads and
// writes; its griddepcontrol.wait still waits for all of this kernel's writes. The producer itself
// is launched normally: it must not overlap the kernel before it, which may still read the buffer
// it overwrites. dst and src must not overlap. Returns the launch error, if any (invalid value for
// a null dst, or a read that is misaligned, not a multiple of 16 bytes or has no sink).
cudaError_t launch_pdl_producer(void* dst, const void* src, std::size_t bytes, std::uint8_t fill,
                                cudaStream_t stream, const ProducerRead& read = {});

}  // namespace rkv
