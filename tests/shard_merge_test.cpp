// Timing modes per token range (plan/token_modes.h), bench --shard and `merge` (report/
// report_merge.h), on CPU-made reports: a sweep split into shards and merged back is the sweep.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "plan/sweep_config.h"
#include "plan/token_modes.h"
#include "report/report_merge.h"
#include "report_fixture.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using testing::base_report;
using testing::timed_case;

// The committed config, by absolute path: CTest runs the tests outside the source tree.
const std::string kConfig = std::string(RKV_SOURCE_DIR) + "/configs/never-slower.json";

const char* kRuleConfig = R"({"axes": {"tokens": [1, 8, 2048, 16384]},
  "timing": {"modes_by_tokens": [{"min_tokens": 2048, "modes": ["cold"]},
                                 {"max_tokens": 2047, "modes": ["graph", "warm"]}]}})";

TEST(TokenModes, ConfigRuleSortsRangesAndModesIsTheUnion) {
  SweepConfig cfg;
  ASSERT_FALSE(parse_sweep_config(kRuleConfig, "x.json", &cfg));
  ASSERT_EQ(cfg.timing.modes_by_tokens.size(), 2u);
  EXPECT_EQ(cfg.timing.modes_by_tokens[0].max_tokens, 2047);
  EXPECT_EQ(cfg.timing.modes,
            (std::vector<TimingMode>{TimingMode::graph, TimingMode::warm, TimingMode::cold}));
  EXPECT_EQ(modes_for_tokens(cfg.timing, 8),
            (std::vector<TimingMode>{TimingMode::graph, TimingMode::warm}));
  EXPECT_EQ(modes_for_tokens(cfg.timing, 2048), std::vector<TimingMode>{TimingMode::cold});
  EXPECT_EQ(modes_for_tokens(cfg.timing, 1 << 20), std::vector<TimingMode>{TimingMode::cold});
}

TEST(TokenModes, UncoveredTokensIsTheSmallestCaseOutsideEveryRange) {
  TimingOptions t;
  set_token_modes(t,
                  {{1, 100, {TimingMode::graph}}, {4096, TokenModes::kNoMax, {TimingMode::cold}}});
  std::vector<CaseSpec> cases(3);
  cases[0].tokens = 8;
  cases[1].tokens = 3000;
  cases[2].tokens = 2048;
  EXPECT_EQ(uncovered_tokens(t, cases), std::optional<std::int64_t>(2048));
  EXPECT_EQ(uncovered_tokens(TimingOptions{}, cases), std::nullopt);  // no rule: all covered
  EXPECT_EQ(token_range_text(t.modes_by_tokens[1]), "4096+");
}

TEST(TokenModes, ModeFlagReplacesTheRule) {
  const char* argv[] = {"rope-kv-bench", "bench", "--config", kConfig.c_str(),
                        "--mode",        "warm",  "--dry-run"};
  const ParseOutcome out = parse_cli(7, argv);
  ASSERT_TRUE(out.invocation) << out.message;
  EXPECT_TRUE(out.invocation->timing.modes_by_tokens.empty());
  EXPECT_EQ(out.invocation->timing.modes, std::vector<TimingMode>{TimingMode::warm});
}

TEST(TokenModes, ReportKeepsTheRuleAndRefusesARowOutsideIt) {
  Report r = base_report();
  set_token_modes(r.timing,
                  {{1, 2047, {TimingMode::graph}}, {2048, TokenModes::kNoMax, {TimingMode::cold}}});
  r.cases = {timed_case(DType::bf16, CacheDType::auto_, 8, 1, "graph", 4, 2),
             timed_case(DType::bf16, CacheDType::auto_, 8, 4096, "cold", 40, 30)};
  const nlohmann::json j = r;
  EXPECT_EQ(j["timing"]["modes"], nlohmann::json({"graph", "cold"}));
  EXPECT_EQ(j["timing"]["modes_by_tokens"][1],
            nlohmann::json({{"min_tokens", 2048}, {"modes", {"cold"}}}));
  Report back;
  from_json(j, back);
  EXPECT_EQ(back.timing.modes_by_tokens, r.timing.modes_by_tokens);

  nlohmann::json wrong = j;
  wrong["cases"][1]["mode"] = "graph";
  try {
    from_json(wrong, back);
    FAIL() << "a graph row at 4096 tokens was read";
  } catch (const ReportFormatError& e) {
    EXPECT_STREQ(e.what(), "cases[1].mode: 'graph' is not a mode of the token range 2048+ (cold)");
  }
  nlohmann::json not_union = j;
  not_union["timing"]["modes"] = {"graph"};
  EXPECT_THROW(from_json(not_union, back), ReportFormatError);
}

