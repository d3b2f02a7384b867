#include "run/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <cuda_profiler_api.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nvtx3/nvToolsExt.h>

#include "device/cuda_check.h"
#include "device/cuda_failure.h"
#include "device/device_buffers.h"
#include "device/device_info.h"
#include "report/exit_codes.h"
#include "report/tables.h"
#include "run/bench_passes.h"
#include "run/bench_report.h"
#include "run/case_variants.h"
#include "run/run_support.h"
#include "timing/input_refresh.h"
#include "timing/timer.h"
#include "validate/case_dump.h"
#include "validate/validator.h"

namespace rkv {
namespace {

// RAII NVTX range named "variant|case id", so nsys and ncu can filter on one variant of one case.
struct NvtxRange {
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_validate(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  if (!inv.dump_dir.empty())
    if (const std::string why = prepare_dump_dir(inv.dump_dir); !why.empty()) {
      fmt::print(stderr, "rope-kv-bench: error: --dump {}: {}\n", inv.dump_dir, why);
      return kExitUsage;
    }
  InterruptGuard interrupt;
  Report report = report_header(inv, "validate");
  report.device = query_device_info();
  report.run.mem_clock_mhz = report.device.mem_clock_mhz;
  const ValidateOptions options = validate_options(inv);
  ValidationScratch scratch;
  Progress progress(inv.plan.cases.size());
  std::size_t done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  CaseValidation spent;  // phase times summed over the sweep
  bool context_lost = false;
  for (const CaseSpec& spec : inv.plan.cases) {
    if (interrupted()) break;
    CaseResult r;
    r.id = spec.id();
    r.spec = spec;
    r.repro = repro_line("validate", spec);
    const CaseValidation v = validate_spec(spec, options, scratch);
    apply_validation(r, v);
    for (auto [sum, add] : {std::pair{&spent.inputs_s, v.inputs_s},
                            {&spent.kernels_s, v.kernels_s},
                            {&spent.device_compare_s, v.device_compare_s},
                            {&spent.golden_s, v.golden_s},
                            {&spent.host_compare_s, v.host_compare_s}})
      *sum += add;
    progress.update(++done, fmt::format("{} {}", r.id, to_string(r.validation)));
    report.cases.push_back(std::move(r));
    // Out of memory ends one case (recorded `failed`, the sweep goes on); a sticky error would
    // fail every later case for a reason not theirs, so the sweep ends here.
    if (v.reach == CudaFailureReach::sticky) {
      fmt::print(stderr,
                 "rope-kv-bench: error: sticky CUDA error in case {} ({}); the CUDA context is "
                 "unusable, so the sweep ends after {} of {} cases and the report is incomplete\n",
                 spec.id(), v.detail, done, inv.plan.cases.size());
      context_lost = true;
      break;
    }
  }
  fmt::print(stderr,
             "validated {} cases in {:.1f} s (downloads {:.1f} s, kernels {:.1f} s, device compare "
             "{:.1f} s, golden {:.1f} s, host compare {:.1f} s)\n",
             done, seconds_since(t0), spent.inputs_s, spent.kernels_s, spent.device_compare_s,
             spent.golden_s, spent.host_compare_s);
  report.complete = report.cases.size() == inv.plan.cases.size();
  fmt::print("{}", render_validation_table(
                       report, inv.markdown ? TableFormat::markdown : TableFormat::text));
  write_outputs(inv, report);
  if (context_lost) return 2;  // the failed case is in the report; exit as for any failure
  if (!report.complete) {
    fmt::print(stderr, "rope-kv-bench: interrupted after {} of {} cases\n", report.cases.size(),
               inv.plan.cases.size());
    return 130;
  }
  return all_passed(report) ? 0 : 2;
}

int run_bench(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  InterruptGuard interrupt;
  const auto t0 = std::chrono::steady_clock::now();
  Report report = report_header(inv, "bench");
  report.device = query_device_info();
  report.run.mem_clock_mhz = report.device.mem_clock_mhz;
  report.device.copy_bandwidth_gbps = measure_copy_bandwidth_gbps();
  Timer timer(inv.timing, report.device);
  if (!timer.settle_clock())
    fmt::print(stderr,
               "note: the SM clock did not hold 90 % of its maximum ({} MHz) within 1 s; "
               "throttled_samples will say how far below it the run was\n",
               report.device.sm_clock_max_mhz);
  // The floors are measured at the start and again at the end, and the lower one is kept: a
  // floor is what no variant of the run can go below, wherever in the run it was timed.
  const auto measure_floors = [&] {
    for (TimingMode mode : inv.timing.modes)
      report.device.launch_floor_runs_us[to_string(mode)].push_back(
          timer.launch_floor_us(mode, kCaseVariants));
  };
  measure_floors();
  const std::vector<BenchCase> cases = run_bench_passes(inv, timer, report.device);
  for (const BenchCase& c : cases)  // the SM clocks the run saw, for the run metadata
    for (const auto& pass_list : c.samples)
      for (const auto& pass : pass_list)
        for (const VariantSamples& v : pass)
          report.run.sm_clock_seen.add(v.sm_clock_mhz);
  if (!interrupted() && !context_lost()) measure_floors();
  for (const auto& [mode, runs] : report.device.launch_floor_runs_us)
    report.device.launch_floor_us[mode] = *std::min_element(runs.begin(), runs.end());
  report.device.cold_event_pair_us = timer.cold_event_pair_us();
  add_bench_rows(report, cases, inv.timing, inv.keep_samples);
  report.complete = !interrupted() && !context_lost();
  const TableFormat format = inv.markdown ? TableFormat::markdown : TableFormat::text;
  fmt::print("{}", render_speedup_tables(report, format));
  if (!all_passed(report)) fmt::print("{}", render_validation_table(report, format));
  write_outputs(inv, report);
  const int passes = inv.timing.passes;
  fmt::print(stderr, "{} cases{} in {:.1f} s\n", inv.plan.cases.size(),
             passes > 1 ? fmt::format(" x {} passes", passes) : "", seconds_since(t0));
  if (context_lost()) return 2;  // the failed case is in the report; exit as for any failure
  if (!report.complete) return 130;
  return all_passed(report) ? 0 : 2;
}

int run_profile(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  for (const CaseSpec& spec : inv.plan.cases) {
    DeviceCase dc(spec);
    dc.make_pristine_qkv();
    const std::vector<TimedVariant> variants = case_variants(dc, SlotAssignment::straight());
    // Warm up outside the capture range so module loading stays out of the profile.
    for (const TimedVariant& v : variants)
      cuda_check(v.launch(nullptr), "warm-up of " + v.name);
    cuda_check(cudaDeviceSynchronize(), "warm-up");
    cuda_check(cudaProfilerStart(), "cudaProfilerStart");
    for (Variant wanted : inv.variants) {
      for (const TimedVariant& v : variants) {
        if (v.name != to_string(wanted)) continue;
        NvtxRange range(v.name + "|" + spec.id());
        for (int k = 0; k < inv.launches; ++k) {
          v.refresh->before(1, nullptr);  // a copy between launches, seen in a timeline
          cuda_check(v.launch(nullptr), "launching " + v.name);
        }
        cuda_check(cudaDeviceSynchronize(), v.name);
      }
    }
    cuda_check(cudaProfilerStop(), "cudaProfilerStop");
    fmt::print("profiled {}: {} launches of {}\n", spec.id(), inv.launches,
               to_string(inv.variants));
  }
  return 0;
}

}  // namespace rkv
