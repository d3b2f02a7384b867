// CUDA failures become one clear line: a CudaError carries "<what>: <CUDA's words>", and the CLI's
// top level prints it and exits non-zero instead of crashing or continuing with a bad context.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace rkv {

class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& what, cudaError_t code)
      : std::runtime_error(what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) +
                           ")"),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(what, e);
}
inline void cuda_check(cudaError_t e, const std::string& what) {
  cuda_check(e, what.c_str());
}

// "" when a usable CUDA device is present, else one line saying why not.
std::string cuda_device_problem();

}  // namespace rkv
