// The command line: what each command parses into, flags over config files, and every bad input
// ending in one line "rope-kv-bench: error: ..." with exit code 4.
#include "cli/cli.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <fstream>

#ifndef RKV_SOURCE_DIR
#error "RKV_SOURCE_DIR must name the repository root (CMake defines it)"
#endif

#include "cli_words.h"
#include "report/axes_list.h"
#include "temp_paths.h"

namespace rkv {
namespace {

ParseOutcome parse(const std::vector<std::string>& args) {
  return parse_words(args);
}

CliInvocation parse_ok(const std::vector<std::string>& args) {
  ParseOutcome out = parse(args);
  EXPECT_TRUE(out.invocation) << out.message;
  return out.invocation ? *out.invocation : CliInvocation{};
}

std::string config(const std::string& name) {
  return std::string(RKV_SOURCE_DIR) + "/configs/" + name;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = per_process_temp_dir() + "rkv_cli_" + name + ".json";
  std::ofstream(path) << text;
  return path;
}

const std::string kCase = "bf16|fp8_e4m3|32x8x128|neox|nhd|N=128";

TEST(Cli, SeedTableDryRunPlansThirtyTwoCases) {
  const CliInvocation inv = parse_ok({"bench", "--config", config("seed-table.json"), "--dry-run"});
  EXPECT_EQ(inv.command, Command::bench);
  EXPECT_TRUE(inv.dry_run);
  EXPECT_EQ(inv.config_name, "seed-table");
  ASSERT_EQ(inv.plan.cases.size(), 32u);
  EXPECT_EQ(inv.plan.cases.front().id(), "bf16|auto|32x32x128|neox|nhd|N=1");
  EXPECT_EQ(inv.plan.cases.back().id(), "fp16|fp8_e4m3|32x8x128|neox|nhd|N=2048");
  EXPECT_EQ(inv.timing.modes, std::vector<TimingMode>{TimingMode::graph});
  EXPECT_TRUE(inv.validate_first);
  EXPECT_EQ(inv.argv.size(), 5u);
  EXPECT_EQ(inv.argv[1], "bench");
}

TEST(Cli, AxisFlagsReplaceTheConfigsAxesOneByOne) {
  const CliInvocation inv =
      parse_ok({"bench", "--config", config("seed-table.json"), "--tokens", "1", "--dtype=fp16"});
  // dtype and tokens from the flags; cache dtype and heads still from the file.
  ASSERT_EQ(inv.plan.cases.size(), 4u);
  EXPECT_EQ(inv.plan.cases[0].id(), "fp16|auto|32x32x128|neox|nhd|N=1");
  EXPECT_EQ(inv.plan.cases[3].id(), "fp16|fp8_e4m3|32x8x128|neox|nhd|N=1");
}

TEST(Cli, TimingFlagsReplaceTheConfigsSettingsOneByOne) {
  const CliInvocation inv = parse_ok({"bench", "--config", config("ci-smoke.json"), "--min-samples",
                                      "20", "--max-noise", "1.5", "--mode", "cold,wall"});
  EXPECT_EQ(inv.timing.min_samples, 20);
  EXPECT_DOUBLE_EQ(inv.timing.max_noise, 0.015);
  EXPECT_DOUBLE_EQ(inv.timing.min_time_s, 0.01);  // from the file
  EXPECT_EQ(inv.timing.modes, (std::vector<TimingMode>{TimingMode::cold, TimingMode::wall}));
}

TEST(Cli, TheProducerModesAreModesOfTheModeFlag) {
  const CliInvocation inv = parse_ok({"bench", "--mode", "producer,producer_pdl,producer"});
  EXPECT_EQ(inv.timing.modes,
            (std::vector<TimingMode>{TimingMode::producer, TimingMode::producer_pdl}));
}

TEST(Cli, RepeatedAxisFlagsAddUp) {
  const CliInvocation inv = parse_ok({"validate", "--dtype", "bf16", "--dtype", "fp16,fp32",
                                      "--tokens", "pow2:1:4", "--tokens", "7"});
  EXPECT_EQ(inv.command, Command::validate);
  EXPECT_EQ(inv.axes.dtype, (std::vector<DType>{DType::bf16, DType::fp16, DType::fp32}));
  EXPECT_EQ(inv.axes.tokens, (std::vector<std::int64_t>{1, 2, 4, 7}));
  EXPECT_EQ(inv.plan.cases.size(), 12u);
}

TEST(Cli, NoFlagsIsTheDefaultCase) {
  const CliInvocation inv = parse_ok({"validate"});
  ASSERT_EQ(inv.plan.cases.size(), 1u);
  EXPECT_EQ(inv.plan.cases[0].id(), "bf16|auto|32x8x128|neox|nhd|N=1");
  EXPECT_EQ(inv.golden_sample_tokens, 2048);
  EXPECT_EQ(inv.threads, 0);
  EXPECT_FALSE(inv.dry_run);
}

TEST(Cli, CaseSelectsExactlyThoseCases) {
  const std::string other = "fp16|auto|mla:16|gptj|nhd|N=7|slots=padded";
  const CliInvocation inv = parse_ok({"bench", "--config", config("seed-table.json"), "--case",
                                      other, "--case", kCase, "--case", other});
  EXPECT_EQ(inv.case_ids.size(), 3u);
  ASSERT_EQ(inv.plan.cases.size(), 2u);  // the repeat is dropped
  EXPECT_EQ(inv.plan.cases[0].id(), other);
  EXPECT_EQ(inv.plan.cases[1].id(), kCase);
  EXPECT_EQ(inv.timing.modes, std::vector<TimingMode>{TimingMode::graph});  // file's timing kept
}

TEST(Cli, FilterNarrowsThePlan) {
  const CliInvocation inv = parse_ok(
      {"bench", "--config", config("seed-table.json"), "--filter", "32x8x128|neox|nhd|N=2048"});
  EXPECT_EQ(inv.plan.cases.size(), 4u);
  EXPECT_EQ(inv.filter, "32x8x128|neox|nhd|N=2048");
}

TEST(Cli, ValidateOptions) {
  const CliInvocation inv =
      parse_ok({"validate", "--json", "out.json", "--dump", "dumps", "--golden-sample-tokens", "0",
                "--threads", "8", "--markdown"});
  EXPECT_TRUE(inv.markdown);
  EXPECT_EQ(inv.json_out, "out.json");
  EXPECT_EQ(inv.dump_dir, "dumps");
  EXPECT_EQ(inv.golden_sample_tokens, 0);
  EXPECT_EQ(inv.threads, 8);
}

TEST(Cli, BenchOutputs) {
  const CliInvocation inv = parse_ok({"bench", "--json", "r.json", "--csv", "r.csv", "--markdown",
                                      "--no-validate", "--graph-launches", "50", "--timeout", "4",
                                      "--min-time", "0.5", "--warmup", "0.1"});
  EXPECT_EQ(inv.json_out, "r.json");
  EXPECT_EQ(inv.csv_out, "r.csv");
  EXPECT_TRUE(inv.markdown);
  EXPECT_FALSE(inv.validate_first);
  EXPECT_EQ(inv.timing.graph_launches, 50);
  EXPECT_DOUBLE_EQ(inv.timing.timeout_s, 4.0);
  EXPECT_DOUBLE_EQ(inv.timing.min_time_s, 0.5);
  EXPECT_DOUBLE_EQ(inv.timing.warmup_s, 0.1);
}

TEST(Cli, Profile) {
  CliInvocation inv = parse_ok({"profile", "--case", kCase});
  EXPECT_EQ(inv.command, Command::profile);
  EXPECT_EQ(inv.case_id, kCase);
  EXPECT_EQ(inv.launches, 10);
  EXPECT_EQ(inv.variants, (std::vector<Variant>{Variant::fused, Variant::pair}));
  ASSERT_EQ(inv.plan.cases.size(), 1u);
  EXPECT_EQ(inv.plan.cases[0].tokens, 128);
  inv = parse_ok(
      {"profile", "--case", kCase, "--launches", "3", "--variants", "pair,cache_write,pair"});
  EXPECT_EQ(inv.launches, 3);
  EXPECT_EQ(inv.variants, (std::vector<Variant>{Variant::pair, Variant::cache_write}));
}

TEST(Cli, Compare) {
  CliInvocation inv = parse_ok({"compare", "base.json", "cur.json"});
  EXPECT_EQ(inv.command, Command::compare);
  const CompareRequest& r = inv.compare;
  EXPECT_EQ(r.baseline_path, "base.json");
  EXPECT_EQ(r.current_path, "cur.json");
  EXPECT_FALSE(r.options.force);
  EXPECT_FALSE(r.options.allow_missing);
  EXPECT_EQ(r.options.gate, (std::vector<Gated>{Gated::fused}));
  EXPECT_DOUBLE_EQ(r.options.rule.resolution_us, 0.03);
  EXPECT_DOUBLE_EQ(r.options.rule.min_slowdown, 0.02);
  EXPECT_DOUBLE_EQ(r.options.rule.speedup_tolerance, 0.05);
  EXPECT_DOUBLE_EQ(r.options.rule.decode_machine_allowance, 0.08);
  EXPECT_EQ(r.options.machine_allowance, MachineAllowance::by_uuid);
  inv = parse_ok({"compare",
                  "a",
                  "b",
                  "--force",
                  "--max-slowdown-us",
                  "1",
                  "--speedup-tolerance",
                  "10",
                  "--refreshed-baseline",
                  "new.json",
                  "--markdown",
                  "c.md",
                  "--json",
                  "v.json",
                  "--gate",
                  "fused,pair,speedup,pair",
                  "--allow-missing",
                  "--all",
                  "--github",
                  "--min-slowdown",
                  "3",
                  "--accept",
                  "x,y",
                  "--accept",
                  "z",
                  "--rerun",
                  "again.json",
                  "--machine-allowance",
                  "off"});
  const CompareRequest& s = inv.compare;
  EXPECT_TRUE(s.options.force);
  EXPECT_TRUE(s.options.allow_missing);
  EXPECT_TRUE(s.all_rows);
  EXPECT_TRUE(s.github);
  EXPECT_DOUBLE_EQ(s.options.rule.resolution_us, 1.0);
  EXPECT_DOUBLE_EQ(s.options.rule.speedup_tolerance, 0.10);
  EXPECT_DOUBLE_EQ(s.options.rule.min_slowdown, 0.03);
  EXPECT_EQ(s.options.machine_allowance, MachineAllowance::off);
  EXPECT_EQ(parse_ok({"compare", "a", "b", "--machine-allowance", "on"})
                .compare.options.machine_allowance,
            MachineAllowance::on);
  EXPECT_EQ(s.options.gate, (std::vector<Gated>{Gated::fused, Gated::pair, Gated::speedup}));
  EXPECT_EQ(s.options.accept, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(s.refreshed_baseline_out, "new.json");
  EXPECT_EQ(s.markdown_out, "c.md");
  EXPECT_EQ(s.json_out, "v.json");
  EXPECT_EQ(s.rerun_path, "again.json");
}

TEST(Cli, ReportAndList) {
  CliInvocation inv = parse_ok({"report", "r.json"});
  EXPECT_EQ(inv.command, Command::report);
  EXPECT_EQ(inv.report_input, "r.json");
  EXPECT_EQ(inv.report_format, "markdown");
  EXPECT_EQ(parse_ok({"report", "r.json", "--format", "csv"}).report_format, "csv");
  EXPECT_EQ(parse_ok({"list"}).command, Command::list);
}

TEST(Cli, ListShowsEveryAxisFromTheTables) {
  const std::string text = list_text();
  for (const AxisInfo& a : axis_infos()) {
    EXPECT_NE(text.find(a.flag), std::string::npos) << a.flag;
    EXPECT_NE(text.find(allowed_values(a.axis)), std::string::npos) << a.flag;
  }
  EXPECT_NE(text.find("bf16, fp16, fp32  [default bf16]"), std::string::npos);
  EXPECT_NE(text.find("packed_hnd  KV:   [num_blocks, Hkv, block_size, 2*D]"), std::string::npos);
  EXPECT_NE(text.find("--mode"), std::string::npos);
}

TEST(Cli, HelpIsExitZeroWithText) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"bench", "--help"},
                                             {"validate", "-h"},
                                             {"compare", "--help"},
                                             {"profile", "--help"},
                                             {"report", "--help"},
                                             {"list", "--help"}}) {
    const ParseOutcome out = parse(args);
    EXPECT_FALSE(out.invocation);
    EXPECT_EQ(out.exit_code, 0);
    EXPECT_NE(out.message.find("Usage:"), std::string::npos) << args[0];
  }
  EXPECT_NE(parse({"bench", "--help"}).message.find("--graph-launches"), std::string::npos);
  EXPECT_NE(parse({"--help"}).message.find("validate"), std::string::npos);
}

