// The GPU commands: `validate` and `bench` run a planned sweep case by case (the story of each
// case: build inputs, run the pair and the fused kernel, check against the golden model, then
// time), and `profile` launches one case's variants for nsys/ncu.
#pragma once

#include "run/run_request.h"

namespace rkv {

int run_validate(const RunRequest& inv);
int run_bench(const RunRequest& inv);
int run_profile(const RunRequest& inv);

}  // namespace rkv
