// Config files: the committed configs plan what they promise; every mistake in a file is one line
// naming the file and the key.
#include "plan/sweep_config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <fstream>
#include <set>
#include <tuple>
#include <utility>

#include "plan/sweep_plan.h"
#include "plan/token_modes.h"

#ifndef RKV_SOURCE_DIR
#error "RKV_SOURCE_DIR must name the repository root (CMake defines it)"
#endif

#include "temp_paths.h"

namespace rkv {
namespace {

std::string config_path(const std::string& name) {
  return std::string(RKV_SOURCE_DIR) + "/configs/" + name;
}

// Writes `text` to a fresh file under the test temp dir and returns its path.
std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = per_process_temp_dir() + "rkv_cfg_" + name + ".json";
  std::ofstream(path) << text;
  return path;
}

std::string load_error(const std::string& name, const std::string& text) {
  SweepConfig cfg;
  return load_sweep_config(write_temp(name, text), &cfg).value_or("(accepted)");
}

SweepConfig load_ok(const std::string& path) {
  SweepConfig cfg;
  const auto err = load_sweep_config(path, &cfg);
  EXPECT_FALSE(err) << err.value_or("");
  return cfg;
}

TEST(SweepConfig, ReadsAxesTimingAndExtraCases) {
  const std::string path = write_temp("good", R"({
    "name": "t", "description": "d",
    "axes": {"dtype": ["bf16", "fp16"], "tokens": [1, 8, "pow2:16:64"], "rot_dim": ["full", 32],
             "heads": "32x8x128", "seed": 5},
    "timing": {"modes": ["cold", "graph"], "min_samples": 20, "max_noise": 1, "min_time_s": 0.1,
               "timeout_s": 3, "warmup_s": 0, "graph_launches": 50},
    "extra_cases": [{"slots": "padded", "tokens": 7}, {"heads": "mla:16", "style": ["neox", "gptj"]}]
  })");
  const SweepConfig cfg = load_ok(path);
  EXPECT_EQ(cfg.path, path);
  EXPECT_EQ(cfg.name, "t");
  EXPECT_EQ(cfg.description, "d");
  EXPECT_EQ(cfg.axes.dtype, (std::vector<DType>{DType::bf16, DType::fp16}));
  EXPECT_EQ(cfg.axes.tokens, (std::vector<std::int64_t>{1, 8, 16, 32, 64}));
  ASSERT_EQ(cfg.axes.rot_dim.size(), 2u);
  EXPECT_EQ(cfg.axes.rot_dim[1].value, 32);
  EXPECT_EQ(cfg.axes.seed, std::vector<std::uint64_t>{5});
  EXPECT_EQ(cfg.axes.layout.size(), 1u);  // not in the file: the default
  EXPECT_EQ(cfg.timing.modes, (std::vector<TimingMode>{TimingMode::cold, TimingMode::graph}));
  EXPECT_EQ(cfg.timing.min_samples, 20);
  EXPECT_DOUBLE_EQ(cfg.timing.max_noise, 0.01);  // percent in the file
  EXPECT_DOUBLE_EQ(cfg.timing.min_time_s, 0.1);
  EXPECT_DOUBLE_EQ(cfg.timing.timeout_s, 3.0);
  EXPECT_DOUBLE_EQ(cfg.timing.warmup_s, 0.0);
  EXPECT_EQ(cfg.timing.graph_launches, 50);
  EXPECT_EQ(cfg.timing.wall_launches, TimingOptions{}.wall_launches);
  ASSERT_EQ(cfg.extra_cases.size(), 2u);
  EXPECT_EQ(cfg.extra_cases[0].slots, std::vector<SlotMode>{SlotMode::padded});
  // Extra cases start from the defaults, not from the file's axes.
  EXPECT_EQ(cfg.extra_cases[0].dtype, std::vector<DType>{DType::bf16});
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_EQ(p.cases.size(), 2u * 5 * 2 + 1 + 2);
  EXPECT_EQ(p.cases.back().id(), "bf16|auto|mla:16|gptj|nhd|N=1");
}

