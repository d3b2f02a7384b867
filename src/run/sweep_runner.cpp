#include "run/sweep_runner.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <cuda_profiler_api.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nvtx3/nvToolsExt.h>

#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_info.h"
#include "plan/workload.h"
#include "report/build_info.h"
#include "report/exit_codes.h"
#include "report/tables.h"
#include "rope_kv.h"
#include "timing/timer.h"
#include "timing/variant_samples.h"
#include "unfused_pair.h"
#include "validate/validator.h"

namespace rkv {
namespace {

// Ctrl-C ends the sweep after the case in flight; what was measured is written, marked incomplete.
std::atomic<bool> g_interrupted{false};
extern "C" void on_sigint(int) {
  g_interrupted.store(true);
}

struct SigintGuard {
  void (*previous)(int);
  SigintGuard() : previous(std::signal(SIGINT, on_sigint)) {}
  ~SigintGuard() { std::signal(SIGINT, previous); }
};

// One line per case on stderr; rewritten in place on a terminal.
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), tty_(isatty(STDERR_FILENO) != 0) {}
  void update(std::size_t done, const std::string& what) {
    std::string line = fmt::format("[{}/{}] {}", done, total_, what);
    if (tty_)
      fmt::print(stderr, "\r\033[K{}", line);
    else
      fmt::print(stderr, "{}\n", line);
    std::fflush(stderr);
  }
  ~Progress() {
    if (tty_) fmt::print(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool tty_;
};

// RAII NVTX range, named by the variant and the case id (benchmarking.md, "Profiling").
struct NvtxRange {
  explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~NvtxRange() { nvtxRangePop(); }
};

Report report_header(const RunRequest& inv, const char* command) {
  Report r;
  r.tool_version = tool_version();
  r.git_revision = git_revision();
  r.created_utc = utc_now_iso8601();
  r.argv = inv.argv;
  r.command = command;
  r.timing = inv.timing;
  r.run = with_build_and_host(inv.run_metadata);
  return r;
}

ValidateOptions validate_options(const RunRequest& inv) {
  ValidateOptions o;
  o.golden_sample_tokens = inv.golden_sample_tokens > 0 ? inv.golden_sample_tokens : INT32_MAX;
  o.threads = inv.threads;
  o.dump_dir = inv.dump_dir;
  o.plant_error_at = inv.plant_error_at;
  return o;
}

std::string repro_line(const char* command, const CaseSpec& spec) {
  return fmt::format("rope-kv-bench {} {}", command, spec.repro_args());
}

void apply_validation(CaseResult& r, const CaseValidation& v) {
  r.validation = v.disposition;
  r.mismatches = v.mismatches;
  r.first_mismatch = v.first_mismatch;
  r.detail = v.detail;
}

void write_outputs(const RunRequest& inv, const Report& report) {
  if (!inv.json_out.empty()) {
    write_report_atomically(report, inv.json_out);
    fmt::print(stderr, "wrote {}\n", inv.json_out);
  }
  if (!inv.csv_out.empty()) {
    std::ofstream f(inv.csv_out);
    f << render_csv(report);
    if (!f) throw std::runtime_error("cannot write " + inv.csv_out);
  }
}

bool all_passed(const Report& r) {
  for (const CaseResult& c : r.cases)
    if (c.validation != Disposition::passed && c.validation != Disposition::not_supported &&
        c.validation != Disposition::skipped)
      return false;
  return true;
}

// The launch variants timed for every case: the fused kernel, the pair, and each kernel of the
// pair alone (so a user sees where the pair's time goes).
std::vector<TimedVariant> case_variants(const DeviceCase& dc) {
  const RopeKvArgs fused = dc.fused_args(), pair = dc.pair_args();
  return {{"fused", [fused](cudaStream_t s) { return rope_kv_fused(fused, s); }},
          {"pair", [pair](cudaStream_t s) { return unfused_pair(pair, s); }},
          {"rope", [pair](cudaStream_t s) { return rope_inplace(pair, s); }},
          {"cache_write", [pair](cudaStream_t s) { return cache_write(pair, s); }}};
}

// One case of a bench sweep across its passes: what pass 0 decided (validation, bytes) and every
// pass's samples, per timing mode.
struct BenchCase {
  CaseResult base;
  bool timed = false;  // validated (or not asked to be) and timed without an error so far
  std::vector<std::vector<std::vector<VariantSamples>>> samples;  // [mode][pass][variant]
};

// The case's row in one mode, from the passes it was timed in.
CaseResult case_row(const BenchCase& c, std::size_t mode_index, TimingMode mode,
                    const DeviceInfo& device) {
  CaseResult r = c.base;
  r.mode = to_string(mode);
  if (!c.timed || mode_index >= c.samples.size() || c.samples[mode_index].empty()) return r;
  const auto& passes = c.samples[mode_index];
  for (std::size_t v = 0; v < passes.front().size(); ++v) {
    std::vector<VariantSamples> of_variant;
    for (const auto& pass : passes)
      of_variant.push_back(pass[v]);
    r.variants.push_back(summarize_passes(of_variant, device.sm_clock_max_mhz));
  }
  r.floor_us = static_cast<double>(r.min_bytes) / (device.copy_bandwidth_gbps * 1e3);
  const VariantResult* fused = r.find_variant("fused");
  const VariantResult* pair = r.find_variant("pair");
  if (fused != nullptr && fused->us.median > 0) {
    r.fused_gbps = static_cast<double>(r.min_bytes) / (fused->us.median * 1e3);
    r.fused_pct_of_bandwidth = 100.0 * r.fused_gbps / device.copy_bandwidth_gbps;
  }
  if (fused != nullptr && pair != nullptr)
    r.speedup = pooled_speedup(pair->us, fused->us, pair->passes, fused->passes);
  return r;
}

int no_gpu_exit() {
  const std::string problem = cuda_device_problem();
  if (problem.empty()) return 0;
  fmt::print(stderr, "rope-kv-bench: error: validate, bench and profile need an NVIDIA GPU: {}\n",
             problem);
  return kExitUsage;
}

}  // namespace

int run_validate(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  SigintGuard sigint;
  Report report = report_header(inv, "validate");
  report.device = query_device_info();
  report.run.mem_clock_mhz = report.device.mem_clock_mhz;
  const ValidateOptions options = validate_options(inv);
  Progress progress(inv.plan.cases.size());
  std::size_t done = 0;
  const auto t0 = std::chrono::steady_clock::now();
  CaseValidation spent;  // phase times summed over the sweep
  for (const CaseSpec& spec : inv.plan.cases) {
    if (g_interrupted.load()) break;
    CaseResult r;
    r.id = spec.id();
    r.spec = spec;
    r.repro = repro_line("validate", spec);
    const CaseValidation v = validate_spec(spec, options);
    apply_validation(r, v);
    for (auto [sum, add] : {std::pair{&spent.inputs_s, v.inputs_s},
                            {&spent.kernels_s, v.kernels_s},
                            {&spent.device_compare_s, v.device_compare_s},
                            {&spent.golden_s, v.golden_s},
                            {&spent.host_compare_s, v.host_compare_s}})
      *sum += add;
    progress.update(++done, fmt::format("{} {}", r.id, to_string(r.validation)));
    report.cases.push_back(std::move(r));
  }
  fmt::print(stderr,
             "validated {} cases in {:.1f} s (downloads {:.1f} s, kernels {:.1f} s, device compare "
             "{:.1f} s, golden {:.1f} s, host compare {:.1f} s)\n",
             done, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
             spent.inputs_s, spent.kernels_s, spent.device_compare_s, spent.golden_s,
             spent.host_compare_s);
  report.complete = report.cases.size() == inv.plan.cases.size();
  fmt::print("{}", render_validation_table(
                       report, inv.markdown ? TableFormat::markdown : TableFormat::text));
  write_outputs(inv, report);
  if (!report.complete) {
    fmt::print(stderr, "rope-kv-bench: interrupted after {} of {} cases\n", report.cases.size(),
               inv.plan.cases.size());
    return 130;
  }
  return all_passed(report) ? 0 : 2;
}

int run_bench(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  SigintGuard sigint;
  const auto t0 = std::chrono::steady_clock::now();
  Report report = report_header(inv, "bench");
  report.device = query_device_info();
  report.device.copy_bandwidth_gbps = measure_copy_bandwidth_gbps();
  report.run.mem_clock_mhz = report.device.mem_clock_mhz;
  Timer timer(inv.timing, report.device);
  for (TimingMode mode : inv.timing.modes)
    report.device.launch_floor_us[to_string(mode)] = timer.launch_floor_us(mode);

  const ValidateOptions options = validate_options(inv);
  const std::vector<CaseSpec>& specs = inv.plan.cases;
  const int passes = inv.timing.passes;
  const std::vector<TimingMode>& modes = inv.timing.modes;
  Progress progress(specs.size() * passes);
  std::size_t done = 0;
  std::vector<BenchCase> cases(specs.size());
  // Pass-major: every case once, then every case again, so a case's passes lie a sweep apart.
  for (int pass = 0; pass < passes && !g_interrupted.load(); ++pass) {
    for (std::size_t i = 0; i < specs.size() && !g_interrupted.load(); ++i) {
      const CaseSpec& spec = specs[i];
      BenchCase& c = cases[i];
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
          if (inv.validate_first) apply_validation(c.base, validate_case(dc, options));
          // Mismatching kernels are not timed: a fast wrong answer is not a result.
          c.timed = !inv.validate_first || c.base.validation == Disposition::passed;
          c.samples.resize(modes.size());
        }
        // Odd passes give the fused kernel the pair's output buffers and the pair the fused
        // kernel's: where the buffers landed is then sampled across passes, not fixed per run.
        if (pass % 2 == 1) std::swap(dc.fused, dc.pair);
        for (std::size_t m = 0; m < modes.size() && c.timed; ++m) {
          c.samples[m].push_back(timer.sample(modes[m], case_variants(dc)));
          for (const VariantSamples& v : c.samples[m].back())
            report.run.sm_clock_seen.add(v.sm_clock_mhz);
          const CaseResult so_far = case_row(c, m, modes[m], report.device);
          line += fmt::format(" {}: {:.2f}x ({:.2f} us)", so_far.mode, so_far.speedup->median,
                              so_far.find_variant("fused")->us.median);
        }
      } catch (const std::exception& e) {
        c.timed = false;  // a case that failed in any pass reports the failure, not a partial time
        c.base.validation = Disposition::failed;
        c.base.detail = passes > 1 ? fmt::format("pass {}: {}", pass + 1, e.what()) : e.what();
        line = " failed: " + c.base.detail;
      }
      const std::string which = passes > 1 ? fmt::format("pass {}/{} ", pass + 1, passes) : "";
      progress.update(++done, which + c.base.id + line);
    }
  }
  for (const BenchCase& c : cases) {
    if (c.base.id.empty()) continue;                 // interrupted before this case's first pass
    if (c.base.validation == Disposition::failed) {  // threw: one row saying why
      report.cases.push_back(c.base);
      continue;
    }
    for (std::size_t m = 0; m < modes.size(); ++m)
      report.cases.push_back(case_row(c, m, modes[m], report.device));
  }
  report.complete = !g_interrupted.load();
  const TableFormat format = inv.markdown ? TableFormat::markdown : TableFormat::text;
  fmt::print("{}", render_speedup_tables(report, format));
  if (!all_passed(report)) fmt::print("{}", render_validation_table(report, format));
  write_outputs(inv, report);
  fmt::print(stderr, "{} cases{} in {:.1f} s\n", specs.size(),
             passes > 1 ? fmt::format(" x {} passes", passes) : "",
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!report.complete) return 130;
  return all_passed(report) ? 0 : 2;
}

int run_profile(const RunRequest& inv) {
  if (const int e = no_gpu_exit()) return e;
  for (const CaseSpec& spec : inv.plan.cases) {
    DeviceCase dc(spec);
    const std::vector<TimedVariant> variants = case_variants(dc);
    // Warm up outside the capture range so module loading stays out of the profile.
    for (const TimedVariant& v : variants)
      cuda_check(v.launch(nullptr), "warm-up of " + v.name);
    cuda_check(cudaDeviceSynchronize(), "warm-up");
    cuda_check(cudaProfilerStart(), "cudaProfilerStart");
    for (const std::string& wanted : inv.variants) {
      for (const TimedVariant& v : variants) {
        if (v.name != wanted) continue;
        NvtxRange range(v.name + "|" + spec.id());
        for (int k = 0; k < inv.launches; ++k)
          cuda_check(v.launch(nullptr), "launching " + v.name);
        cuda_check(cudaDeviceSynchronize(), v.name);
      }
    }
    cuda_check(cudaProfilerStop(), "cudaProfilerStop");
    fmt::print("profiled {}: {} launches of {}\n", spec.id(), inv.launches,
               fmt::join(inv.variants, ", "));
  }
  return 0;
}

}  // namespace rkv
