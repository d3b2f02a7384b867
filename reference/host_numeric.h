// Host-side number formats, written in the project (not borrowed from the CUDA headers) so the
// golden model depends on nothing it is meant to check. Every conversion rounds to nearest even
// and matches the device instructions bit for bit (tests/numeric_test.cpp compares them with the
// CUDA headers' host paths over every code and millions of random floats).
#pragma once

#include <cstdint>

#include "rope_kv.h"

namespace rkv {

float bf16_to_float(std::uint16_t bits);
std::uint16_t float_to_bf16(float x);  // RNE; NaN -> canonical quiet NaN 0x7fff

float fp16_to_float(std::uint16_t bits);
std::uint16_t float_to_fp16(float x);  // RNE, overflow -> inf; NaN -> 0x7fff

// fp8 with saturation to the largest finite value (448 for e4m3, 57344 for e5m2); NaN stays NaN.
std::uint8_t float_to_fp8_e4m3_satfinite(float x);
std::uint8_t float_to_fp8_e5m2_satfinite(float x);
float fp8_e4m3_to_float(std::uint8_t bits);
float fp8_e5m2_to_float(std::uint8_t bits);

// Loads element i of a q/k/v-typed buffer as float, and stores x rounded into it.
float load_scalar(DType dtype, const void* base, std::int64_t i);
void store_scalar(DType dtype, void* base, std::int64_t i, float x);

}  // namespace rkv
