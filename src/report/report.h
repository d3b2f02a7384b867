// The report: everything one `bench` or `validate` run measured, as plain structs, and their JSON
// (docs/report-schema.json is the contract, docs/report.md explains the keys). Tables, CSV and
// `compare` all read these structs, never the terminal output.
//
// Keys carry their unit (median_us, min_bytes, copy_bandwidth_gbps). A change that would make an
// old reader misread a report bumps kReportSchemaVersion; readers refuse any other version.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "device/device_info_model.h"
#include "plan/case_spec.h"
#include "plan/case_spec_json.h"
#include "plan/timing_options.h"
#include "plan/variant.h"
#include "report/run_metadata.h"
#include "stats/stats.h"
#include "timing/variant_result.h"
#include "validate/disposition.h"

namespace rkv {

inline constexpr int kReportSchemaVersion = 2;  // docs/report.md lists what each version added
inline constexpr int kOldestReadableSchemaVersion = 1;

// Where one pass's device buffers lay: (buffer name, device address) in name order, e.g.
// ("qkv_a", 0x7f3a00000000). Timings that change with placement (a slot that is slower than the
// other in every pass) can only be explained with these.
using BufferAddresses = std::vector<std::pair<std::string, std::uint64_t>>;

// The fused launch a case ran (rope_kv_fused_launch, kernels/rope_kv.h): which kernel, in which
// unit order, on how many CTAs. Tells an A/B which cases a change moved.
struct FusedLaunchRecord {
  std::string kernel;  // "row_warp", "decode_half", "decode_roles", "prefill_half", "wide",
                       // "flat_wide", ...
  bool role_major = false;
  std::int64_t ctas = 0, threads = 0;
  // Whether the kernel read compact parameter blocks (RopeKvFusedLaunch::compact); absent in
  // reports written before session 32, which did not record it.
  std::optional<bool> compact;
};

// One case in one timing mode (a `validate` report has one entry per case with mode "").
struct CaseResult {
  std::string id;  // CaseSpec::id()
  CaseSpec spec;
  std::string mode;  // to_string(TimingMode), or "" when not timed
  Disposition validation = Disposition::skipped;
  std::int64_t mismatches = 0;
  std::string first_mismatch;  // coordinates, e.g. "key_cache block 3 offset 5 head 2 dim 17"
  std::string detail;          // why failed / not_supported / skipped, one line
  std::vector<VariantResult> variants;
  std::optional<SpeedupEstimate> speedup;  // pair / fused; absent when either was not timed
  std::int64_t min_bytes = 0;              // the least the operation must move
  double floor_us = 0;                     // min_bytes / measured copy bandwidth
  double fused_gbps = 0;                   // min_bytes / fused median
  double fused_pct_of_bandwidth = 0;       // fused_gbps / copy_bandwidth_gbps * 100
  // The producer modes: what a consumer that only waits for the producer adds over it, median
  // of the passes' floors (Timer::producer_floor_us); absent in other modes and older reports.
  std::optional<double> producer_floor_us;
  // ... and of a consumer that after the wait reads the producer's output and writes it
  // (Timer::producer_copy_floor_us); absent where producer_floor_us is, and in older reports.
  std::optional<double> producer_copy_floor_us;
  // bench only, from this wave on: the launch of the fused kernel (absent in older reports and
  // where the runtime could not say).
  std::optional<FusedLaunchRecord> fused_launch;
  std::string repro;                              // one command line that reruns this case
  std::vector<BufferAddresses> buffer_addresses;  // [pass]; bench --samples only

  const VariantResult* find_variant(Variant v) const;  // nullptr when it was not timed
  // The raw samples of `variant`, [pass][sample] in microseconds per launch (VariantResult::
  // raw_us); nullptr when the variant is not there or the run did not keep them (bench --samples).
  const std::vector<std::vector<double>>* raw_samples_us(Variant variant) const;
};

struct Report {
  int schema_version = kReportSchemaVersion;
  std::string tool_version, git_revision;
  std::string created_utc;  // ISO 8601, e.g. 2025-01-31T12:00:00Z (utc_now_iso8601())
  std::vector<std::string> argv;
  std::string command;  // bench | validate
  DeviceInfo device;
  TimingOptions timing;
  std::vector<CaseResult> cases;
  bool complete = true;  // false when the run was interrupted and this is what was measured
  RunMetadata run;       // schema version 2; empty when read from a version 1 report
};

// A report that cannot be read: the message names the file or the key path, in one line.
struct ReportFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writing (report_write.cpp): each struct's JSON.
void to_json(nlohmann::json& j, const Summary& s);  // keys suffixed _us (samples are microseconds)
void to_json(nlohmann::json& j, const SpeedupEstimate& s);
// to_json(CaseSpec) is plan/case_spec_json.h's (dumps write the same keys).
void to_json(nlohmann::json& j, const TimingOptions& t);
void to_json(nlohmann::json& j, const DeviceInfo& d);
void to_json(nlohmann::json& j, const VariantResult& v);
void to_json(nlohmann::json& j, const CaseResult& c);
void to_json(nlohmann::json& j, const Report& r);
// Reading (report_read.cpp): throws ReportFormatError naming the key path.
void from_json(const nlohmann::json& j, Report& r);
// The `timing` object alone, as a report holds it (the history keeps it per run).
void from_json(const nlohmann::json& j, TimingOptions& t);

std::string report_to_string(const Report& r);  // pretty JSON, newline-terminated

// Writes `path` so that it is either the old file or the whole new report, never half of one
// (io/atomic_file.h). Throws std::runtime_error with one line naming the path and the cause.
void write_report_atomically(const Report& r, const std::string& path);

// Throws ReportFormatError naming the file: missing, unreadable, not JSON, another
// schema_version, or a key missing / of the wrong type (with its path, e.g. cases[3].spec.dtype).
Report read_report(const std::string& path);

std::string utc_now_iso8601();

}  // namespace rkv
