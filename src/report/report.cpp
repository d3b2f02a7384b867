#include "report/report.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/report_constraints.h"

namespace rkv {
namespace {

using nlohmann::json;

// ---- reading: every error names the key path it happened at ------------------------------------

[[noreturn]] void fail(const std::string& reason) {
  throw ReportFormatError(reason);
}

// Runs `f`; a ReportFormatError from inside is rethrown with `where` in front, so a message
// reads "cases[3].spec.dtype: unknown value 'bf17'" however deep it was found.
template <class F>
auto within(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const ReportFormatError& e) {
    // Messages start with a key path ("spec.dtype: ...") or are bare ("missing key 'x'"): a path
    // is the text before the first ": " when it holds no space.
    const std::string inner = e.what();
    const auto colon = inner.find(": ");
    const bool has_path = colon != std::string::npos && inner.find(' ') > colon;
    throw ReportFormatError(where + (has_path ? "." : ": ") + inner);
  }
}

const char* type_name(const json& v) {
  return v.type_name();
}

const json& at(const json& j, const std::string& key) {
  if (!j.is_object()) fail(std::string("expected an object, got ") + type_name(j));
  const auto it = j.find(key);
  if (it == j.end()) fail("missing key '" + key + "'");
  return *it;
}

template <class T>
T get(const json& j, const std::string& key);

template <>
std::string get<std::string>(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (!v.is_string()) fail(key + ": expected a string, got " + type_name(v));
  return v.get<std::string>();
}
template <>
bool get<bool>(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (!v.is_boolean()) fail(key + ": expected true or false, got " + type_name(v));
  return v.get<bool>();
}
template <>
std::int64_t get<std::int64_t>(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (!v.is_number_integer()) fail(key + ": expected an integer, got " + type_name(v));
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    fail(key + ": out of range");
  return v.get<std::int64_t>();
}
template <>
int get<int>(const json& j, const std::string& key) {
  const std::int64_t v = get<std::int64_t>(j, key);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    fail(key + ": out of range");
  return static_cast<int>(v);
}
template <>
std::uint64_t get<std::uint64_t>(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (!v.is_number_unsigned()) fail(key + ": expected a non-negative integer, got " + type_name(v));
  return v.get<std::uint64_t>();
}
// JSON has no NaN or infinity; nlohmann writes them as null, so null reads back as NaN.
template <>
double get<double>(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) fail(key + ": expected a number, got " + type_name(v));
  return v.get<double>();
}

// A sub-object or array element parsed with its own from_json, errors prefixed with its key.
template <class T>
T get_object(const json& j, const std::string& key) {
  const json& v = at(j, key);
  return within(key, [&] {
    T out;
    from_json(v, out);
    return out;
  });
}

template <class T>
std::vector<T> get_array(const json& j, const std::string& key) {
  const json& v = at(j, key);
  if (!v.is_array()) fail(key + ": expected an array, got " + type_name(v));
  std::vector<T> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out.push_back(within(key + "[" + std::to_string(i) + "]", [&] {
      T item;
      from_json(v[i], item);
      return item;
    }));
  }
  return out;
}

// An array of numbers (null reads as NaN) that older reports may lack: empty then.
std::vector<double> get_optional_numbers(const json& j, const std::string& key) {
  std::vector<double> out;
  if (!j.contains(key)) return out;
  const json& v = at(j, key);
  if (!v.is_array()) fail(key + ": expected an array, got " + type_name(v));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].is_null()) {
      out.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    if (!v[i].is_number())
      fail(key + "[" + std::to_string(i) + "]: expected a number, got " + type_name(v[i]));
    out.push_back(v[i].get<double>());
  }
  return out;
}

template <class E, class Parse>
E get_enum(const json& j, const std::string& key, Parse parse) {
  const std::string text = get<std::string>(j, key);
  const std::optional<E> value = parse(text);
  if (!value) fail(key + ": unknown value '" + text + "'");
  return *value;
}

// ---- the durable write
// ----------------------------------------------------------------------------