struct BadInput {
  std::vector<std::string> args;
  std::vector<std::string> mentions;  // each must appear in the error line
};

TEST(Cli, EveryBadInputIsOneLineAndExitFour) {
  const std::string bad_json =
      write_temp("malformed", "{\n \"axes\": {\"dtype\": [\"bf16\" \"fp16\"]}\n}");
  const std::string unknown_key =
      write_temp("unknown", R"({"axes": {"dtype": ["bf16"]}, "timming": {}})");
  const std::string all_dropped = write_temp("dropped", R"({"extra_cases": [{"scale": "head"}]})");
  const std::string rot_too_big =
      write_temp("rot", R"({"axes": {"heads": "16x2x64", "rot_dim": 128}})");
  const std::vector<BadInput> cases = {
      {{"bench", "--dtype", "bf61"}, {"--dtype", "'bf61'", "bf16, fp16, fp32"}},
      {{"bench", "--cache-dtype", "int8"}, {"--cache-dtype", "'int8'"}},
      {{"bench", "--heads", "32x7x128"}, {"--heads", "32x7x128", "not a multiple of 7 kv heads"}},
      {{"bench", "--heads", "32x8"}, {"--heads", "'32x8'"}},
      {{"bench", "--heads", "32x8x1024"}, {"--heads", "32x8x1024", "larger than 512"}},
      {{"bench", "--rot-dim", "63"}, {"--rot-dim", "'63'", "odd"}},
      {{"bench", "--rot-dim", "256"}, {"--rot-dim", "'256'", "larger than every head size"}},
      {{"bench", "--heads", "16x2x64", "--rot-dim", "128"}, {"--rot-dim", "'128'", "largest 64"}},
      {{"bench", "--rot-dim", "quarter"}, {"--rot-dim", "'quarter'"}},
      {{"bench", "--heads", "32x8x90", "--rot-dim", "half"}, {"no cases", "rot=45", "odd"}},
      {{"bench", "--tokens", "5:1"}, {"--tokens", "'5:1'", "start 5 is after end 1"}},
      {{"bench", "--tokens", "a:b"}, {"--tokens", "'a:b'"}},
      {{"bench", "--tokens", "pow2:3:1"}, {"--tokens", "'pow2:3:1'"}},
      {{"bench", "--tokens", "pow2:5:7"}, {"--tokens", "'pow2:5:7'", "no power of two"}},
      {{"bench", "--tokens", "0"}, {"--tokens", "'0'", "out of range"}},
      {{"bench", "--tokens", "1,,8"}, {"--tokens", "'1,,8'", "empty value"}},
      {{"bench", "--tokens"}, {"--tokens"}},
      {{"bench", "--block-size", "0"}, {"--block-size", "'0'"}},
      {{"bench", "--seed", "-1"}, {"--seed", "'-1'"}},
      {{"bench", "--style", "gpt-j"}, {"--style", "'gpt-j'", "neox, gptj"}},
      {{"bench", "--layout", "xyz"}, {"--layout", "'xyz'"}},
      {{"bench", "--scale", "row"}, {"--scale", "'row'"}},
      {{"bench", "--slots", "none"}, {"--slots", "'none'"}},
      {{"bench", "--query-out", "copy"}, {"--query-out", "'copy'"}},
      {{"bench", "--key-out", "drop"}, {"--key-out", "'drop'"}},
      {{"bench", "--cos-sin", "fp64"}, {"--cos-sin", "'fp64'"}},
      {{"bench", "--scale", "head"},
       {"no cases", "scale=head", "per-head scale needs an fp8 cache"}},
      {{"bench", "--config", bad_json}, {"--config", bad_json, "line 2"}},
      {{"bench", "--config", unknown_key}, {"--config", unknown_key, "'timming'"}},
      {{"bench", "--config", all_dropped}, {all_dropped, "extra_cases[0]", "no cases"}},
      {{"bench", "--config", rot_too_big}, {rot_too_big, "axes.rot_dim", "'128'"}},
      {{"bench", "--config", "/nonexistent.json"},
       {"--config", "/nonexistent.json", "no such file"}},
      {{"bench", "--config", ""}, {"--config", "empty path"}},
      {{"bench", "--min-samples", "abc"}, {"--min-samples", "'abc'"}},
      {{"bench", "--min-samples", "0"}, {"--min-samples", "'0'"}},
      {{"bench", "--min-samples", "1", "--min-samples", "2"}, {"--min-samples"}},
      {{"bench", "--max-noise", "-1"}, {"--max-noise", "'-1'"}},
      {{"bench", "--min-time", "soon"}, {"--min-time", "'soon'"}},
      {{"bench", "--timeout", "0.01", "--min-time", "1"}, {"--timeout", "shorter than min time"}},
      {{"bench", "--mode", "hot"},
       {"--mode", "'hot'", "cold, warm, graph, wall, producer, producer_pdl"}},
      {{"bench", "--mode", "graph,"}, {"--mode", "empty value"}},
      {{"bench", "--graph-launches", "0"}, {"--graph-launches", "'0'"}},
      {{"bench", "--json", ""}, {"--json", "empty path"}},
      {{"bench", "--frobnicate"}, {"--frobnicate"}},
      {{"bench", "--dtype", "bf16", "fp16"}, {"fp16"}},
      {{"validate", "--mode", "graph"}, {"--mode"}},
      {{"validate", "--golden-sample-tokens", "-3"}, {"--golden-sample-tokens", "'-3'"}},
      {{"validate", "--threads", "many"}, {"--threads", "'many'"}},
      {{"bench", "--case", "bogus"}, {"--case", "'bogus'"}},
      {{"bench", "--case", "bf16|auto|32x7x128|neox|nhd|N=1"}, {"--case", "32x7x128"}},
      {{"bench", "--case", "bf16|auto|16x2x64|neox|nhd|N=1|rot=128"}, {"--case", "larger than"}},
      {{"bench", "--case", kCase, "--tokens", "8"}, {"--case", "--tokens"}},
      {{"bench", "--filter", "nomatch"}, {"--filter", "'nomatch'"}},
      {{"profile"}, {"--case"}},
      {{"profile", "--case", "bf16|auto"}, {"--case", "'bf16|auto'"}},
      {{"profile", "--case", kCase, "--launches", "0"}, {"--launches", "'0'"}},
      {{"profile", "--case", kCase, "--variants", "fused,turbo"}, {"--variants", "'turbo'"}},
      {{"compare", "a.json"}, {"current"}},
      {{"compare", "a", "b", "--speedup-tolerance", "x"}, {"--speedup-tolerance", "'x'"}},
      {{"compare", "a", "b", "--max-slowdown-us", "-1"}, {"--max-slowdown-us", "'-1'"}},
      {{"compare", "a", "b", "--gate", "fused,time"}, {"--gate", "'time'"}},
      {{"compare", "a", "b", "--min-slowdown", "101"}, {"--min-slowdown", "'101'"}},
      {{"compare", "a", "b", "--machine-allowance", "8"}, {"--machine-allowance", "'8'"}},
      {{"compare", "a", "b", "--decode-allowance", "8"}, {"'--decode-allowance'"}},
      {{"report"}, {"input"}},
      {{"report", "r.json", "--format", "pdf"}, {"--format", "'pdf'"}},
      {{"bnech"}, {"'bnech' is not a command"}},
      {{}, {"a command is required"}},
      {{"--dry-run"}, {"--dry-run"}},
  };
  for (const BadInput& bad : cases) {
    std::string shown;
    for (const std::string& a : bad.args)
      shown += a + " ";
    const ParseOutcome out = parse(bad.args);
    EXPECT_FALSE(out.invocation) << shown;
    EXPECT_EQ(out.exit_code, kExitUsage) << shown;
    EXPECT_EQ(out.message.rfind("rope-kv-bench: error: ", 0), 0u) << shown << "-> " << out.message;
    ASSERT_FALSE(out.message.empty()) << shown;
    EXPECT_EQ(out.message.find('\n'), out.message.size() - 1) << shown << "-> " << out.message;
    for (const std::string& m : bad.mentions)
      EXPECT_NE(out.message.find(m), std::string::npos)
          << shown << "-> " << out.message << " lacks " << m;
  }
}

}  // namespace
}  // namespace rkv
