#include "report/report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fused_launch.h"
#include "report_fixture.h"

namespace rkv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::base_report;
using testing::timed_case;

// A report touching every field: a timed case with every CaseSpec option off its default, an
// incorrect validate-only case, and a case whose speedup could not be computed.
Report full_report() {
  Report r = base_report();
  CaseResult a = timed_case(DType::fp16, CacheDType::fp8_e4m3, 8, 2048, "graph", 20.0, 8.0);
  a.spec.heads = HeadConfig{64, 8, 96, false};
  a.spec.style = RopeStyle::gptj;
  a.spec.rot_dim = 48;
  a.spec.layout = *CacheLayout::parse("packed_hnd");
  a.spec.block_size = 32;
  a.spec.scale = ScaleKind::per_head;
  a.spec.slots = SlotMode::padded;
  a.spec.query_out = QueryOut::separate;
  a.spec.key_out = KeyOut::cache_only;
  a.spec.cos_sin_fp32 = true;
  a.spec.seed = 0xFFFFFFFFFFFFFFF0ull;  // beyond 2^53: must survive as an integer
  a.id = a.spec.id();
  a.repro = "rope-kv-bench bench " + a.spec.repro_args();
  a.fused_launch = FusedLaunchRecord{"wide", true, 1188, std::int64_t{1} << 32, false};  // > 2^31
  CaseResult b = timed_case(DType::bf16, CacheDType::fp8_e5m2, 1, 7, "", 0, 0);
  b.spec.heads = *HeadConfig::parse("mla:16");
  b.spec.slots = SlotMode::rope_only;
  b.id = b.spec.id();
  b.repro = "rope-kv-bench validate " + b.spec.repro_args();
  b.validation = Disposition::incorrect;
  b.mismatches = 12;
  b.first_mismatch = "key_cache block 0 offset 3 head 0 dim 17";
  b.detail = "fused differs from golden";
  b.variants.clear();
  b.speedup.reset();
  CaseResult c = timed_case(DType::bf16, CacheDType::auto_, 8, 1, "cold", 5.0, 2.0);
  c.variants[0].us = Summary{};  // fused not measured: no speedup, NaN where it would be
  c.speedup = speedup(c.variants[1].us, c.variants[0].us);
  r.cases = {a, b, c};
  r.complete = false;
  return r;
}

