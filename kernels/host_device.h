// RKV_HOST_DEVICE marks a function that both the host and the device run (the same numbers on
// both sides is the point); plain C++ where the file is not compiled by nvcc.
#pragma once

#if defined(__CUDACC__)
#define RKV_HOST_DEVICE __host__ __device__
#else
#define RKV_HOST_DEVICE
#endif
