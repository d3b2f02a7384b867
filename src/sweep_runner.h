// The GPU commands: `validate` and `bench` run a planned sweep case by case (the story of each
// case: build inputs, run the pair and the fused kernel, check against the golden model, then
// time), and `profile` launches one case's variants for nsys/ncu.
#pragma once

#include "cli.h"

namespace rkv {

int run_validate(const CliInvocation& inv);
int run_bench(const CliInvocation& inv);
int run_profile(const CliInvocation& inv);

}  // namespace rkv