std::string temp_dir(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("rkv_report_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  return p.string();
}

TEST(ReportJson, RoundTripKeepsEveryField) {
  const Report r = full_report();
  const json j = r;
  const Report back = json::parse(j.dump()).get<Report>();
  // Any forgotten field shows up as a difference. Text, not json ==, since NaN != NaN.
  EXPECT_EQ(json(back).dump(), j.dump());

  EXPECT_EQ(back.schema_version, kReportSchemaVersion);
  EXPECT_EQ(back.argv, r.argv);
  EXPECT_FALSE(back.complete);
  EXPECT_EQ(back.device.fingerprint(), "NVIDIA H200|132|580.159.04|12.8");  // no uuid in it
  EXPECT_EQ(back.device.uuid, "GPU-4f3c2b1a-9e8d-7c6b-5a49-382716054321");
  EXPECT_DOUBLE_EQ(back.device.launch_floor_us.at("cold"), 4.5);
  EXPECT_EQ(back.timing.modes, r.timing.modes);
  EXPECT_EQ(back.timing.batch_launches, 16);
  EXPECT_EQ(back.timing.passes, 2);
  EXPECT_EQ(back.timing.producer_read_mib, 48);

  const CaseSpec& s = back.cases[0].spec;
  const CaseSpec& want = r.cases[0].spec;
  EXPECT_EQ(s.dtype, want.dtype);
  EXPECT_EQ(s.cache_dtype, want.cache_dtype);
  EXPECT_EQ(s.heads, want.heads);
  EXPECT_EQ(s.style, want.style);
  EXPECT_EQ(s.rot_dim, want.rot_dim);
  EXPECT_EQ(s.layout, want.layout);
  EXPECT_EQ(s.tokens, want.tokens);
  EXPECT_EQ(s.block_size, want.block_size);
  EXPECT_EQ(s.scale, want.scale);
  EXPECT_EQ(s.slots, want.slots);
  EXPECT_EQ(s.query_out, want.query_out);
  EXPECT_EQ(s.key_out, want.key_out);
  EXPECT_EQ(s.cos_sin_fp32, want.cos_sin_fp32);
  EXPECT_EQ(s.seed, want.seed);
  EXPECT_EQ(s.id(), r.cases[0].id);
  EXPECT_EQ(back.cases[1].spec.heads, r.cases[1].spec.heads);

  const CaseResult& c0 = back.cases[0];
  ASSERT_EQ(c0.variants.size(), 4u);
  EXPECT_EQ(c0.variants[3].variant, to_string(Variant::cache_write));
  EXPECT_DOUBLE_EQ(c0.variants[0].us.q3, r.cases[0].variants[0].us.q3);
  EXPECT_EQ(c0.variants[0].throttled_samples, 2);
  ASSERT_EQ(c0.variants[1].passes.size(), 2u);
  EXPECT_EQ(c0.variants[1].passes[1].n, 30);
  EXPECT_DOUBLE_EQ(c0.variants[1].passes[0].median, r.cases[0].variants[1].passes[0].median);
  ASSERT_TRUE(c0.speedup.has_value());
  EXPECT_DOUBLE_EQ(c0.speedup->median, 2.5);
  EXPECT_EQ(c0.speedup->pass_medians, r.cases[0].speedup->pass_medians);

  ASSERT_TRUE(c0.fused_launch.has_value());
  EXPECT_EQ(c0.fused_launch->kernel, "wide");
  EXPECT_TRUE(c0.fused_launch->role_major);
  EXPECT_EQ(c0.fused_launch->ctas, 1188);
  EXPECT_EQ(c0.fused_launch->threads, std::int64_t{1} << 32);
  ASSERT_TRUE(c0.fused_launch->compact.has_value());  // false is written, not left out
  EXPECT_FALSE(*c0.fused_launch->compact);
  EXPECT_FALSE(back.cases[1].fused_launch.has_value());  // optional: absent stays absent
  EXPECT_FALSE(j["cases"][1].contains("fused_launch"));

  EXPECT_EQ(back.cases[1].validation, Disposition::incorrect);
  EXPECT_EQ(back.cases[1].mismatches, 12);
  EXPECT_FALSE(back.cases[1].speedup.has_value());
  ASSERT_TRUE(back.cases[2].speedup.has_value());
  EXPECT_TRUE(std::isnan(back.cases[2].speedup->median));  // NaN -> null -> NaN
}

// Every kernel a bench can record reads back; any other name is refused with its key path.
TEST(ReportJson, FusedLaunchNamesAKernelOfTheLibrary) {
  Report r = full_report();
  for (FusedKernel k : {FusedKernel::row_warp, FusedKernel::decode_half, FusedKernel::decode_roles,
                        FusedKernel::prefill_half, FusedKernel::wide, FusedKernel::flat_wide,
                        FusedKernel::strided, FusedKernel::flat, FusedKernel::token_warp}) {
    r.cases[0].fused_launch->kernel = fused_kernel_name(k);
    const Report back = json::parse(json(r).dump()).get<Report>();
    EXPECT_EQ(back.cases[0].fused_launch->kernel, fused_kernel_name(k));
  }
  json j = full_report();
  j["cases"][0]["fused_launch"]["kernel"] = "too_large";  // refused launches are not recorded
  try {
    (void)j.get<Report>();
    ADD_FAILURE() << "a report naming no kernel of the library was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].fused_launch.kernel"), std::string::npos)
        << e.what();
  }
}

// Round 28's experiment builds recorded "token_warp", a kernel the library does not have: their
// committed reports (results/h100/wave26/) still read, and the name comes back as written.
TEST(ReportJson, FusedLaunchOfAnExperimentBuildReads) {
  json j = full_report();
  j["cases"][0]["fused_launch"]["kernel"] = "token_warp";
  const Report back = j.get<Report>();
  EXPECT_EQ(back.cases[0].fused_launch->kernel, "token_warp");
  EXPECT_EQ(json(back)["cases"][0]["fused_launch"]["kernel"], "token_warp");
}

// `compact` tells two kernels of one name apart; reports before it stay without it, and a value
// of another type is refused with its key path.
TEST(ReportJson, FusedLaunchCompactIsOptionalAndTyped) {
  Report r = full_report();
  r.cases[0].fused_launch->compact = true;
  json j = r;
  EXPECT_EQ(j["cases"][0]["fused_launch"]["compact"], true);
  EXPECT_EQ(json::parse(j.dump()).get<Report>().cases[0].fused_launch->compact, true);
  j["cases"][0]["fused_launch"].erase("compact");
  EXPECT_FALSE(j.get<Report>().cases[0].fused_launch->compact.has_value());
  r.cases[0].fused_launch->compact.reset();
  EXPECT_FALSE(json(r)["cases"][0]["fused_launch"].contains("compact"));
  j["cases"][0]["fused_launch"]["compact"] = "yes";
  try {
    (void)j.get<Report>();
    ADD_FAILURE() << "a text `compact` was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].fused_launch.compact"), std::string::npos)
        << e.what();
  }
}

