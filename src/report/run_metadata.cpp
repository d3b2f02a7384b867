#include "report/run_metadata.h"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "report/build_info.h"
#include "report/report.h"
#include "text/quote.h"

namespace rkv {
namespace {

using nlohmann::json;

// A clock in MHz: a positive number, or null for "not measured".
double mhz_of(const JsonField& v) {
  if (!v.is_null() && !v.is_number()) v.fail("expected a number or null, got " + v.describe());
  const double mhz = v.as_number_or_nan();
  if (std::isnan(mhz)) return mhz;
  if (!(mhz > 0)) v.fail(v.number_text() + " is not a positive clock");
  return mhz;
}

// "" or YYYY-MM-DDTHH:MM:SSZ, the form utc_now_iso8601() and the build write.
bool is_utc_time_or_empty(const std::string& s) {
  const std::string shape = "dddd-dd-ddTdd:dd:ddZ";
  if (s.empty()) return true;
  if (s.size() != shape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i]) return false;
  return true;
}

bool is_hex(const std::string& s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// run.shard: count >= 1, indices non-empty, ascending, unique, within 1..count.
ShardInfo read_shard(const JsonField& j) {
  ShardInfo s;
  s.count = static_cast<int>(j.at("count").as_int(1, 1000000));
  s.planned_cases = j.at("planned_cases").as_int(0);
  const JsonField indices = j.at("indices");
  for (const JsonField& k : indices.elements()) {
    const int index = static_cast<int>(k.as_int(1, s.count));
    if (!s.indices.empty() && index <= s.indices.back())
      k.fail("shard indices are ascending and unique");
    s.indices.push_back(index);
  }
  if (s.indices.empty()) indices.fail("an empty array (a shard report names its shard)");
  return s;
}

}  // namespace

void ClockRange::add(const std::vector<double>& mhz) {
  for (double c : mhz) {
    if (!std::isfinite(c)) continue;
    if (!(c >= min_mhz)) min_mhz = c;  // NaN compares false: the first sample sets both
    if (!(c <= max_mhz)) max_mhz = c;
  }
}

RunMetadata with_build_and_host(RunMetadata m) {
  m.git_commit_time_utc = git_commit_time_utc();
  m.git_branch = git_branch();
  m.git_dirty = git_dirty();
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) m.host = host;
  return m;
}

std::string fnv1a64_text(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // the FNV-1a 64-bit offset basis and prime
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

std::optional<std::string> file_fnv1a64(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return fnv1a64_text(bytes.str());
}

std::optional<std::string> tag_problem(const std::string& key, const std::string& value) {
  if (key.empty() || key.size() > 64) return "a tag key has 1 to 64 characters";
  for (char c : key)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.' || c == '-'))
      return "a tag key is made of letters, digits, '_', '.' and '-'";
  if (value.empty() || value.size() > 200) return "a tag value has 1 to 200 characters";
  for (char c : value)
    if (c < 0x20 || c > 0x7e) return "a tag value is printable ASCII";
  return std::nullopt;
}

std::optional<std::string> parse_tags(const std::vector<std::string>& texts,
                                      std::map<std::string, std::string>* tags) {
  for (const std::string& text : texts) {
    const auto eq = text.find('=');
    if (eq == std::string::npos) return "'" + text + "' is not key=value";
    const std::string key = text.substr(0, eq), value = text.substr(eq + 1);
    if (auto why = tag_problem(key, value)) return "'" + text + "': " + *why;
    if (!tags->emplace(key, value).second) return "'" + text + "': the key '" + key + "' repeats";
  }
  return std::nullopt;
}

void to_json(json& j, const RunMetadata& m) {
  j = json{{"git_commit_time_utc", m.git_commit_time_utc},
           {"git_branch", m.git_branch},
           {"git_dirty", m.git_dirty},
           {"config_path", m.config_path},
           {"config_name", m.config_name},
           {"config_hash", m.config_hash},
           {"tags", m.tags},
           {"host", m.host},
           {"sm_clock_mhz_min", m.sm_clock_seen.min_mhz},
           {"sm_clock_mhz_max", m.sm_clock_seen.max_mhz},
           {"mem_clock_mhz", m.mem_clock_mhz}};
  if (m.shard.sharded())
    j["shard"] = json{{"indices", m.shard.indices},
                      {"count", m.shard.count},
                      {"planned_cases", m.shard.planned_cases}};
}

// Every constraint docs/report-schema.json states for "run" is checked here, so the reader
// refuses what the schema refuses (docs/report.md, "Schema version 2").
RunMetadata read_run_metadata(const JsonField& j) {
  RunMetadata m;
  const JsonField time = j.at("git_commit_time_utc");
  m.git_commit_time_utc = time.as_string();
  if (!is_utc_time_or_empty(m.git_commit_time_utc))
    time.fail(quote(m.git_commit_time_utc) + " is not \"\" or YYYY-MM-DDTHH:MM:SSZ");
  m.git_branch = j.at("git_branch").as_string();
  m.git_dirty = j.at("git_dirty").as_bool();
  m.config_path = j.at("config_path").as_string();
  m.config_name = j.at("config_name").as_string();
  const JsonField hash = j.at("config_hash");
  m.config_hash = hash.as_string();
  const std::string prefix = "fnv1a64:";
  if (!m.config_hash.empty() &&
      (m.config_hash.size() != prefix.size() + 16 || m.config_hash.rfind(prefix, 0) != 0 ||
       !is_hex(m.config_hash.substr(prefix.size()))))
    hash.fail(quote(m.config_hash) + " is not \"\" or fnv1a64:<16 hex digits>");
  for (const JsonField& tag : j.at("tags").members()) {
    const std::string value = tag.as_string();
    if (auto why = tag_problem(tag.key(), value)) tag.fail(*why);
    m.tags[tag.key()] = value;
  }
  m.host = j.at("host").as_string();
  m.sm_clock_seen.min_mhz = mhz_of(j.at("sm_clock_mhz_min"));
  m.sm_clock_seen.max_mhz = mhz_of(j.at("sm_clock_mhz_max"));
  m.mem_clock_mhz = static_cast<int>(j.at("mem_clock_mhz").as_int(0, 1 << 30));
  if (auto shard = j.find("shard")) m.shard = read_shard(*shard);
  return m;
}

}  // namespace rkv
