// rope-kv-gbench: the same cases as `rope-kv-bench bench`, registered as Google Benchmark
// benchmarks, for users who live in that ecosystem (--benchmark_filter, repetitions, its JSON and
// its compare.py). One benchmark iteration is one launch: each pass of the loop replays a CUDA
// graph of kGraphLaunches launches, counts them as that many iterations (KeepRunningBatch) and
// reports the replay's event time as their manual time, so the Time column is per launch and
// --benchmark_min_time means GPU time, not tens of thousands of host round trips. Bytes
// processed are the operation's minimum bytes, so bytes_per_second is the achieved bandwidth.
//
//   rope-kv-gbench --config configs/seed-table.json --benchmark_filter='fused\|.*N=1$'
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/error_text.h"
#include "cli/gbench_flags.h"
#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "plan/variant.h"
#include "plan/workload.h"
#include "report/build_info.h"
#include "rope_kv.h"
#include "run/case_variants.h"
#include "text/quote.h"
#include "timing/input_refresh.h"
#include "unfused_pair.h"

namespace rkv {
namespace {

constexpr int kGraphLaunches = 20;

// Buffers are built when a case's first benchmark runs, so a filtered run allocates only what it
// times, and shared by that case's variants. One case is resident at a time: the benchmarks of a
// case are registered, so run, back to back. main() releases it before exit: a static holding
// device buffers would otherwise outlive the device-block pool they return to.
std::shared_ptr<DeviceCase>& resident_case() {
  static std::shared_ptr<DeviceCase> resident;
  return resident;
}

std::shared_ptr<DeviceCase> case_buffers(const CaseSpec& spec) {
  std::shared_ptr<DeviceCase>& resident = resident_case();
  if (!resident || resident->plan.spec.id() != spec.id()) {
    resident.reset();  // free the previous case's buffers before allocating the next
    resident = std::make_shared<DeviceCase>(spec);
    resident->make_pristine_qkv();  // the refresh's source (run_case)
  }
  return resident;
}

// The fused kernel writes slot a's outputs, the pair slot b's (one case, one assignment).
OutputSlot slot_of(Variant variant) {
  return variant == Variant::fused ? OutputSlot::a : OutputSlot::b;
}

cudaError_t launch_variant(Variant variant, const DeviceCase& dc, cudaStream_t s) {
  switch (variant) {
    case Variant::fused:
      return rope_kv_fused(dc.args(OutputSlot::a), s);
    case Variant::pair:
      return unfused_pair(dc.args(OutputSlot::b), s);
    case Variant::rope:
      return rope_inplace(dc.args(OutputSlot::b), s);
    case Variant::cache_write:
      return cache_write(dc.args(OutputSlot::b), s);
  }
  return cudaErrorInvalidValue;
}

void run_case(benchmark::State& state, const CaseSpec& spec, Variant variant) {
  try {
    const std::shared_ptr<DeviceCase> dc = case_buffers(spec);
    const Stream stream;
    const CapturedGraph graph(
        stream.get(), kGraphLaunches,
        [&](cudaStream_t s) { return launch_variant(variant, *dc, s); }, to_string(variant));
    EventPair events;
    // In-place rotation drifts q/k over tens of thousands of launches (timing/input_refresh.h);
    // each benchmark starts from pristine inputs and restores them outside the timed replays.
    const std::shared_ptr<InputRefresh> refresh = input_refresh_of(*dc, slot_of(variant));
    while (state.KeepRunningBatch(kGraphLaunches)) {
      refresh->before(kGraphLaunches, stream.get());
      events.start(stream.get());
      graph.replay(stream.get());
      events.stop(stream.get());
      state.SetIterationTime(events.elapsed_ms() * 1e-3);  // for the batch's kGraphLaunches
    }
    state.SetBytesProcessed(state.iterations() * min_bytes_moved(dc->plan, dc->host));
    state.counters["graph_launches"] = kGraphLaunches;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace
}  // namespace rkv

namespace {

constexpr const char* kPrefix = "rope-kv-gbench: error: ";

int fail(const std::string& line) {
  std::fprintf(stderr, "%s%s\n", kPrefix, line.c_str());
  return rkv::kExitUsage;
}

// parse_cli speaks as rope-kv-bench; the user ran rope-kv-gbench.
std::string as_gbench(std::string message) {
  const std::string bench_prefix = "rope-kv-bench: error: ";
  if (message.rfind(bench_prefix, 0) == 0) message.replace(0, bench_prefix.size(), kPrefix);
  return message;
}

}  // namespace

int main(int argc, char** argv) {
  // Every argument is checked before the GPU is looked for: a typo must not read "no GPU".
  const std::vector<std::string> given(argv + 1, argv + argc);
  if (const auto problem = rkv::gbench_args_problem(given)) return fail(rkv::one_line(*problem));
  benchmark::Initialize(&argc, argv);  // takes the --benchmark_* flags, leaves ours
  // The same version and revision as rope-kv-bench's reports, in the JSON output's "context".
  benchmark::AddCustomContext("rope_kv_bench_version", rkv::tool_version());
  benchmark::AddCustomContext("rope_kv_bench_build", rkv::version_line());
  std::vector<const char*> args{argv[0], "bench"};
  for (int i = 1; i < argc; ++i)
    args.push_back(argv[i]);
  const rkv::ParseOutcome parsed = rkv::parse_cli(static_cast<int>(args.size()), args.data());
  if (!parsed.invocation) {
    std::fputs(as_gbench(parsed.message).c_str(), parsed.exit_code == 0 ? stdout : stderr);
    return parsed.exit_code;
  }
  if (parsed.invocation->dry_run) {
    std::fputs(rkv::format_plan(parsed.invocation->plan).c_str(), stdout);
    const std::string problem = rkv::stdout_problem();
    return problem.empty() ? 0 : fail(problem);
  }
  if (const std::string problem = rkv::cuda_device_problem(); !problem.empty())
    return fail(problem + " (needs an NVIDIA GPU)");
  for (const rkv::CaseSpec& spec : parsed.invocation->plan.cases)
    for (rkv::Variant variant : rkv::all_variants())
      benchmark::RegisterBenchmark(
          fmt::format("{}|{}", rkv::to_string(variant), spec.id()).c_str(),
          [spec, variant](benchmark::State& s) { rkv::run_case(s, spec, variant); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  rkv::resident_case().reset();
  benchmark::Shutdown();
  const std::string problem = rkv::stdout_problem();
  return problem.empty() ? 0 : fail(problem);
}