// Reports written before passes existed have no `passes` keys: one pass, no per-pass numbers.
TEST(ReportJson, ReportsWithoutPassesReadAsOnePass) {
  json j = full_report();
  j["timing"].erase("passes");
  for (json& c : j["cases"]) {
    for (json& v : c["variants"])
      v.erase("passes");
    if (!c["speedup"].is_null()) c["speedup"].erase("pass_medians");
  }
  const Report back = j.get<Report>();
  EXPECT_EQ(back.timing.passes, 1);
  EXPECT_TRUE(back.cases[0].variants[0].passes.empty());
  EXPECT_TRUE(back.cases[0].speedup->pass_medians.empty());
  EXPECT_DOUBLE_EQ(back.cases[0].speedup->median, 2.5);
}

// Reports written before the producer could stream weights: its producer only wrote q/k/v.
TEST(ReportJson, ReportsWithoutProducerReadReadAsZero) {
  json j = full_report();
  j["timing"].erase("producer_read_mib");
  EXPECT_EQ(j.get<Report>().timing.producer_read_mib, 0);
}

TEST(ReportJson, PassMediansMustBeNumbers) {
  json j = full_report();
  j["cases"][0]["speedup"]["pass_medians"] = json::array({2.0, "fast"});
  try {
    (void)j.get<Report>();
    FAIL() << "a string among the pass medians was read";
  } catch (const ReportFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("pass_medians[1]: expected a number"), std::string::npos)
        << e.what();
  }
}

TEST(ReportJson, KeysNameTheirUnits) {
  const json j = full_report();
  EXPECT_EQ(j.at("schema_version"), kReportSchemaVersion);
  EXPECT_TRUE(j.at("device").contains("copy_bandwidth_gbps"));
  EXPECT_TRUE(j.at("device").at("launch_floor_us").contains("graph"));
  const json& v = j.at("cases")[0].at("variants")[0];
  for (const char* key :
       {"median_us", "q1_us", "q3_us", "min_us", "max_us", "mean_us", "stdev_us", "rel_noise", "n"})
    EXPECT_TRUE(v.contains(key)) << key;
  EXPECT_TRUE(j.at("cases")[0].contains("min_bytes"));
  EXPECT_TRUE(j.at("cases")[0].contains("fused_gbps"));
  EXPECT_EQ(j.at("cases")[0].at("validation").at("disposition"), "passed");
  EXPECT_TRUE(j.at("cases")[1].at("speedup").is_null());
  EXPECT_EQ(j.at("cases")[0].at("spec").at("seed").get<std::uint64_t>(), 0xFFFFFFFFFFFFFFF0ull);
}

TEST(ReportJson, IntegerVersionsAreRead) {
  json j = full_report();
  j["device"]["driver_version"] = 12080;
  j["device"]["runtime_version"] = 12080;
  const Report r = j.get<Report>();
  EXPECT_EQ(r.device.driver_version, "12080");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
  EXPECT_EQ(cuda_version_string(12040), "12.4");
}

TEST(ReportJson, GpuUuidIsOptionalAndShapedLikeNvidiaSmi) {
  const unsigned char bytes[16] = {0x4f, 0x3c, 0x2b, 0x1a, 0x9e, 0x8d, 0x7c, 0x6b,
                                   0x5a, 0x49, 0x38, 0x27, 0x16, 0x05, 0x43, 0x21};
  EXPECT_EQ(format_gpu_uuid(bytes), "GPU-4f3c2b1a-9e8d-7c6b-5a49-382716054321");
  EXPECT_TRUE(is_gpu_uuid_or_empty(""));
  EXPECT_TRUE(is_gpu_uuid_or_empty(format_gpu_uuid(bytes)));
  for (const char* bad : {"GPU-4F3C2B1A-9e8d-7c6b-5a49-382716054321",  // upper case
                          "MIG-4f3c2b1a-9e8d-7c6b-5a49-382716054321",
                          "GPU-4f3c2b1a9e8d-7c6b-5a49-382716054321-", "GPU-4f3c2b1a"})
    EXPECT_FALSE(is_gpu_uuid_or_empty(bad)) << bad;
  // A report written before the key: the GPU is unknown.
  json j = full_report();
  j["device"].erase("uuid");
  EXPECT_EQ(j.get<Report>().device.uuid, "");
  j["device"]["uuid"] = "GPU-nothex";
  try {
    (void)j.get<Report>();
    FAIL() << "expected ReportFormatError";
  } catch (const ReportFormatError& e) {
    EXPECT_STREQ(e.what(),
                 "device.uuid: expected \"GPU-\" and 8-4-4-4-12 lowercase hex digits, or \"\", got "
                 "'GPU-nothex'");
  }
}

