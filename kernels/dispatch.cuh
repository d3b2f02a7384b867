// The one place where run-time choices become template parameters. Each dispatcher calls `f` with
// a compile-time constant (std::integral_constant / a type tag), so a kernel launcher reads as
//   dispatch_dtype(a.dtype, [&](auto t) { dispatch_vec<typename decltype(t)::type>(vec, ...); });
// and a new dtype or width is one line here, not one more copy of every launcher.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "rope_kv.h"
#include "rope_kv_device.cuh"

namespace rkv::detail {

template <typename T>
struct TypeTag {
  using type = T;
};

template <typename F>
cudaError_t dispatch_dtype(DType d, F&& f) {
  switch (d) {
    case DType::bf16:
      return f(TypeTag<__nv_bfloat16>{});
    case DType::fp16:
      return f(TypeTag<__half>{});
    case DType::fp32:
      return f(TypeTag<float>{});
  }
  return cudaErrorInvalidValue;
}

template <typename F>
cudaError_t dispatch_cache(CacheDType c, F&& f) {
  switch (c) {
    case CacheDType::auto_:
      return f(std::integral_constant<CacheDType, CacheDType::auto_>{});
    case CacheDType::fp8_e4m3:
      return f(std::integral_constant<CacheDType, CacheDType::fp8_e4m3>{});
    case CacheDType::fp8_e5m2:
      return f(std::integral_constant<CacheDType, CacheDType::fp8_e5m2>{});
  }
  return cudaErrorInvalidValue;
}

// Elements per access: 16 bytes, 8 or 4; widths over 16 bytes for T are never instantiated.
template <typename T, typename F>
cudaError_t dispatch_vec(int vec, F&& f) {
  auto run = [&](auto v) -> cudaError_t {
    if constexpr (sizeof(T) * decltype(v)::value <= 16) return f(v);
    return cudaErrorInvalidValue;
  };
  switch (vec) {
    case 8:
      return run(std::integral_constant<int, 8>{});
    case 4:
      return run(std::integral_constant<int, 4>{});
    case 2:
      return run(std::integral_constant<int, 2>{});
  }
  return cudaErrorInvalidValue;
}

template <typename F>
cudaError_t dispatch_style(RopeStyle s, F&& f) {
  if (s == RopeStyle::neox) return f(std::true_type{});
  return f(std::false_type{});
}

// Whether a launch's neox units hold their cos/sin entries packed in the q/k dtype
// (NeoxPackedCosSin, rope_kv_device.cuh): 16-bit q/k with the table in the same dtype. Every other
// launch reads the table as before (fp32 or the q/k dtype, chosen per call inside the kernel).
template <typename T, bool NEOX, typename F>
cudaError_t dispatch_cos_sin_packing(bool table_fp32, F&& f) {
  if constexpr (NEOX && sizeof(T) == 2)
    if (!table_fp32) return f(std::true_type{});
  return f(std::false_type{});
}

// Launches kernel<<<grid, block, 0, stream>>>(args...), with programmatic stream serialization
// when `pdl` is set (RopeKvArgs::programmatic_dependent_launch), so that the kernel may start
// before the previous one in the stream completes. Returns the launch error, if any.
template <typename... Params, typename... Args>
cudaError_t launch_kernel(void (*kernel)(Params...), unsigned grid, unsigned block,
                          cudaStream_t stream, bool pdl, Args&&... args) {
  if (!pdl) {
    kernel<<<grid, block, 0, stream>>>(std::forward<Args>(args)...);
    return cudaGetLastError();
  }
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  const cudaError_t e = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  return e != cudaSuccess ? e : cudaGetLastError();
}

// SMs of the current device; 0 if the runtime cannot say.
inline int current_sm_count() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return sms;
}

}  // namespace rkv::detail