TEST(SweepConfig, MalformedJsonNamesFileAndLine) {
  const std::string err =
      load_error("malformed", "{\n  \"axes\": {\n    \"dtype\": [\"bf16\",]\n  }\n}\n");
  EXPECT_NE(err.find("rkv_cfg_malformed.json: not valid JSON at line 3, column 22: syntax error at "
                     "']' (in axes.dtype)"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("json.exception"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
}

TEST(SweepConfig, UnknownKeysAreErrorsNamingTheKey) {
  EXPECT_NE(load_error("top", R"({"axis": {}})")
                .find("rkv_cfg_top.json: unknown key 'axis' at the top level (expected one of "
                      "name, description, axes, timing, extra_cases)"),
            std::string::npos);
  EXPECT_NE(load_error("axiskey", R"({"axes": {"dtypes": ["bf16"]}})")
                .find("rkv_cfg_axiskey.json: axes: unknown key 'dtypes' (expected one of dtype,"),
            std::string::npos);
  EXPECT_NE(load_error("timingkey", R"({"timing": {"mode": "graph"}})")
                .find("timing: unknown key 'mode' (expected one of modes, min_samples"),
            std::string::npos);
  EXPECT_NE(load_error("extrakey", R"({"extra_cases": [{"tokens": 7}, {"slot": "padded"}]})")
                .find("extra_cases[1]: unknown key 'slot'"),
            std::string::npos);
}

TEST(SweepConfig, WrongTypesAndBadValuesNameTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"name": 3})", "name: expected a string, got an integer"},
      {R"([1, 2])", "expected a JSON object at the top, got an array"},
      {R"({"axes": []})", "axes: expected an object, got an array"},
      {R"({"axes": {"dtype": true}})",
       "axes.dtype: expected a string or an integer, got a boolean"},
      {R"({"axes": {"dtype": []}})", "axes.dtype: an empty array"},
      {R"({"axes": {"dtype": [["bf16"]]}})",
       "axes.dtype[0]: expected a string or an integer, got an array"},
      {R"({"axes": {"tokens": [1, 7.5]}})",
       "axes.tokens[1]: expected a string or an integer, got a fractional number 7.5"},
      {R"({"axes": {"dtype": ["bf61"]}})",
       "axes.dtype: 'bf61' is not a dtype (one of bf16, fp16, fp32)"},
      {R"({"axes": {"heads": ["32x7x128"]}})",
       "axes.heads: 32x7x128: 32 query heads are not a multiple of 7 kv heads"},
      {R"({"axes": {"rot_dim": [63]}})", "axes.rot_dim: '63' is odd"},
      {R"({"axes": {"tokens": ["5:1"]}})",
       "axes.tokens: '5:1' is not a range: start 5 is after end 1"},
      {R"({"axes": {"tokens": [0]}})", "axes.tokens: '0' is out of range (1 to 1048576)"},
      {R"({"timing": {"modes": "hot"}})", "timing.modes: 'hot' is not a timing mode"},
      {R"({"timing": {"modes": []}})", "timing.modes: expected a mode name or a non-empty array"},
      {R"({"timing": {"min_samples": "10"}})",
       "timing.min_samples: expected a number, got a string"},
      {R"({"timing": {"min_samples": 0}})", "timing.min_samples: '0' is out of range [1, 1000000]"},
      {R"({"timing": {"min_samples": 2.5}})", "timing.min_samples: '2.5' is not an integer"},
      {R"({"timing": {"max_noise": 0}})", "timing.max_noise: '0' is out of range (0, 100]"},
      {R"({"timing": {"timeout_s": 0.1, "min_time_s": 1}})",
       "timing: timeout 0.1 s is shorter than min time 1 s"},
      {R"({"extra_cases": {"tokens": 7}})", "extra_cases: expected an array, got an object"},
      {R"({"extra_cases": [7]})", "extra_cases[0]: expected an object, got an integer"},
      {R"({"axes": {"tokens": [1], "tokens": [2]}})", "axes: duplicate key 'tokens'"},
      {R"({"axes": {"seed": [99999999999999999999]}})",
       "axes.seed[0]: number '99999999999999999999' does not fit in 64 bits"},
      {R"({"timing": {"min_time_s": 1e400}})", "timing.min_time_s: number '1e400' is out of range"},
      {R"({"timing": {"modes": ["graph", 3]}})",
       "timing.modes[1]: expected a string, got an integer"},
      {R"({"name": "a\u0000b", "axes": {"dtype": "bf\u001b16"}})",
       "axes.dtype: 'bf\\x1B16' is not a dtype"},
  };
  int i = 0;
  for (const auto& [text, expected] : cases) {
    const std::string name = "bad" + std::to_string(i++);
    const std::string err = load_error(name, text);
    EXPECT_NE(err.find("rkv_cfg_" + name + ".json: "), std::string::npos) << text << " -> " << err;
    EXPECT_NE(err.find(expected), std::string::npos) << text << " -> " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

TEST(SweepConfig, MissingFileAndDirectory) {
  SweepConfig cfg;
  EXPECT_EQ(load_sweep_config("/nonexistent/x.json", &cfg).value_or(""),
            "/nonexistent/x.json: no such file");
  EXPECT_EQ(load_sweep_config(RKV_SOURCE_DIR "/configs", &cfg).value_or(""),
            RKV_SOURCE_DIR "/configs: is a directory, not a JSON file");
}

TEST(TimingFields, FlagTextRulesAndUnits) {
  TimingOptions t;
  EXPECT_FALSE(set_timing_field(t, TimingField::modes, "wall,cold,wall"));
  EXPECT_EQ(t.modes, (std::vector<TimingMode>{TimingMode::wall, TimingMode::cold}));
  EXPECT_FALSE(set_timing_field(t, TimingField::max_noise, "2.5"));
  EXPECT_DOUBLE_EQ(t.max_noise, 0.025);
  EXPECT_EQ(set_timing_field(t, TimingField::timeout_s, "0").value_or(""),
            "'0' is out of range (0, 3600]");
  EXPECT_EQ(set_timing_field(t, TimingField::min_time_s, "nan").value_or(""),
            "'nan' is not a number");
  EXPECT_EQ(set_timing_field(t, TimingField::graph_launches, "1e3").value_or(""),
            "'1e3' is not an integer");
  EXPECT_FALSE(set_timing_field(t, TimingField::passes, "3"));
  EXPECT_EQ(t.passes, 3);
  EXPECT_EQ(set_timing_field(t, TimingField::passes, "0").value_or(""),
            "'0' is out of range [1, 100]");
  EXPECT_FALSE(set_timing_field(t, TimingField::producer_read_mib, "96"));
  EXPECT_EQ(t.producer_read_mib, 96);
  EXPECT_EQ(timing_field_text(t, TimingField::producer_read_mib), "96");
  EXPECT_EQ(set_timing_field(t, TimingField::producer_read_mib, "-1").value_or(""),
            "'-1' is out of range [0, 16384]");
  EXPECT_EQ(set_timing_field(t, TimingField::producer_read_mib, "0.5").value_or(""),
            "'0.5' is not an integer");
  EXPECT_EQ(t.producer_read_mib, 96);  // a bad value leaves the field as it was
  EXPECT_EQ(timing_fields().size(), 12u);
}

// ---- the committed configs

std::vector<std::string> ids(const SweepPlan& p) {
  std::vector<std::string> out;
  for (const CaseSpec& c : p.cases)
    out.push_back(c.id());
  return out;
}

TEST(CommittedConfigs, SeedTableIsExactlyTheThirtyTwoCases) {
  const SweepConfig cfg = load_ok(config_path("seed-table.json"));
  EXPECT_EQ(cfg.name, "seed-table");
  EXPECT_EQ(cfg.timing.modes, std::vector<TimingMode>{TimingMode::graph});
  // The headline intervals are built from the spread of the per-pass speedups; ten passes keep
  // their median half-width at N >= 128 under 3 % (docs/methodology.md).
  EXPECT_EQ(cfg.timing.passes, 10);
  std::vector<std::string> expected;
  for (const char* dtype : {"bf16", "fp16"})
    for (const char* cache : {"auto", "fp8_e4m3"})
      for (const char* heads : {"32x32x128", "32x8x128"})
        for (const char* n : {"1", "8", "128", "2048"})
          expected.push_back(std::string(dtype) + "|" + cache + "|" + heads + "|neox|nhd|N=" + n);
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_EQ(ids(p), expected);
  EXPECT_TRUE(p.dropped.empty());
}

TEST(CommittedConfigs, FullMatrixCoversTheValidationMatrix) {
  const SweepConfig cfg = load_ok(config_path("full-matrix.json"));
  const SweepPlan main = plan_sweep(cfg.axes);
  EXPECT_EQ(main.cases.size(), 2u * 3 * 8 * 2 * 2 * 4 * 5);
  EXPECT_TRUE(main.dropped.empty());
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_GT(p.cases.size(), main.cases.size() + 60);
  // Every special case the matrix promises is in the plan.
  auto has = [&p](const std::string& text) {
    for (const CaseSpec& c : p.cases)
      if (c.id().find(text) != std::string::npos) return true;
    return false;
  };
  for (const char* text :
       {"slots=padded", "slots=all_invalid", "slots=rope_only", "scale=head", "qout=separate",
        "kout=cache_only", "cs=fp32", "|hbs|", "|packed_sbh|", "fp32|", "mla:16|neox",
        "mla:16|gptj", "fp8_e5m2", "32x1x128", "8x8x256", "32x8x80|gptj|packed_hnd|N=16384|rot=40",
        "bs=64",
        // role-major units: q pass-through segment and MLA, flat and strided
        "32x8x128|neox|nhd|N=4099|rot=64|qout=separate",
        "fp8_e4m3|32x8x128|neox|nhd|N=4099|rot=32|qout=separate", "mla:16|neox|nhd|N=4099|rot=32",
        "mla:128|neox|nhd|N=7|rot=32",
        // MLA full rotary beyond decode sizes, every cache dtype and slot mode
        "fp8_e5m2|mla:128|gptj|nhd|N=4099", "fp8_e4m3|mla:16|gptj|nhd|N=4099|",
        "fp8_e4m3|mla:16|neox|nhd|N=4099|slots=all_invalid", "fp32|fp8_e4m3|mla:16|gptj|nhd|N=4099",
        "mla:16|gptj|nhd|N=4099|bs=1",
        // mla:16 gpt-j with fp8 caches past two waves of the token warp
        "bf16|fp8_e4m3|mla:16|gptj|nhd|N=8192", "fp16|fp8_e5m2|mla:16|gptj|nhd|N=8192",
        // neox unit grids with an fp32 table beyond decode sizes
        "fp16|fp8_e4m3|32x8x128|neox|nhd|N=16384|rot=64|cs=fp32",
        "bf16|auto|mla:16|neox|nhd|N=16384|cs=fp32"})
    EXPECT_TRUE(has(text)) << text;
}

TEST(CommittedConfigs, PdlTimesBothProducerModesOverItsSixteenCases) {
  const SweepConfig pdl = load_ok(config_path("pdl.json"));
  EXPECT_EQ(pdl.timing.modes,
            (std::vector<TimingMode>{TimingMode::producer, TimingMode::producer_pdl}));
  EXPECT_EQ(pdl.timing.passes, 3);
  const SweepPlan p = plan_sweep(pdl.axes, pdl.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  ASSERT_EQ(p.cases.size(), 2u * 2 * 4);
  std::set<std::string> ids;
  for (const CaseSpec& c : p.cases) {
    EXPECT_EQ(c.dtype, DType::bf16);
    EXPECT_EQ(c.style, RopeStyle::neox);
    EXPECT_EQ(c.layout.name(), "nhd");
    ids.insert(c.id());
  }
  for (const char* id :
       {"bf16|auto|32x32x128|neox|nhd|N=1", "bf16|fp8_e4m3|32x8x128|neox|nhd|N=2048"})
    EXPECT_EQ(ids.count(id), 1u) << id;
}

// Each weights config streams its own shape's bf16 QKV weights of a 4096-wide model:
// 4096 x (q + 2 kv heads) x 128 x 2 bytes.
TEST(CommittedConfigs, PdlWeightsStreamTheirShapesProjection) {
  for (const auto& [name, heads, kv_heads] : {std::tuple{"pdl-weights-mha.json", "32x32x128", 32},
                                              std::tuple{"pdl-weights-gqa.json", "32x8x128", 8}}) {
    SCOPED_TRACE(name);
    const SweepConfig cfg = load_ok(config_path(name));
    EXPECT_EQ(cfg.timing.modes,
              (std::vector<TimingMode>{TimingMode::producer, TimingMode::producer_pdl}));
    EXPECT_EQ(std::int64_t{cfg.timing.producer_read_mib} << 20,
              std::int64_t{4096} * (32 + 2 * kv_heads) * 128 * 2);
    const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
    ASSERT_EQ(p.cases.size(), 4u);  // auto and fp8 at N = 1 and 8
    for (const CaseSpec& c : p.cases) {
      EXPECT_EQ(c.heads, *HeadConfig::parse(heads));
      EXPECT_LE(c.tokens, 8);
    }
  }
}

TEST(CommittedConfigs, DecodePrefillAndSmokeLoadWithTheirModes) {
  const SweepConfig decode = load_ok(config_path("decode.json"));
  EXPECT_EQ(decode.timing.modes, std::vector<TimingMode>{TimingMode::graph});
  const SweepPlan dp = plan_sweep(decode.axes, decode.extra_cases);
  EXPECT_TRUE(dp.dropped.empty());
  for (const CaseSpec& c : dp.cases)
    EXPECT_LE(c.tokens, 256);
  EXPECT_EQ(dp.cases.size(), 4u * 2 * 9 + 2 * 9);

  const SweepConfig prefill = load_ok(config_path("prefill.json"));
  EXPECT_EQ(prefill.timing.modes, std::vector<TimingMode>{TimingMode::cold});
  const SweepPlan pp = plan_sweep(prefill.axes, prefill.extra_cases);
  EXPECT_TRUE(pp.dropped.empty());
  for (const CaseSpec& c : pp.cases) {
    EXPECT_GE(c.tokens, 512);
    EXPECT_LE(c.tokens, 16384);
  }

  const SweepConfig smoke = load_ok(config_path("ci-smoke.json"));
  const SweepPlan sp = plan_sweep(smoke.axes, smoke.extra_cases);
  EXPECT_GE(sp.cases.size(), 4u);
  EXPECT_LE(sp.cases.size(), 6u);
  for (const CaseSpec& c : sp.cases)
    EXPECT_LE(c.tokens, 16);
}

// The partial-rotary A/B config: every case has a pass-through window (rot below the head size)
// apart from the full-rotary canaries, and both styles and cache kinds meet each head shape.
TEST(CommittedConfigs, KernelAbPartialTimesPartialRotaryWithCanaries) {
  const SweepConfig cfg = load_ok(config_path("kernel-ab-partial.json"));
  EXPECT_EQ(cfg.timing.modes, std::vector<TimingMode>{TimingMode::cold});
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_EQ(p.cases.size(), 6u * 2 * 2 + 3 * 2 * 2 + 2 * 2 * 3 + 2 * 2 + 2 * 2 * 2);
  int canaries = 0;
  std::set<std::string> shapes;
  for (const CaseSpec& c : p.cases) {
    EXPECT_GE(c.tokens, 2048) << c.id();
    if (c.id().find("|rot=") == std::string::npos) {
      ++canaries;
      continue;
    }
    shapes.insert(c.id().substr(0, c.id().find("|N=")));
  }
  EXPECT_EQ(canaries, 8);
  for (const char* shape : {"bf16|auto|16x2x256|neox|nhd", "bf16|fp8_e4m3|16x2x256|gptj|nhd",
                            "bf16|auto|mla:128|neox|nhd", "bf16|fp8_e4m3|mla:16|gptj|nhd"})
    EXPECT_EQ(shapes.count(shape), 1u) << shape;
}

// The one-kv-head A/B config: every rot = 32 case has a single kv head (MQA or MLA), decode sizes
// are timed in graph mode and prefill sizes cold, and the four GQA canaries have several kv heads.
TEST(CommittedConfigs, KernelAbOneKvTimesSingleKvHeadShapesAtEveryTokenCount) {
  const SweepConfig cfg = load_ok(config_path("kernel-ab-onekv.json"));
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_EQ(p.cases.size(), 3u * 2 * 2 * 6 + 4);
  int canaries = 0;
  for (const CaseSpec& c : p.cases) {
    const std::vector<TimingMode> expected{c.tokens < 2048 ? TimingMode::graph : TimingMode::cold};
    EXPECT_EQ(modes_for_tokens(cfg.timing, c.tokens), expected) << c.id();
    if (c.heads.kv_heads() > 1) {
      ++canaries;
      EXPECT_EQ(c.rot_dim, 64) << c.id();
    } else {
      EXPECT_EQ(c.rot_dim, 32) << c.id();
    }
  }
  EXPECT_EQ(canaries, 4);
}

// The unit-kernel decode A/B config: every case in graph mode at 1, 8 or 128 tokens, the two
// controls whose roles already fill whole warps, and every id of the judged subset committed
// beside the experiment's patch among its cases (a subset id the config lost would judge nothing).
TEST(CommittedConfigs, KernelAbUnitDecodeHoldsItsControlsAndItsJudgedCases) {
  const SweepConfig cfg = load_ok(config_path("kernel-ab-unitdecode.json"));
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_EQ(p.cases.size(), 2u * 5 * 3 + 2 * 2 * 2 * 3 + 2 * 2 * 3);
  std::set<std::string> ids;
  for (const CaseSpec& c : p.cases) {
    EXPECT_EQ(modes_for_tokens(cfg.timing, c.tokens), std::vector<TimingMode>{TimingMode::graph});
    EXPECT_TRUE(c.tokens == 1 || c.tokens == 8 || c.tokens == 128) << c.id();
    ids.insert(c.id());
  }
  for (const char* control : {"bf16|auto|32x8x128|gptj|nhd|N=1", "bf16|auto|28x4x128|gptj|nhd|N=1"})
    EXPECT_EQ(ids.count(control), 1u) << control;
  std::ifstream subset(std::string(RKV_SOURCE_DIR) +
                       "/results/h200/experiments/patches/decode-role-warps.subset.txt");
  ASSERT_TRUE(subset) << "the judged subset is committed";
  int judged = 0;
  for (std::string id; std::getline(subset, id); ++judged)
    EXPECT_EQ(ids.count(id), 1u) << id;
  EXPECT_EQ(judged, 28);
}

TEST(CommittedConfigs, KernelAbSplitRotHoldsBothJudgedSubsetsAndTheirControls) {
  const SweepConfig cfg = load_ok(config_path("kernel-ab-splitrot.json"));
  const SweepPlan p = plan_sweep(cfg.axes, cfg.extra_cases);
  EXPECT_TRUE(p.dropped.empty());
  EXPECT_EQ(p.cases.size(), 2u * 2 * 3 * 2 * 3);  // caches x styles x rot x layouts x tokens
  std::set<std::string> ids;
  for (const CaseSpec& c : p.cases) {
    EXPECT_EQ(modes_for_tokens(cfg.timing, c.tokens), std::vector<TimingMode>{TimingMode::cold});
    ids.insert(c.id());
  }
  // The same shape with whole-sector windows (rot = 64: 128 bytes; full rotary) as controls.
  for (const char* control :
       {"bf16|auto|40x8x80|gptj|nhd|N=65536|rot=64", "bf16|auto|40x8x80|gptj|nhd|N=65536",
        "bf16|auto|40x8x80|neox|nhd|N=65536"})
    EXPECT_EQ(ids.count(control), 1u) << control;
  for (const auto& [file, count] : {std::pair<const char*, int>{"split-window-flat.subset.txt", 6},
                                    {"split-window-flat-both.subset.txt", 12}}) {
    std::ifstream subset(std::string(RKV_SOURCE_DIR) + "/results/h200/experiments/patches/" + file);
    ASSERT_TRUE(subset) << file << " is committed";
    int judged = 0;
    for (std::string id; std::getline(subset, id); ++judged) {
      EXPECT_EQ(ids.count(id), 1u) << id;
      EXPECT_NE(id.find("|auto|"), std::string::npos) << id;  // fp8 is on the flat grid already
      EXPECT_NE(id.find("|rot=40"), std::string::npos) << id;
    }
    EXPECT_EQ(judged, count) << file;
  }
}

}  // namespace
}  // namespace rkv
