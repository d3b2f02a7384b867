// Reading a report back (compare, report): every value through JsonField, so an error names its
// key path, e.g. "cases[3].spec.dtype: unknown value 'bf17'". Keys this version does not know
// are left alone: a newer writer may add some without breaking older readers.
#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>

#include "json/json_field.h"
#include "json/json_text.h"
#include "plan/token_modes.h"
#include "report/report.h"
#include "report/report_checks.h"
#include "report/report_constraints.h"
#include "stats/speedup_interval.h"
#include "text/quote.h"

namespace rkv {
namespace {

// `added`: the statistics of a producer-mode variant, whose times may be negative.
Summary read_summary(const JsonField& j, bool added = false) {
  Summary s;
  s.n = j.at("n").as_int32();
  s.median = j.at("median_us").as_number_or_nan();
  s.q1 = j.at("q1_us").as_number_or_nan();
  s.q3 = j.at("q3_us").as_number_or_nan();
  s.min = j.at("min_us").as_number_or_nan();
  s.max = j.at("max_us").as_number_or_nan();
  s.mean = j.at("mean_us").as_number_or_nan();
  s.stdev = j.at("stdev_us").as_number_or_nan();
  // rel_noise is derived from the quartiles; it is written for readers, not read back.
  check_summary(j, s, added);
  return s;
}

SpeedupEstimate read_speedup(const JsonField& j) {
  SpeedupEstimate s;
  s.median = j.at("median").as_number_or_nan();
  s.lo = j.at("lo").as_number_or_nan();
  s.hi = j.at("hi").as_number_or_nan();
  if (auto passes = j.find("pass_medians"))  // reports before passes lack it
    for (const JsonField& m : passes->elements())
      s.pass_medians.push_back(m.as_number_or_nan());
  // Optional: reports without it made lo/hi as the quartile hull.
  if (auto method = j.find("interval_method")) {
    s.interval_method = method->as_string();
    if (s.interval_method != kPassSpreadMachineMethod && s.interval_method != kPassSpreadMethod &&
        s.interval_method != kQuartileHull)
      method->fail("unknown value " + quote(s.interval_method) +
                   " (expected pass_spread_machine, pass_spread or quartile_hull)");
  } else
    s.interval_method = kQuartileHull;
  // The interval's centre: written with (and only with) pass_spread_machine.
  if (s.interval_method == kPassSpreadMachineMethod) s.center = j.at("center").as_number_or_nan();
  check_speedup(j, s);
  return s;
}

CaseSpec read_spec(const JsonField& j) {
  CaseSpec s;
  s.dtype = j.at("dtype").as_enum(parse_dtype);
  s.cache_dtype = j.at("cache_dtype").as_enum(parse_cache_dtype);
  s.heads = j.at("heads").as_enum(HeadConfig::parse);
  s.style = j.at("style").as_enum(parse_style);
  s.rot_dim = j.at("rot_dim").as_int32();
  s.layout = j.at("layout").as_enum(CacheLayout::parse);
  s.tokens = j.at("tokens").as_int();
  s.block_size = j.at("block_size").as_int32();
  s.scale = j.at("scale").as_enum(parse_scale_kind);
  s.slots = j.at("slots").as_enum(parse_slot_mode);
  s.query_out = j.at("query_out").as_enum(parse_query_out);
  s.key_out = j.at("key_out").as_enum(parse_key_out);
  s.cos_sin_fp32 = j.at("cos_sin_fp32").as_bool();
  s.seed = j.at("seed").as_uint();
  // Optional: reports written before the edge-case axes have neither key; 0 is never written.
  if (const auto m = j.find("misalign")) s.misalign = static_cast<int>(m->as_int(1, kMaxMisalign));
  if (const auto v = j.find("values")) s.values = v->as_enum(parse_fill_values);
  return s;
}

TimingOptions read_timing(const JsonField& j) {
  TimingOptions t;
  t.modes.clear();
  for (const JsonField& m : j.at("modes").elements())
    t.modes.push_back(m.as_enum(parse_timing_mode));
  t.min_samples = j.at("min_samples").as_int32();
  t.max_noise = j.at("max_noise").as_number_or_nan();
  t.min_time_s = j.at("min_time_s").as_number_or_nan();
  t.timeout_s = j.at("timeout_s").as_number_or_nan();
  t.warmup_s = j.at("warmup_s").as_number_or_nan();
  t.warmup_min = j.at("warmup_min").as_int32();
  t.graph_launches = j.at("graph_launches").as_int32();
  t.wall_launches = j.at("wall_launches").as_int32();
  t.batch_launches = j.at("batch_launches").as_int32();
  if (auto passes = j.find("passes")) t.passes = passes->as_int32();  // added in 0.2
  // Optional: reports without it sampled in the fixed order.
  t.order = SampleOrder::fixed;
  if (auto order = j.find("order")) t.order = order->as_enum(parse_sample_order);
  // Optional: reports without it timed the producer modes after a producer that only wrote.
  if (auto read = j.find("producer_read_mib")) t.producer_read_mib = read->as_int32();
  // Optional: a run that timed each token range in its own modes. `modes` must be the rule's
  // union, so a reader of `modes` alone is not misled about which modes the run used.
  if (auto rule = j.find("modes_by_tokens")) {
    const std::vector<TimingMode> written = t.modes;
    set_token_modes(t, read_token_modes(*rule));
    if (t.modes != written)
      j.at("modes").fail("is not the union of modes_by_tokens' modes in order of first use");
  }
  return t;
}

DeviceInfo read_device(const JsonField& j) {
  // Versions may have been written as the integers the CUDA API returns; keep their text.
  auto version = [&](const char* key) {
    const JsonField v = j.at(key);
    if (v.is_integer()) return v.number_text();
    if (!v.is_string()) v.fail("expected a string or an integer, got " + v.describe());
    return v.as_string();
  };
  DeviceInfo d;
  d.name = j.at("name").as_string();
  if (auto uuid = j.find("uuid")) {  // optional: reports before it read as "" (GPU unknown)
    d.uuid = uuid->as_string();
    if (!is_gpu_uuid_or_empty(d.uuid))
      uuid->fail("expected \"GPU-\" and 8-4-4-4-12 lowercase hex digits, or \"\", got " +
                 quote(d.uuid));
  }
  d.sm_count = j.at("sm_count").as_int32();
  d.l2_bytes = j.at("l2_bytes").as_int();
  d.cc_major = j.at("cc_major").as_int32();
  d.cc_minor = j.at("cc_minor").as_int32();
  d.sm_clock_max_mhz = j.at("sm_clock_max_mhz").as_int32();
  d.mem_clock_mhz = j.at("mem_clock_mhz").as_int32();
  d.mem_bus_bits = j.at("mem_bus_bits").as_int32();
  d.driver_version = version("driver_version");
  d.runtime_version = version("runtime_version");
  d.copy_bandwidth_gbps = j.at("copy_bandwidth_gbps").as_number_or_nan();
  for (const JsonField& floor : j.at("launch_floor_us").members())
    d.launch_floor_us[floor.key()] = floor.as_number_or_nan();
  if (auto pair = j.find("cold_event_pair_us"))  // optional: cold samples net of the event pair
    d.cold_event_pair_us = pair->as_number_or_nan();
  if (auto runs = j.find("launch_floor_runs_us"))  // optional: each floor measurement, per mode
    for (const JsonField& mode : runs->members())
      for (const JsonField& us : mode.elements())
        d.launch_floor_runs_us[mode.key()].push_back(us.as_number_or_nan());
  return d;
}

// `added`: the case's mode is a producer mode (its times are added times).
VariantResult read_variant(const JsonField& j, bool added) {
  VariantResult v;
  v.us = read_summary(j, added);  // the statistics sit beside the variant's name
  v.variant = to_string(j.at("variant").as_enum(parse_variant));
  v.stop_reason = j.at("stop_reason").as_string();
  v.throttled_samples = j.at("throttled_samples").as_int32();
  v.sm_clock_mhz_median = j.at("sm_clock_mhz_median").as_number_or_nan();
  if (auto passes = j.find("passes"))  // reports before passes lack it
    for (const JsonField& p : passes->elements())
      v.passes.push_back(read_summary(p, added));
  // Optional (the producer modes): the producer-alone time the samples subtracted.
  if (auto producer = j.find("producer_us")) v.producer_us = read_summary(*producer);
  // Optional (bench --samples, and reports before output slots were recorded): empty when absent.
  if (auto slots = j.find("output_slots"))
    for (const JsonField& slot : slots->elements()) {
      const std::string name = slot.as_string();
      if (name != "a" && name != "b") slot.fail("expected \"a\" or \"b\", got " + quote(name));
      v.output_slots.push_back(name);
    }
  if (auto raw = j.find("raw_us"))
    for (const JsonField& pass : raw->elements()) {
      std::vector<double> us;
      for (const JsonField& x : pass.elements())
        us.push_back(x.as_number_or_nan());
      v.raw_us.push_back(std::move(us));
    }
  return v;
}

CaseResult read_case(const JsonField& j) {
  CaseResult c;
  c.id = j.at("id").as_string();
  c.spec = read_spec(j.at("spec"));
  c.mode = j.at("mode").as_string();
  const JsonField v = j.at("validation");
  c.validation = v.at("disposition").as_enum(parse_disposition);
  c.mismatches = v.at("mismatches").as_int();
  c.first_mismatch = v.at("first_mismatch").as_string();
  c.detail = v.at("detail").as_string();
  const std::optional<TimingMode> mode = parse_timing_mode(c.mode);
  const bool added = mode && is_producer_mode(*mode);
  for (const JsonField& e : j.at("variants").elements())
    c.variants.push_back(read_variant(e, added));
  const JsonField speedup = j.at("speedup");
  if (!speedup.is_null()) c.speedup = read_speedup(speedup);
  c.min_bytes = j.at("min_bytes").as_int();
  c.floor_us = j.at("floor_us").as_number_or_nan();
  c.fused_gbps = j.at("fused_gbps").as_number_or_nan();
  c.fused_pct_of_bandwidth = j.at("fused_pct_of_bandwidth").as_number_or_nan();
  c.repro = j.at("repro").as_string();
  // Optional (producer modes, from this wave on): the floor under the case's added times.
  if (auto floor = j.find("producer_floor_us")) c.producer_floor_us = floor->as_number_or_nan();
  if (auto floor = j.find("producer_copy_floor_us"))
    c.producer_copy_floor_us = floor->as_number_or_nan();
  // Optional (bench, from this wave on): the fused kernel's launch.
  if (auto launch = j.find("fused_launch")) {
    FusedLaunchRecord l;
    // The names docs/report-schema.json lists (fused_kernel_name, kernels/fused_launch.cpp).
    static const char* const kKernels[] = {
        "row_warp", "decode_half",      "decode_roles", "prefill_half", "wide",      "flat_wide",
        "strided",  "strided_rotating", "phased",       "flat",         "token_warp"};
    const JsonField kernel = launch->at("kernel");
    l.kernel = kernel.as_string();
    if (std::find(std::begin(kKernels), std::end(kKernels), l.kernel) == std::end(kKernels))
      kernel.fail(
          "expected a fused kernel's name (row_warp, decode_half, decode_roles, "
          "prefill_half, wide, flat_wide, strided, strided_rotating, phased, flat, token_warp), "
          "got " +
          quote(l.kernel));
    l.role_major = launch->at("role_major").as_bool();
    l.ctas = launch->at("ctas").as_int(1);
    l.threads = launch->at("threads").as_int(1);
    if (auto compact = launch->find("compact")) l.compact = compact->as_bool();
    c.fused_launch = std::move(l);
  }
  // Optional (bench --samples): each pass's buffer addresses, as "0x" and lower-case hex digits.
  if (auto passes = j.find("buffer_addresses"))
    for (const JsonField& pass : passes->elements()) {
      BufferAddresses of_pass;
      for (const JsonField& buffer : pass.members()) {  // "expected an object" otherwise
        const std::string text = buffer.as_string();
        const bool hex = text.size() > 2 && text.size() <= 18 && text.compare(0, 2, "0x") == 0 &&
                         text.find_first_not_of("0123456789abcdef", 2) == std::string::npos;
        if (!hex) buffer.fail("expected an address like \"0x7f3a00000000\", got " + quote(text));
        of_pass.emplace_back(buffer.key(), std::stoull(text.substr(2), nullptr, 16));
      }
      c.buffer_addresses.push_back(std::move(of_pass));
    }
  check_case(j, c);
  return c;
}

Report read_report_value(const JsonField& j) {
  Report r;
  // The version first: a newer report must fail on its version, not on a renamed key.
  r.schema_version = j.at("schema_version").as_int32();
  if (r.schema_version < kOldestReadableSchemaVersion || r.schema_version > kReportSchemaVersion)
    j.fail("schema_version is " + std::to_string(r.schema_version) + "; this rope-kv-bench reads " +
           std::to_string(kOldestReadableSchemaVersion) + " to " +
           std::to_string(kReportSchemaVersion));
  r.tool_version = j.at("tool_version").as_string();
  r.git_revision = j.at("git_revision").as_string();
  r.created_utc = j.at("created_utc").as_string();
  for (const JsonField& a : j.at("argv").elements())
    r.argv.push_back(a.as_string());
  r.command = j.at("command").as_string();
  r.complete = j.at("complete").as_bool();
  r.device = read_device(j.at("device"));
  r.timing = read_timing(j.at("timing"));
  const JsonField cases = j.at("cases");
  for (const JsonField& c : cases.elements())
    r.cases.push_back(read_case(c));
  if (r.schema_version >= 2) r.run = read_run_metadata(j.at("run"));
  check_report_constraints(j.value(), r);  // what the schema states beyond the types read above
  check_unique_cases(cases, r.cases);
  check_case_modes(cases, r.cases, r.timing);
  check_report_fields(j, r);
  return r;
}

}  // namespace

void from_json(const nlohmann::json& j, Report& r) {
  try {
    r = read_report_value(JsonField(j));
  } catch (const JsonError& e) {
    throw ReportFormatError(e.what());
  }
}

void from_json(const nlohmann::json& j, TimingOptions& t) {
  try {
    t = read_timing(JsonField(j));
  } catch (const JsonError& e) {
    throw ReportFormatError(e.what());
  }
}

Report read_report(const std::string& path) {
  const std::string where = "report " + quote(path, kPathQuoteMax) + ": ";
  try {
    const nlohmann::json j = read_json_file(path);
    if (!j.is_object() || !j.contains("schema_version"))
      throw ReportFormatError(where + "no schema_version (not a rope-kv-bench report?)");
    // `floor` writes its own kind of document (docs/report.md, "The floor report"): say so rather
    // than name the first bench key it lacks.
    if (const auto c = j.find("command"); c != j.end() && *c == "floor")
      throw ReportFormatError(where +
                              "a `floor` report, not a bench or validate report (its numbers "
                              "are in its JSON; report, compare and history take bench reports)");
    return read_report_value(JsonField(j));
  } catch (const JsonError& e) {
    throw ReportFormatError(where + e.what());
  } catch (const ReportFormatError& e) {  // a constraint of the schema, checked after reading
    const std::string what = e.what();
    if (what.rfind(where, 0) == 0) throw;  // already names the file
    throw ReportFormatError(where + what);
  }
}

}  // namespace rkv