TEST(Shard, EveryPlannedCaseIsInExactlyOneShard) {
  const char* argv[] = {"rope-kv-bench", "bench", "--config", kConfig.c_str(), "--dry-run"};
  const ParseOutcome whole = parse_cli(5, argv);
  ASSERT_TRUE(whole.invocation) << whole.message;
  const std::vector<CaseSpec>& all = whole.invocation->plan.cases;
  EXPECT_EQ(all.size(), 864u);  // configs/never-slower.json's description says so
  std::vector<int> seen(all.size(), 0);
  for (int k = 1; k <= 5; ++k) {
    const std::string flag = std::to_string(k) + "/5";
    const char* sharded[] = {"rope-kv-bench", "bench",   "--config",  kConfig.c_str(),
                             "--dry-run",     "--shard", flag.c_str()};
    const ParseOutcome out = parse_cli(7, sharded);
    ASSERT_TRUE(out.invocation) << out.message;
    const RunMetadata& run = out.invocation->run_metadata;
    EXPECT_EQ(run.shard.indices, std::vector<int>{k});
    EXPECT_EQ(run.shard.count, 5);
    EXPECT_EQ(run.shard.planned_cases, 864);
    const std::vector<CaseSpec>& part = out.invocation->plan.cases;
    for (std::size_t i = 0; i < part.size(); ++i) {
      const std::size_t at = static_cast<std::size_t>(k - 1) + 5 * i;  // i % N == K - 1
      ASSERT_LT(at, all.size());
      EXPECT_EQ(part[i].id(), all[at].id());
      ++seen[at];
    }
  }
  for (int n : seen)
    EXPECT_EQ(n, 1);
}

// Three shards of a six-case sweep, each timed in the mode of its token range.
std::vector<MergeInput> shards(int count = 3) {
  const std::int64_t tokens[] = {1, 8, 2048, 16384, 128, 65536};
  std::vector<MergeInput> out;
  for (int k = 1; k <= count; ++k) {
    Report r = base_report();
    set_token_modes(
        r.timing, {{1, 2047, {TimingMode::graph}}, {2048, TokenModes::kNoMax, {TimingMode::cold}}});
    r.run.shard = {{k}, count, 6};
    r.run.host = "host" + std::to_string(k % 2);
    r.run.sm_clock_seen.add({1900.0 + k, 1950.0 + k});
    r.device.launch_floor_runs_us = {{"graph", {1.0 + k}}};
    for (int p = k - 1; p < 6; p += count)
      r.cases.push_back(timed_case(DType::bf16, CacheDType::auto_, 8, tokens[p],
                                   tokens[p] < 2048 ? "graph" : "cold", 4, 2));
    out.push_back({"shard-" + std::to_string(k) + ".json", r});
  }
  return out;
}

TEST(Merge, ShardsComeBackInPlannedOrder) {
  std::vector<MergeInput> in = shards();
  std::swap(in[0], in[2]);  // the order of the inputs does not matter
  const Report m = merge_reports(in, false);
  std::vector<std::int64_t> order;
  for (const CaseResult& c : m.cases)
    order.push_back(c.spec.tokens);
  EXPECT_EQ(order, (std::vector<std::int64_t>{1, 8, 2048, 16384, 128, 65536}));
  EXPECT_EQ(m.run.shard.indices, (std::vector<int>{1, 2, 3}));
  EXPECT_TRUE(m.complete);
  EXPECT_EQ(m.run.host, "host0,host1");
  EXPECT_EQ(m.run.sm_clock_seen.min_mhz, 1901);
  EXPECT_EQ(m.run.sm_clock_seen.max_mhz, 1953);
  EXPECT_EQ(m.device.launch_floor_us.at("graph"), 2.0);
  EXPECT_EQ(m.device.uuid, in[0].report.device.uuid);  // every shard on one GPU
  // What merge writes reads back (the reader's checks of the mode rule included).
  Report back;
  from_json(nlohmann::json(m), back);
  EXPECT_EQ(back.cases.size(), 6u);
}

