// One tensor argument of rope_kv._ext, imported through DLPack: its pointer, dtype, device, shape
// and strides, after the checks every tensor gets whatever its role (a CUDA device tensor,
// non-negative extents and strides, a span whose byte offsets fit in int64).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <string>
#include <vector>

#include "refusal.h"

namespace rkv_ext {

// DLPack type codes by number: nanobind releases before 3.0 name fewer codes.
constexpr std::uint8_t kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4, kFloat8E4M3FN = 10,
                       kFloat8E5M2 = 12;

// "bfloat16", "float8_e4m3fn", ...: the names the frameworks print.
std::string dtype_name(std::uint8_t code, std::uint8_t bits);

// One tensor argument after import: the ndarray handle keeps the producer's buffer alive for the
// duration of the call (written arguments are imported writable, the others read-only, so a
// producer that exports read-only memory is refused only where we would write).
struct Tensor {
  const char* name = nullptr;
  bool given = false;
  nanobind::ndarray<> rw;
  nanobind::ndarray<nanobind::ro> ro;
  void* data = nullptr;
  std::uint8_t code = 0, bits = 0;
  int device_id = 0;
  std::vector<std::int64_t> shape, strides;

  int ndim() const { return static_cast<int>(shape.size()); }
  std::int64_t itemsize() const { return (bits + 7) / 8; }
  bool is(std::uint8_t c, std::uint8_t b) const { return code == c && bits == b; }
  std::string dtype() const { return dtype_name(code, bits); }
};

// Fills `t` from `obj` (None: t.given stays false). Extent-1 strides come back as 0.
Error import_tensor(const char* name, nanobind::handle obj, bool writable, Tensor& t);

}  // namespace rkv_ext