TEST(ReportJson, ErrorsNameTheKeyPath) {
  json j = full_report();
  j["cases"][0]["spec"]["dtype"] = "bf17";
  try {
    (void)j.get<Report>();
    FAIL() << "expected ReportFormatError";
  } catch (const ReportFormatError& e) {
    EXPECT_STREQ(e.what(), "cases[0].spec.dtype: unknown value 'bf17'");
  }
  json k = full_report();
  k["cases"][2]["variants"][1].erase("median_us");
  try {
    (void)k.get<Report>();
    FAIL() << "expected ReportFormatError";
  } catch (const ReportFormatError& e) {
    EXPECT_STREQ(e.what(), "cases[2].variants[1]: missing key 'median_us'");
  }
  json m = full_report();
  m["device"]["sm_count"] = "many";
  EXPECT_THROW((void)m.get<Report>(), ReportFormatError);
}

TEST(ReportFile, AtomicWriteCreatesFoldersAndLeavesNoTmp) {
  const std::string dir = temp_dir("ok");
  const std::string path = dir + "/nested/deeper/report.json";
  Report r = full_report();
  write_report_atomically(r, path);
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_EQ(json(read_report(path)).dump(), json(r).dump());

  r.cases.pop_back();  // overwrite with a different report
  write_report_atomically(r, path);
  EXPECT_EQ(read_report(path).cases.size(), 2u);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  fs::remove_all(dir);
}

TEST(ReportFile, UnwritableFolderThrowsOneLine) {
  // A regular file where a folder should be: fails even for root, unlike chmod.
  const std::string dir = temp_dir("blocked");
  fs::create_directories(dir);
  std::ofstream(dir + "/file") << "x";
  const std::string path = dir + "/file/report.json";
  try {
    write_report_atomically(full_report(), path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  fs::remove_all(dir);
}

TEST(ReportFile, FailedRenameKeepsTheOldFileAndRemovesTmp) {
  // The target is a folder, so the rename after the full write fails: the interrupted-write case.
  const std::string dir = temp_dir("rename");
  const std::string path = dir + "/report.json";
  fs::create_directories(path);
  EXPECT_THROW(write_report_atomically(full_report(), path), std::runtime_error);
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  EXPECT_TRUE(fs::is_directory(path));
  fs::remove_all(dir);
}

TEST(ReportFile, ReadErrorsAreClear) {
  const std::string dir = temp_dir("read");
  fs::create_directories(dir);
  auto message = [](const std::string& path) -> std::string {
    try {
      (void)read_report(path);
    } catch (const ReportFormatError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(dir + "/missing.json"), "report '" + dir + "/missing.json': no such file");

  std::ofstream(dir + "/bad.json") << "{\"schema_version\": 1,";
  EXPECT_NE(message(dir + "/bad.json").find("not valid JSON"), std::string::npos);

  json j = full_report();
  j["schema_version"] = kReportSchemaVersion + 1;  // a newer report than this build knows
  std::ofstream(dir + "/v3.json") << j.dump();
  EXPECT_EQ(message(dir + "/v3.json"),
            "report '" + dir + "/v3.json': schema_version is 3; this rope-kv-bench reads 1 to 2");

  std::ofstream(dir + "/other.json") << "{\"benchmarks\": []}";
  EXPECT_NE(message(dir + "/other.json").find("no schema_version"), std::string::npos);
  fs::remove_all(dir);
}

TEST(Disposition, NamesRoundTrip) {
  for (Disposition d : {Disposition::passed, Disposition::incorrect, Disposition::failed,
                        Disposition::not_supported, Disposition::skipped})
    EXPECT_EQ(parse_disposition(to_string(d)), d);
  EXPECT_FALSE(parse_disposition("ok").has_value());
}

TEST(Report, UtcTimestampShape) {
  const std::string t = utc_now_iso8601();
  ASSERT_EQ(t.size(), 20u);
  EXPECT_EQ(t[10], 'T');
  EXPECT_EQ(t.back(), 'Z');
}

}  // namespace
}  // namespace rkv