TEST(Merge, ShardsOnSeveralGpusLeaveTheGpuUnknown) {
  std::vector<MergeInput> in = shards();
  in[2].report.device.uuid = "GPU-00000000-1111-2222-3333-444444444444";  // same kind, other board
  EXPECT_EQ(merge_reports(in, false).device.uuid, "");
}

std::string refusal(const std::vector<MergeInput>& in, bool allow_partial = false) {
  try {
    merge_reports(in, allow_partial);
  } catch (const ReportMergeError& e) {
    return e.what();
  }
  return "merged";
}

TEST(Merge, RefusesInputsOfAnotherRun) {
  std::vector<MergeInput> in = shards();
  in[1].report.git_revision = "def5678";
  EXPECT_EQ(refusal(in),
            "merge: 'shard-2.json': another run than 'shard-1.json': git_revision 'def5678' vs "
            "'abc1234-dirty'");
  in = shards();
  in[2].report.device.driver_version = "999";
  EXPECT_NE(refusal(in).find("'shard-3.json': another run than 'shard-1.json': device"),
            std::string::npos);
  in = shards();
  in[2].report.timing.passes = 5;
  EXPECT_NE(refusal(in).find("another run than 'shard-1.json': timing"), std::string::npos);
  in = shards();
  in[1].report.run.config_hash = "fnv1a64:0000000000000001";
  EXPECT_NE(refusal(in).find("config_hash"), std::string::npos);
  in = shards();
  in[1].report.tool_version = "9.9";
  EXPECT_NE(refusal(in).find("tool_version '9.9'"), std::string::npos);
}

TEST(Merge, RefusesDuplicatesMissingShardsAndUnshardedReports) {
  std::vector<MergeInput> in = shards();
  in.push_back(in[1]);
  in.back().path = "again.json";
  EXPECT_EQ(refusal(in), "merge: 'again.json': shard 2 of 3 is also in 'shard-2.json'");
  in = shards();
  in[2].report.cases.push_back(in[0].report.cases[0]);
  EXPECT_EQ(refusal(in), "merge: 'shard-3.json': case '" + in[0].report.cases[0].id +
                             "' (mode 'graph') is also in 'shard-1.json'");
  in = shards();
  in.erase(in.begin() + 1);
  EXPECT_EQ(refusal(in),
            "merge: shard 2 of 3 missing (merge every shard, or pass --allow-partial)");
  const Report partial = merge_reports(in, true);
  EXPECT_FALSE(partial.complete);
  EXPECT_EQ(partial.run.shard.indices, (std::vector<int>{1, 3}));
  in = shards();
  in[0].report.run.shard = ShardInfo{};
  EXPECT_EQ(refusal(in),
            "merge: 'shard-1.json': not a shard report (it has no run.shard; make shards with "
            "--shard K/N)");
}

// The shards and their merge as files, for the schema test (CTest's report_samples_write runs
// ReportSamples.* with RKV_REPORT_SAMPLE_DIR set; the files go to its shards/ folder so that the
// history and dashboard tests, which read the folder's own files, do not see them).
TEST(ReportSamples, ShardsAndTheirMergeReadBack) {
  const char* dir_env = std::getenv("RKV_REPORT_SAMPLE_DIR");
  const std::string dir =
      (dir_env && *dir_env ? std::string(dir_env) + "/" : per_process_temp_dir()) + "shards/";
  std::filesystem::create_directories(dir);
  std::vector<MergeInput> in = shards();
  for (MergeInput& s : in) {
    s.path = dir + s.path;
    write_report_atomically(s.report, s.path);
    s.report = read_report(s.path);
  }
  write_report_atomically(merge_reports(in, false), dir + "merged.json");
  const Report back = read_report(dir + "merged.json");
  EXPECT_EQ(back.cases.size(), 6u);
  EXPECT_EQ(back.run.shard.indices, (std::vector<int>{1, 2, 3}));
}

}  // namespace
}  // namespace rkv
