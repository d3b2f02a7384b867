// The report as JSON (docs/report-schema.json is the contract): the to_json of each struct, and
// the report written whole or not at all.
#include <cmath>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "report/report.h"
#include "stats/speedup_interval.h"

namespace rkv {

using nlohmann::json;

void to_json(json& j, const Summary& s) {
  j = json{{"n", s.n},          {"median_us", s.median}, {"q1_us", s.q1},
           {"q3_us", s.q3},     {"min_us", s.min},       {"max_us", s.max},
           {"mean_us", s.mean}, {"stdev_us", s.stdev},   {"rel_noise", s.rel_noise()}};
}

void to_json(json& j, const SpeedupEstimate& s) {
  j = json{{"median", s.median},
           {"lo", s.lo},
           {"hi", s.hi},
           {"pass_medians", s.pass_medians},
           {"interval_method", s.interval_method}};
  if (s.interval_method == kPassSpreadMachineMethod) j["center"] = s.center;
}

void to_json(json& j, const TimingOptions& t) {
  json modes = json::array();
  for (TimingMode m : t.modes)
    modes.push_back(to_string(m));
  j = json{{"modes", modes},
           {"min_samples", t.min_samples},
           {"max_noise", t.max_noise},
           {"min_time_s", t.min_time_s},
           {"timeout_s", t.timeout_s},
           {"warmup_s", t.warmup_s},
           {"warmup_min", t.warmup_min},
           {"graph_launches", t.graph_launches},
           {"wall_launches", t.wall_launches},
           {"batch_launches", t.batch_launches},
           {"passes", t.passes},
           {"order", to_string(t.order)},
           {"producer_read_mib", t.producer_read_mib}};
  // Only with a rule: each case row's `mode` says which of `modes` it was timed in.
  if (!t.modes_by_tokens.empty()) {
    json rule = json::array();
    for (const TokenModes& r : t.modes_by_tokens) {
      json range{{"min_tokens", r.min_tokens}};
      if (r.max_tokens != TokenModes::kNoMax) range["max_tokens"] = r.max_tokens;
      json names = json::array();
      for (TimingMode m : r.modes)
        names.push_back(to_string(m));
      range["modes"] = names;
      rule.push_back(range);
    }
    j["modes_by_tokens"] = rule;
  }
}

void to_json(json& j, const DeviceInfo& d) {
  j = json{{"name", d.name},
           {"uuid", d.uuid},
           {"sm_count", d.sm_count},
           {"l2_bytes", d.l2_bytes},
           {"cc_major", d.cc_major},
           {"cc_minor", d.cc_minor},
           {"sm_clock_max_mhz", d.sm_clock_max_mhz},
           {"mem_clock_mhz", d.mem_clock_mhz},
           {"mem_bus_bits", d.mem_bus_bits},
           {"driver_version", d.driver_version},
           {"runtime_version", d.runtime_version},
           {"copy_bandwidth_gbps", d.copy_bandwidth_gbps},
           {"launch_floor_us", d.launch_floor_us},
           {"fingerprint", d.fingerprint()}};
  if (!d.launch_floor_runs_us.empty()) j["launch_floor_runs_us"] = d.launch_floor_runs_us;
  if (std::isfinite(d.cold_event_pair_us)) j["cold_event_pair_us"] = d.cold_event_pair_us;
}

void to_json(json& j, const VariantResult& v) {
  to_json(j, v.us);  // the statistics sit beside the variant's name: cases[i].variants[k].median_us
  j["variant"] = v.variant;
  j["stop_reason"] = v.stop_reason;
  j["throttled_samples"] = v.throttled_samples;
  j["sm_clock_mhz_median"] = v.sm_clock_mhz_median;
  j["passes"] = v.passes;
  if (!v.output_slots.empty()) j["output_slots"] = v.output_slots;
  if (!v.raw_us.empty()) j["raw_us"] = v.raw_us;
  if (v.producer_us) j["producer_us"] = *v.producer_us;
}

void to_json(json& j, const CaseResult& c) {
  j = json{{"id", c.id},
           {"spec", c.spec},
           {"mode", c.mode},
           {"validation",
            {{"disposition", to_string(c.validation)},
             {"mismatches", c.mismatches},
             {"first_mismatch", c.first_mismatch},
             {"detail", c.detail}}},
           {"variants", c.variants},
           {"speedup", c.speedup ? json(*c.speedup) : json(nullptr)},
           {"min_bytes", c.min_bytes},
           {"floor_us", c.floor_us},
           {"fused_gbps", c.fused_gbps},
           {"fused_pct_of_bandwidth", c.fused_pct_of_bandwidth},
           {"repro", c.repro}};
  if (c.producer_floor_us) j["producer_floor_us"] = *c.producer_floor_us;
  if (c.producer_copy_floor_us) j["producer_copy_floor_us"] = *c.producer_copy_floor_us;
  if (c.fused_launch) {
    j["fused_launch"] = json{{"kernel", c.fused_launch->kernel},
                             {"role_major", c.fused_launch->role_major},
                             {"ctas", c.fused_launch->ctas},
                             {"threads", c.fused_launch->threads}};
    if (c.fused_launch->compact) j["fused_launch"]["compact"] = *c.fused_launch->compact;
  }
  if (!c.buffer_addresses.empty()) {
    json passes = json::array();
    for (const BufferAddresses& pass : c.buffer_addresses) {
      json of_pass = json::object();
      for (const auto& [name, address] : pass)
        of_pass[name] = fmt::format("0x{:x}", address);  // hex text: addresses exceed 2^53
      passes.push_back(std::move(of_pass));
    }
    j["buffer_addresses"] = std::move(passes);
  }
}

void to_json(json& j, const Report& r) {
  // What this binary writes is the current version, whatever version it was read from.
  j = json{{"schema_version", kReportSchemaVersion},
           {"tool", "rope-kv-bench"},
           {"tool_version", r.tool_version},
           {"git_revision", r.git_revision},
           {"created_utc", r.created_utc},
           {"argv", r.argv},
           {"command", r.command},
           {"complete", r.complete},
           {"device", r.device},
           {"timing", r.timing},
           {"cases", r.cases},
           {"run", r.run}};
}

std::string report_to_string(const Report& r) {
  // Strings come from argv and error texts; invalid UTF-8 in them is replaced (U+FFFD) rather
  // than failing the whole report at the end of a run.
  return json(r).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void write_report_atomically(const Report& r, const std::string& path) {
  // Serialized first: nothing touches the disk when that fails.
  write_file_atomically(path, report_to_string(r), "report");
}

}  // namespace rkv
