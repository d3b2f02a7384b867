// Minimal writer of NumPy .npy files (format 1.0), so `validate --dump` output loads with
// numpy.load. bf16 has no NumPy dtype: it is written as '<u2' bits (view with ml_dtypes/torch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rope_kv.h"

namespace rkv {

// descr: NumPy type string, e.g. "<f2", "<f4", "<i8", "|u1", "<u2".
void write_npy(const std::string& path, const std::string& descr,
               const std::vector<std::int64_t>& shape, const void* data, std::int64_t bytes);

std::string npy_descr(DType d);  // bf16 -> "<u2", fp16 -> "<f2", fp32 -> "<f4"

}  // namespace rkv
