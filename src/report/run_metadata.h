// What a report says about the run beyond its measurements (schema version 2, key "run"): the
// build's commit time, branch and dirty flag, the sweep config's path, name and content hash, the
// user's --tag key=value pairs, the host, and the SM and memory clocks seen. Dashboards and
// `history` sort and label runs by it.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "json/json_field.h"

namespace rkv {

// The lowest and highest SM clock measured before any timed sample of the run (the timer probes
// the clock before each sample); NaN (null in JSON) when nothing was timed.
struct ClockRange {
  double min_mhz = std::numeric_limits<double>::quiet_NaN();
  double max_mhz = std::numeric_limits<double>::quiet_NaN();
  void add(const std::vector<double>& mhz);
};

// `bench --shard K/N` ran the planned cases whose index i (0-based, in planned order, after
// --filter) has i % N == K - 1. A shard report has indices {K}; `merge` writes the indices of
// every shard it merged. planned_cases: the whole sweep's case count, before sharding.
struct ShardInfo {
  std::vector<int> indices;  // 1-based, ascending, each at most count
  int count = 0;             // N; 0 = not sharded (the key is absent)
  std::int64_t planned_cases = 0;
  bool sharded() const { return count > 0; }
  bool operator==(const ShardInfo& o) const {
    return indices == o.indices && count == o.count && planned_cases == o.planned_cases;
  }
};

struct RunMetadata {
  std::string git_commit_time_utc;          // of the built revision; "" when built outside git
  std::string git_branch;                   // "" when detached or outside git
  bool git_dirty = false;                   // built from a tree with uncommitted changes
  std::string config_path;                  // --config as given; "" when none
  std::string config_name;                  // the config's "name"
  std::string config_hash;                  // "fnv1a64:<16 hex digits>" of the config file's bytes
  std::map<std::string, std::string> tags;  // --tag key=value
  std::string host;                         // gethostname()
  ClockRange sm_clock_seen;
  int mem_clock_mhz = 0;  // the device's memory clock as CUDA reports it (not sampled per launch)
  ShardInfo shard;        // key "shard", absent when the run was not sharded
};

// The build's git fields (build_info.h) and this host's name, on top of `m`.
RunMetadata with_build_and_host(RunMetadata m);

// FNV-1a, 64 bits, of `bytes`, as "fnv1a64:" and 16 lowercase hex digits: a content fingerprint
// that tells two config files apart (not a cryptographic hash).
std::string fnv1a64_text(const std::string& bytes);
// The same of a file's bytes; nullopt when it cannot be read.
std::optional<std::string> file_fnv1a64(const std::string& path);

// Tags are for grouping runs: keys are 1-64 of [A-Za-z0-9_.-], values 1-200 printable ASCII
// characters. Why the pair is refused, or nullopt. The CLI and the report reader share this rule.
std::optional<std::string> tag_problem(const std::string& key, const std::string& value);

// `--tag` texts ("key=value") into tags; the problem names the tag. Repeating a key is refused.
std::optional<std::string> parse_tags(const std::vector<std::string>& texts,
                                      std::map<std::string, std::string>* tags);

void to_json(nlohmann::json& j, const RunMetadata& m);
// Throws JsonError naming the key path under `j` (e.g. run.tags.x).
RunMetadata read_run_metadata(const JsonField& j);

}  // namespace rkv