std::string errno_text() {
  return std::strerror(errno);
}

void write_all(int fd, const std::string& data) {
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;  // a Ctrl-C handler must not cost us the report
      throw std::runtime_error(errno_text());
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace

// ---- CaseResult helpers ------------------------------------------------------------------------

const VariantResult* CaseResult::find_variant(const std::string& name) const {
  for (const VariantResult& v : variants)
    if (v.variant == name) return &v;
  return nullptr;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// ---- JSON
// ------------------------------------------------------------------------------------------

void to_json(json& j, const Summary& s) {
  j = json{{"n", s.n},          {"median_us", s.median}, {"q1_us", s.q1},
           {"q3_us", s.q3},     {"min_us", s.min},       {"max_us", s.max},
           {"mean_us", s.mean}, {"stdev_us", s.stdev},   {"rel_noise", s.rel_noise()}};
}

void from_json(const json& j, Summary& s) {
  s.n = get<int>(j, "n");
  s.median = get<double>(j, "median_us");
  s.q1 = get<double>(j, "q1_us");
  s.q3 = get<double>(j, "q3_us");
  s.min = get<double>(j, "min_us");
  s.max = get<double>(j, "max_us");
  s.mean = get<double>(j, "mean_us");
  s.stdev = get<double>(j, "stdev_us");
  // rel_noise is derived from the quartiles; it is written for readers, not read back.
}

void to_json(json& j, const SpeedupEstimate& s) {
  j = json{{"median", s.median}, {"lo", s.lo}, {"hi", s.hi}, {"pass_medians", s.pass_medians}};
}

void from_json(const json& j, SpeedupEstimate& s) {
  s.median = get<double>(j, "median");
  s.lo = get<double>(j, "lo");
  s.hi = get<double>(j, "hi");
  s.pass_medians = get_optional_numbers(j, "pass_medians");
}

void to_json(json& j, const CaseSpec& s) {
  j = json{{"dtype", to_string(s.dtype)},
           {"cache_dtype", to_string(s.cache_dtype)},
           {"heads", s.heads.name()},
           {"style", to_string(s.style)},
           {"rot_dim", s.rot_dim},
           {"layout", s.layout.name()},
           {"tokens", s.tokens},
           {"block_size", s.block_size},
           {"scale", to_string(s.scale)},
           {"slots", to_string(s.slots)},
           {"query_out", to_string(s.query_out)},
           {"key_out", to_string(s.key_out)},
           {"cos_sin_fp32", s.cos_sin_fp32},
           {"seed", s.seed}};
}

void from_json(const json& j, CaseSpec& s) {
  s.dtype = get_enum<DType>(j, "dtype", parse_dtype);
  s.cache_dtype = get_enum<CacheDType>(j, "cache_dtype", parse_cache_dtype);
  s.heads = get_enum<HeadConfig>(j, "heads", HeadConfig::parse);
  s.style = get_enum<RopeStyle>(j, "style", parse_style);
  s.rot_dim = get<int>(j, "rot_dim");
  s.layout = get_enum<CacheLayout>(j, "layout", CacheLayout::parse);
  s.tokens = get<std::int64_t>(j, "tokens");
  s.block_size = get<int>(j, "block_size");
  s.scale = get_enum<ScaleKind>(j, "scale", parse_scale_kind);
  s.slots = get_enum<SlotMode>(j, "slots", parse_slot_mode);
  s.query_out = get_enum<QueryOut>(j, "query_out", parse_query_out);
  s.key_out = get_enum<KeyOut>(j, "key_out", parse_key_out);
  s.cos_sin_fp32 = get<bool>(j, "cos_sin_fp32");
  s.seed = get<std::uint64_t>(j, "seed");
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
           {"passes", t.passes}};
}

void from_json(const json& j, TimingOptions& t) {
  const json& modes = at(j, "modes");
  if (!modes.is_array()) fail("modes: expected an array, got " + std::string(type_name(modes)));
  t.modes.clear();
  for (std::size_t i = 0; i < modes.size(); ++i) {
    const std::string where = "modes[" + std::to_string(i) + "]";
    if (!modes[i].is_string()) fail(where + ": expected a string");
    const auto m = parse_timing_mode(modes[i].get<std::string>());
    if (!m) fail(where + ": unknown value '" + modes[i].get<std::string>() + "'");
    t.modes.push_back(*m);
  }
  t.min_samples = get<int>(j, "min_samples");
  t.max_noise = get<double>(j, "max_noise");
  t.min_time_s = get<double>(j, "min_time_s");
  t.timeout_s = get<double>(j, "timeout_s");
  t.warmup_s = get<double>(j, "warmup_s");
  t.warmup_min = get<int>(j, "warmup_min");
  t.graph_launches = get<int>(j, "graph_launches");
  t.wall_launches = get<int>(j, "wall_launches");
  t.batch_launches = get<int>(j, "batch_launches");
  t.passes = j.contains("passes") ? get<int>(j, "passes") : 1;  // added in 0.2, optional
}

void to_json(json& j, const DeviceInfo& d) {
  j = json{{"name", d.name},
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
}

void from_json(const json& j, DeviceInfo& d) {
  // Versions may have been written as the integers the CUDA API returns; keep their text.
  auto version = [&](const char* key) {
    const json& v = at(j, key);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    fail(std::string(key) + ": expected a string or an integer, got " + type_name(v));
  };
  d.name = get<std::string>(j, "name");
  d.sm_count = get<int>(j, "sm_count");
  d.l2_bytes = get<std::int64_t>(j, "l2_bytes");
  d.cc_major = get<int>(j, "cc_major");
  d.cc_minor = get<int>(j, "cc_minor");
  d.sm_clock_max_mhz = get<int>(j, "sm_clock_max_mhz");
  d.mem_clock_mhz = get<int>(j, "mem_clock_mhz");
  d.mem_bus_bits = get<int>(j, "mem_bus_bits");
  d.driver_version = version("driver_version");
  d.runtime_version = version("runtime_version");
  d.copy_bandwidth_gbps = get<double>(j, "copy_bandwidth_gbps");
  const json& floors = at(j, "launch_floor_us");
  if (!floors.is_object()) fail("launch_floor_us: expected an object");
  d.launch_floor_us.clear();
  for (auto it = floors.begin(); it != floors.end(); ++it)
    d.launch_floor_us[it.key()] =
        within("launch_floor_us", [&] { return get<double>(floors, it.key()); });
}

void to_json(json& j, const VariantResult& v) {
  to_json(j, v.us);  // the statistics sit beside the variant's name: cases[i].variants[k].median_us
  j["variant"] = v.variant;
  j["stop_reason"] = v.stop_reason;
  j["throttled_samples"] = v.throttled_samples;
  j["sm_clock_mhz_median"] = v.sm_clock_mhz_median;
  j["passes"] = v.passes;
}

void from_json(const json& j, VariantResult& v) {
  from_json(j, v.us);
  v.variant = get<std::string>(j, "variant");
  v.stop_reason = get<std::string>(j, "stop_reason");
  v.throttled_samples = get<int>(j, "throttled_samples");
  v.sm_clock_mhz_median = get<double>(j, "sm_clock_mhz_median");
  v.passes = j.contains("passes") ? get_array<Summary>(j, "passes") : std::vector<Summary>{};
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
}

void from_json(const json& j, CaseResult& c) {
  c.id = get<std::string>(j, "id");
  c.spec = get_object<CaseSpec>(j, "spec");
  c.mode = get<std::string>(j, "mode");
  within("validation", [&] {
    const json& v = at(j, "validation");
    c.validation = get_enum<Disposition>(v, "disposition", parse_disposition);
    c.mismatches = get<std::int64_t>(v, "mismatches");
    c.first_mismatch = get<std::string>(v, "first_mismatch");
    c.detail = get<std::string>(v, "detail");
  });
  c.variants = get_array<VariantResult>(j, "variants");
  if (at(j, "speedup").is_null())
    c.speedup.reset();
  else
    c.speedup = get_object<SpeedupEstimate>(j, "speedup");
  c.min_bytes = get<std::int64_t>(j, "min_bytes");
  c.floor_us = get<double>(j, "floor_us");
  c.fused_gbps = get<double>(j, "fused_gbps");
  c.fused_pct_of_bandwidth = get<double>(j, "fused_pct_of_bandwidth");
  c.repro = get<std::string>(j, "repro");
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

void from_json(const json& j, Report& r) {
  // The version first: a newer report must fail on its version, not on a renamed key.
  r.schema_version = get<int>(j, "schema_version");
  if (r.schema_version < kOldestReadableSchemaVersion || r.schema_version > kReportSchemaVersion)
    fail("schema_version is " + std::to_string(r.schema_version) + "; this rope-kv-bench reads " +
         std::to_string(kOldestReadableSchemaVersion) + " to " +
         std::to_string(kReportSchemaVersion));
  r.tool_version = get<std::string>(j, "tool_version");
  r.git_revision = get<std::string>(j, "git_revision");
  r.created_utc = get<std::string>(j, "created_utc");
  const json& argv = at(j, "argv");
  if (!argv.is_array()) fail("argv: expected an array");
  r.argv.clear();
  for (const json& a : argv) {
    if (!a.is_string()) fail("argv: expected strings");
    r.argv.push_back(a.get<std::string>());
  }
  r.command = get<std::string>(j, "command");
  r.complete = get<bool>(j, "complete");
  r.device = get_object<DeviceInfo>(j, "device");
  r.timing = get_object<TimingOptions>(j, "timing");
  r.cases = get_array<CaseResult>(j, "cases");
  if (r.schema_version >= 2) r.run = get_object<RunMetadata>(j, "run");
  check_report_constraints(j, r);  // what the schema states beyond the types read above
}

std::string report_to_string(const Report& r) {
  return json(r).dump(2) + "\n";
}

// ---- files
// -----------------------------------------------------------------------------------------

void write_report_atomically(const Report& r, const std::string& path) {
  namespace fs = std::filesystem;
  const std::string text = report_to_string(r);  // serialize first: nothing touches disk on error
  const fs::path target(path);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string tmp = path + ".tmp";
  auto error = [&](const std::string& what) {
    return std::runtime_error("cannot write report '" + path + "': " + what);
  };

  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw error("cannot create folder '" + parent.string() + "': " + ec.message());

  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw error("cannot create '" + tmp + "': " + errno_text());
  try {
    write_all(fd, text);
    // The data must be on disk before the rename makes it the report, or a crash could leave a
    // renamed but empty file.
    if (::fsync(fd) != 0) throw std::runtime_error("fsync: " + errno_text());
  } catch (const std::runtime_error& e) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw error(std::string("writing '") + tmp + "': " + e.what());
  }
  if (::close(fd) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw error("closing '" + tmp + "': " + why);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    throw error("renaming '" + tmp + "': " + why);
  }
  // Persist the rename itself; best effort (some filesystems refuse fsync on a folder).
  const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

Report read_report(const std::string& path) {
  auto error = [&](const std::string& what) {
    return ReportFormatError("report '" + path + "': " + what);
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw error("no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error(std::string("cannot open: ") + errno_text());
  std::stringstream buffer;
  buffer << in.rdbuf();

  json j;
  try {
    j = json::parse(buffer.str());
  } catch (const json::parse_error& e) {
    // nlohmann's message starts with "[json.exception.parse_error.101] "; keep the useful part.
    std::string what = e.what();
    const auto pos = what.find("] ");
    throw error("not valid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
  if (!j.is_object() || !j.contains("schema_version"))
    throw error("no schema_version (not a rope-kv-bench report?)");
  try {
    return j.get<Report>();
  } catch (const ReportFormatError& e) {
    throw error(e.what());
  }
}

}  // namespace rkv
