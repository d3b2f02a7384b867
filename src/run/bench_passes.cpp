#include "run/bench_passes.h"

#include <fmt/format.h>

#include "device/cuda_check.h"
#include "device/cuda_failure.h"
#include "plan/token_modes.h"
#include "plan/workload.h"
#include "run/bench_report.h"
#include "run/case_variants.h"
#include "run/run_support.h"
#include "validate/validator.h"

namespace rkv {

std::vector<BenchCase> run_bench_passes(const RunRequest& inv, Timer& timer,
                                        const DeviceInfo& device) {
  const ValidateOptions options = validate_options(inv);
  ValidationScratch scratch;
  const std::vector<CaseSpec>& specs = inv.plan.cases;
  const int passes = inv.timing.passes;
  Progress progress(specs.size() * passes);
  std::size_t done = 0;
  std::vector<BenchCase> cases(specs.size());
  // Pass-major: every case once, then every case again, so a case's passes lie a sweep apart.
  for (int pass = 0; pass < passes && !interrupted() && !context_lost(); ++pass) {
    for (std::size_t i = 0; i < specs.size() && !interrupted() && !context_lost(); ++i) {
      const CaseSpec& spec = specs[i];
      BenchCase& c = cases[i];
      // The case's own modes: all of timing.modes, or its token range's (plan/token_modes.h).
      const std::vector<TimingMode>& modes = modes_for_tokens(inv.timing, spec.tokens);
      if (pass > 0 && !c.timed) {
        ++done;
        continue;
      }
      if (pass == 0) {
        c.base.id = spec.id();
        c.base.spec = spec;
        c.base.repro = repro_line("bench", spec);
      }
      std::string line;
      try {
        DeviceCase dc(spec);  // fresh buffers every pass
        if (pass == 0) {
          c.base.min_bytes = min_bytes_moved(dc.plan, dc.host);
          if (inv.validate_first) apply_validation(c.base, validate_case(dc, options, scratch));
          // Mismatching kernels are not timed: a fast wrong answer is not a result.
          c.timed = !inv.validate_first || c.base.validation == Disposition::passed;
          c.samples.resize(modes.size());
        }
        // Odd passes give the fused kernel slot B and the pair slot A: where the buffers landed
        // is then sampled across passes, not fixed per run.
        const SlotAssignment slots =
            pass % 2 == 1 ? SlotAssignment::swapped() : SlotAssignment::straight();
        c.slots.push_back(slots);
        for (std::size_t m = 0; m < modes.size() && c.timed; ++m) {
          c.samples[m].push_back(timer.sample(modes[m], case_variants(dc, slots)));
          const CaseResult so_far = case_row(c, m, modes[m], device, false);
          line += fmt::format(" {}: {:.2f}x ({:.2f} us)", so_far.mode, so_far.speedup->median,
                              so_far.find_variant(Variant::fused)->us.median);
        }
      } catch (const std::exception& e) {
        c.timed = false;  // a case that failed in any pass reports the failure, not a partial time
        c.base.validation = Disposition::failed;
        const auto* cuda = dynamic_cast<const CudaError*>(&e);
        const cudaError_t after = cudaDeviceSynchronize();  // returns a sticky error again
        (void)cudaGetLastError();                           // clears a per-case one (out of memory)
        const CudaFailureReach reach = classify_cuda_error(cuda ? cuda->code() : cudaSuccess);
        const std::string what =
            (reach == CudaFailureReach::out_of_memory ? "out of device memory: " : "") +
            std::string(e.what());
        c.base.detail = passes > 1 ? fmt::format("pass {}: {}", pass + 1, what) : what;
        line = " failed: " + c.base.detail;
        if (reach == CudaFailureReach::sticky ||
            classify_cuda_error(after) == CudaFailureReach::sticky) {
          mark_context_lost();
          fmt::print(stderr,
                     "rope-kv-bench: error: sticky CUDA error in case {} ({}); the CUDA context "
                     "is unusable, so the sweep ends and the report is incomplete\n",
                     c.base.id, c.base.detail);
        }
      }
      const std::string which = passes > 1 ? fmt::format("pass {}/{} ", pass + 1, passes) : "";
      progress.update(++done, which + c.base.id + line);
    }
  }
  return cases;
}

}  // namespace rkv
