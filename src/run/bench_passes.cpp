#include "run/bench_passes.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "device/cuda_check.h"
#include "device/cuda_failure.h"
#include "plan/token_modes.h"
#include "plan/workload.h"
#include "run/bench_report.h"
#include "run/case_variants.h"
#include "run/fused_launch_record.h"
#include "run/run_support.h"
#include "timing/producer_weights.h"
#include "validate/validator.h"

namespace rkv {
namespace {

// One mode's result for the progress line: " graph: 1.84x (2.10 us)"; in the producer modes the
// fused kernel's added time, and the speedup only where one was made (bench_report.h).
std::string progress_text(const CaseResult& r) {
  const VariantResult* fused = r.find_variant(Variant::fused);
  const double us = fused != nullptr ? fused->us.median : 0;
  if (!r.speedup) return fmt::format(" {}: fused adds {:.2f} us", r.mode, us);
  return fmt::format(" {}: {:.2f}x ({:.2f} us)", r.mode, r.speedup->median, us);
}

// Every buffer of `dc` by name, in name order (the report's key order).
BufferAddresses addresses_of(const DeviceCase& dc) {
  BufferAddresses out;
  auto add = [&out](std::string name, const DeviceBuffer& b) {
    if (b.get() != nullptr)
      out.emplace_back(std::move(name), reinterpret_cast<std::uintptr_t>(b.get()));
  };
  add("positions", dc.positions);
  add("slot_mapping", dc.slots);
  add("k_scale", dc.k_scale);
  add("v_scale", dc.v_scale);
  add("cos_sin", dc.cos_sin);
  add("pristine_qkv", dc.pristine_qkv);  // the producer modes' source of fresh inputs
  for (const auto& [suffix, slot] : {std::pair{"_a", &dc.slot_a}, std::pair{"_b", &dc.slot_b}}) {
    add(std::string("qkv") + suffix, slot->qkv);
    add(std::string("query_out") + suffix, slot->query_out);
    add(std::string("k_cache") + suffix, slot->k_cache);
    add(std::string("v_cache") + suffix, slot->v_cache);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The ring a reading producer streams (TimingOptions::producer_read_mib), for a case timed in
// `modes`: none unless one of them is a producer mode and the read is not 0. Made per case, as its
// other buffers are, so a device that cannot hold it fails that case with one line.
std::unique_ptr<ProducerWeights> producer_weights_for(const TimingOptions& timing,
                                                      const std::vector<TimingMode>& modes,
                                                      const DeviceInfo& device) {
  if (timing.producer_read_mib == 0 || std::none_of(modes.begin(), modes.end(), is_producer_mode))
    return nullptr;
  return std::make_unique<ProducerWeights>(std::int64_t{timing.producer_read_mib} << 20,
                                           device.l2_bytes);
}

}  // namespace

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
          c.base.fused_launch = fused_launch_record(dc.args(SlotAssignment::straight().fused));
          if (inv.validate_first) apply_validation(c.base, validate_case(dc, options, scratch));
          // Mismatching kernels are not timed: a fast wrong answer is not a result.
          c.timed = !inv.validate_first || c.base.validation == Disposition::passed;
          c.samples.resize(modes.size());
          c.producer_floor_us.resize(modes.size());
          c.producer_copy_floor_us.resize(modes.size());
        }
        // Odd passes give the fused kernel slot B and the pair slot A: where the buffers landed
        // is then sampled across passes, not fixed per run.
        const SlotAssignment slots =
            pass % 2 == 1 ? SlotAssignment::swapped() : SlotAssignment::straight();
        c.slots.push_back(slots);
        if (c.timed) dc.make_pristine_qkv();  // every mode restores q/k/v from it
        c.addresses.push_back(addresses_of(dc));
        const std::unique_ptr<ProducerWeights> weights =
            c.timed ? producer_weights_for(inv.timing, modes, device) : nullptr;
        for (std::size_t m = 0; m < modes.size() && c.timed; ++m) {
          const std::vector<TimedVariant> variants =
              case_variants(dc, slots, modes[m], weights.get());
          c.samples[m].push_back(timer.sample(modes[m], variants));
          // The floor under this case's added times: a consumer that only waits, after the
          // fused kernel's producer (the same bytes as every variant's).
          if (is_producer_mode(modes[m])) {
            const auto& producer = variants.front().producer;
            c.producer_floor_us[m].push_back(
                timer.producer_floor_us(modes[m], producer, kCaseVariants));
            // ... and one that also reads what that producer wrote (the fused slot's qkv).
            const DeviceBuffer& written = dc.outputs(slots.fused).qkv;
            c.producer_copy_floor_us[m].push_back(timer.producer_copy_floor_us(
                modes[m], producer, written.get(), written.bytes(), kCaseVariants));
          }
          line += progress_text(case_row(c, m, modes[m], device, false));
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
