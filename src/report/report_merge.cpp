#include "report/report_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "text/quote.h"

namespace rkv {
namespace {

std::string named(const MergeInput& in) {
  return quote(in.path, kPathQuoteMax);
}

[[noreturn]] void refuse(const std::string& line) {
  throw ReportMergeError("merge: " + line);
}

// The first difference between `in` and the first input that makes them two runs, or "".
std::string run_difference(const Report& first, const Report& r) {
  auto differs = [](const char* what, const std::string& a, const std::string& b) {
    return a == b ? std::string() : std::string(what) + " " + quote(b) + " vs " + quote(a);
  };
  for (const std::string& d :
       {differs("tool_version", first.tool_version, r.tool_version),
        differs("git_revision", first.git_revision, r.git_revision),
        differs("command", first.command, r.command),
        differs("device", first.device.fingerprint(), r.device.fingerprint()),
        differs("timing", nlohmann::json(first.timing).dump(), nlohmann::json(r.timing).dump()),
        differs("config_hash", first.run.config_hash, r.run.config_hash),
        differs("shard count", std::to_string(first.run.shard.count),
                std::to_string(r.run.shard.count)),
        differs("planned_cases", std::to_string(first.run.shard.planned_cases),
                std::to_string(r.run.shard.planned_cases))})
    if (!d.empty()) return d;
  return "";
}

// A case's rows (one per mode) lie together; its planned position follows from the input's
// shards: the j-th case of an input holding shards S is the j-th position p with p % N + 1 in S.
struct CaseGroup {
  std::int64_t position;
  std::vector<const CaseResult*> rows;
};

void add_groups(const Report& r, std::vector<CaseGroup>& out) {
  const ShardInfo& s = r.run.shard;
  std::int64_t next = 0;  // the next planned position this input's shards hold
  auto advance = [&] {
    while (std::find(s.indices.begin(), s.indices.end(), next % s.count + 1) == s.indices.end())
      ++next;
  };
  advance();
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (i > 0 && r.cases[i].id == r.cases[i - 1].id) {
      out.back().rows.push_back(&r.cases[i]);
      continue;
    }
    out.push_back({next, {&r.cases[i]}});
    ++next;
    advance();
  }
}

}  // namespace

Report merge_reports(const std::vector<MergeInput>& inputs, bool allow_partial) {
  if (inputs.empty()) refuse("no reports to merge");
  for (const MergeInput& in : inputs)
    if (!in.report.run.shard.sharded())
      refuse(named(in) +
             ": not a shard report (it has no run.shard; make shards with --shard K/N)");
  const MergeInput& first = inputs.front();
  std::map<int, const MergeInput*> shard_owner;
  std::map<std::pair<std::string, std::string>, const MergeInput*> case_owner;
  for (const MergeInput& in : inputs) {
    if (&in != &first)
      if (const std::string d = run_difference(first.report, in.report); !d.empty())
        refuse(named(in) + ": another run than " + named(first) + ": " + d);
    for (int k : in.report.run.shard.indices)
      if (const auto [it, fresh] = shard_owner.emplace(k, &in); !fresh)
        refuse(named(in) + ": shard " + std::to_string(k) + " of " +
               std::to_string(first.report.run.shard.count) + " is also in " + named(*it->second));
    for (const CaseResult& c : in.report.cases)
      if (const auto [it, fresh] = case_owner.emplace(std::make_pair(c.id, c.mode), &in); !fresh)
        refuse(named(in) + ": case " + quote(c.id) + " (mode " + quote(c.mode) + ") is also in " +
               named(*it->second));
  }
  const int count = first.report.run.shard.count;
  std::vector<int> missing;
  for (int k = 1; k <= count; ++k)
    if (!shard_owner.count(k)) missing.push_back(k);
  if (!missing.empty() && !allow_partial) {
    std::string list;
    for (int k : missing)
      list += (list.empty() ? "" : ",") + std::to_string(k);
    refuse("shard" + std::string(missing.size() == 1 ? " " : "s ") + list + " of " +
           std::to_string(count) + " missing (merge every shard, or pass --allow-partial)");
  }

  Report out = first.report;
  out.cases.clear();
  out.run.shard.indices.clear();
  for (const auto& [k, owner] : shard_owner)
    out.run.shard.indices.push_back(k);
  std::set<std::string> hosts;
  std::vector<CaseGroup> groups;
  for (const MergeInput& in : inputs) {
    const Report& r = in.report;
    out.created_utc = std::max(out.created_utc, r.created_utc);  // ISO 8601 sorts as text
    out.complete = out.complete && r.complete;
    hosts.insert(r.run.host);
    // Shards timed on several boards: the merged run has no one GPU (compare then treats its
    // baseline as measured elsewhere, docs/ci.md).
    if (r.device.uuid != out.device.uuid) out.device.uuid.clear();
    if (&in != &first) {
      for (double mhz : {r.run.sm_clock_seen.min_mhz, r.run.sm_clock_seen.max_mhz})
        out.run.sm_clock_seen.add({mhz});
      for (const auto& [mode, runs] : r.device.launch_floor_runs_us)
        for (double us : runs)
          out.device.launch_floor_runs_us[mode].push_back(us);
    }
    add_groups(r, groups);
  }
  out.complete = out.complete && missing.empty();
  for (const auto& [mode, runs] : out.device.launch_floor_runs_us)
    if (!runs.empty())
      out.device.launch_floor_us[mode] = *std::min_element(runs.begin(), runs.end());
  out.run.host.clear();
  for (const std::string& h : hosts)
    out.run.host += (out.run.host.empty() ? "" : ",") + h;
  std::stable_sort(groups.begin(), groups.end(),
                   [](const CaseGroup& a, const CaseGroup& b) { return a.position < b.position; });
  for (const CaseGroup& g : groups)
    for (const CaseResult* c : g.rows)
      out.cases.push_back(*c);
  return out;
}

}  // namespace rkv
