// validate --dump on the CPU path: cases built and run through the golden model on the host, each
// dumped by the same writer the validator uses, then read back by scripts/read_dump.py with numpy
// through meta.json alone. The test checks what Python read against what C++ wrote: every array's
// type, shape and byte sum, and the last element of every view, located independently here.
#include "validate/case_dump.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "device/seeded_fill.h"
#include "golden.h"
#include "plan/workload.h"
#include "temp_paths.h"

namespace rkv {
namespace {

using nlohmann::json;

struct HostCase {
  TensorPlan plan;
  HostInputs in;
  std::vector<std::uint8_t> qkv, query_out, k_cache, v_cache;  // one copy
};

// The case's inputs as the device would hold them before any kernel.
HostCase inputs_of(const CaseSpec& spec) {
  HostCase c{make_tensor_plan(spec), {}, {}, {}, {}, {}};
  const TensorPlan& p = c.plan;
  c.in = make_host_inputs(p);
  c.qkv.resize(static_cast<std::size_t>(p.qkv_bytes()));
  fill_values_host(c.qkv.data(), spec.dtype, p.tokens * p.row_elems, spec.seed,
                   static_cast<std::uint64_t>(FillStream::qkv));
  c.query_out.resize(static_cast<std::size_t>(p.query_out_bytes()));
  fill_sentinel_host(c.query_out.data(), p.query_out_bytes(), spec.seed + 1);
  if (p.has_slots()) {
    c.k_cache.resize(static_cast<std::size_t>(p.cache_bytes()));
    fill_sentinel_host(c.k_cache.data(), p.cache_bytes(), spec.seed + 2);
    if (p.cache_tensors == 2) {
      c.v_cache.resize(static_cast<std::size_t>(p.cache_bytes()));
      fill_sentinel_host(c.v_cache.data(), p.cache_bytes(), spec.seed + 3);
    }
  }
  return c;
}

void run_golden(HostCase& c, const std::vector<std::int64_t>& tokens) {
  BufferPointers b = input_pointers(c.in);
  b.qkv = c.qkv.data();
  b.query_out = c.query_out.empty() ? nullptr : c.query_out.data();
  b.k_cache = c.k_cache.empty() ? nullptr : c.k_cache.data();
  b.v_cache = c.v_cache.empty() ? b.k_cache : c.v_cache.data();
  golden_rope_kv(bind_args(c.plan, b), &tokens, 1);
}

OutputCopy copy_of(const HostCase& c) {
  const auto arr = [](const std::vector<std::uint8_t>& v) {
    return HostArray{v.data(), static_cast<std::int64_t>(v.size())};
  };
  return {arr(c.qkv), arr(c.query_out), arr(c.k_cache), arr(c.v_cache)};
}

std::uint64_t byte_sum(const std::vector<std::uint8_t>& v) {
  std::uint64_t s = 0;
  for (std::uint8_t b : v)
    s += b;
  return s;
}

// The raw bits of element `index` of an array of `elem` bytes, as an unsigned integer.
std::uint64_t bits_at(const std::vector<std::uint8_t>& v, std::int64_t index, std::size_t elem) {
  std::uint64_t x = 0;
  std::memcpy(&x, v.data() + index * static_cast<std::int64_t>(elem), elem);
  return x;
}

json read_with_python(const std::string& folder) {
  const std::string cmd = "python3 '" + std::string(RKV_SOURCE_DIR) +
                          "/scripts/read_dump.py' --json '" + folder + "' 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return json();
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe))
    out.append(buf, n);
  const int rc = pclose(pipe);
  EXPECT_EQ(rc, 0) << out;
  const json j = json::parse(out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << out;
  return j.is_array() && !j.empty() ? j[0] : json();
}

class CaseDumpRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(CaseDumpRoundTrip, NumpyReadsEveryArrayAsMetaDescribesIt) {
  std::string error;
  const std::optional<CaseSpec> spec = CaseSpec::parse_id(GetParam(), &error);
  ASSERT_TRUE(spec) << error;
  HostCase input = inputs_of(*spec), golden = inputs_of(*spec);
  const TensorPlan& p = input.plan;
  // A sample of tokens (the last one and a random other), as the validator checks large cases.
  std::mt19937_64 rng(std::random_device{}());
  std::vector<std::int64_t> tokens = {static_cast<std::int64_t>(rng() % (p.tokens - 1)),
                                      p.tokens - 1};
  run_golden(golden, tokens);
  ASSERT_NE(golden.qkv, input.qkv);  // the golden model did rotate something

  CaseDump d;
  d.tool_version = "test";
  d.disposition = "incorrect";
  d.mismatches = 3;
  d.first_mismatch = "vs golden: key_cache[...]";
  d.input = copy_of(input);
  d.fused = d.pair = d.golden = copy_of(golden);
  d.golden_tokens = tokens;
  const std::string dir = per_process_temp_dir() + "dump_" + std::to_string(rng() % 100000);
  ASSERT_EQ(prepare_dump_dir(dir), "");
  const std::string folder = write_case_dump(dir, p, input.in, d);
  EXPECT_EQ(std::filesystem::path(folder).filename().string(), dump_folder_name(spec->id()));

  const json got = read_with_python(folder);
  ASSERT_TRUE(got.is_object());
  EXPECT_EQ(got["case_id"], spec->id());
  EXPECT_EQ(got["golden_tokens"], 2);
  const json& arrays = got["arrays"];
  const std::size_t e = p.elem_bytes, ce = p.cache_elem_bytes;
  const std::int64_t T = p.tokens, Hkv = p.num_kv_heads;
  for (const char* copy : {"input", "golden"}) {
    const HostCase& c = std::string(copy) == "input" ? input : golden;
    const json& q = arrays["qkv_" + std::string(copy)];
    EXPECT_EQ(q["byte_sum"].get<std::uint64_t>(), byte_sum(c.qkv)) << copy;
    EXPECT_EQ(q["shape"], json({T, p.row_elems}));
    const std::int64_t last_row = (T - 1) * p.row_elems;
    EXPECT_EQ(q["views"]["key"]["last_bits"].get<std::uint64_t>(),
              bits_at(c.qkv, last_row + p.k_col + Hkv * p.k_head_size - 1, e));
    EXPECT_EQ(q["views"]["value"]["last_bits"].get<std::uint64_t>(),
              bits_at(c.qkv, last_row + p.v_col + Hkv * p.v_head_size - 1, e));
    EXPECT_EQ(q["views"]["query"]["last_bits"].get<std::uint64_t>(),
              bits_at(c.qkv, last_row + p.q_col + p.num_q_heads * p.q_head_size - 1, e));
    if (!c.k_cache.empty()) {
      const json& k = arrays["key_cache_" + std::string(copy)];
      EXPECT_EQ(k["byte_sum"].get<std::uint64_t>(), byte_sum(c.k_cache));
      const std::int64_t last_entry = (p.num_blocks - 1) * p.block_stride +
                                      (p.block_size - 1) * p.slot_stride +
                                      (Hkv - 1) * p.head_stride;
      EXPECT_EQ(k["views"]["key"]["last_bits"].get<std::uint64_t>(),
                bits_at(c.k_cache, last_entry + p.k_offset + p.k_head_size - 1, ce));
      const std::vector<std::uint8_t>& vc = c.v_cache.empty() ? c.k_cache : c.v_cache;
      const json& v = c.v_cache.empty() ? k : arrays["value_cache_" + std::string(copy)];
      EXPECT_EQ(v["views"]["value"]["last_bits"].get<std::uint64_t>(),
                bits_at(vc, last_entry + p.v_offset + p.v_head_size - 1, ce));
      EXPECT_EQ(k["dtype"], to_string(spec->cache_dtype) == "auto" ? to_string(spec->dtype)
                                                                   : to_string(spec->cache_dtype));
    }
    if (!c.query_out.empty()) {
      EXPECT_EQ(arrays["query_out_" + std::string(copy)]["byte_sum"].get<std::uint64_t>(),
                byte_sum(c.query_out));
    }
  }
  EXPECT_EQ(arrays["qkv_input"]["npy_descr"], spec->dtype == DType::bf16 ? "<u2" : "<f2");
  EXPECT_EQ(arrays["positions"]["shape"], json({T}));
  EXPECT_EQ(arrays.contains("k_scale"), spec->cache_dtype != CacheDType::auto_);
  if (spec->scale == ScaleKind::per_head) {
    EXPECT_EQ(arrays["k_scale"]["shape"], json({Hkv}));
  }
}

// One MLA case, one packed layout, one fp8 per-head case (the three the H200 dump step writes).
INSTANTIATE_TEST_SUITE_P(
    Cpu, CaseDumpRoundTrip,
    ::testing::Values("bf16|fp8_e4m3|mla:16|gptj|nhd|N=7",
                      "fp16|auto|8x2x128|neox|packed_hnd|N=9|rot=64",
                      "bf16|fp8_e5m2|8x2x128|gptj|hnd|N=6|scale=head|slots=padded|qout=separate"));

TEST(CaseDumpFolderName, SafeShortAndDistinct) {
  EXPECT_EQ(dump_folder_name("bf16|auto|32x8x128|neox|nhd|N=128"),
            "bf16+auto+32x8x128+neox+nhd+N=128");
  const std::string mla = dump_folder_name("bf16|auto|mla:16|gptj|nhd|N=7");
  EXPECT_EQ(mla.rfind("bf16+auto+mla_16+gptj+nhd+N=7-h", 0), 0u) << mla;  // ':' replaced: hashed
  EXPECT_NE(mla, dump_folder_name("bf16|auto|mla_16|gptj|nhd|N=7"));
  const std::string long_id = "bf16|auto|32x8x128|neox|nhd|N=128" + std::string(200, 'x');
  const std::string cut = dump_folder_name(long_id);
  EXPECT_LE(cut.size(), 96u);
  EXPECT_NE(cut, dump_folder_name(long_id + "y"));
  for (const std::string& name : {mla, cut, dump_folder_name("a/b\\c?*<>\"")})
    for (char ch : name)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || std::strchr("._=-+", ch)) << name;
  EXPECT_NE(dump_folder_name(".hidden").front(), '.');
}

TEST(CaseDumpDir, RefusesAPathThatIsAFile) {
  const std::string file = per_process_temp_dir() + "not_a_dir";
  std::ofstream(file) << "x";
  EXPECT_NE(prepare_dump_dir(file + "/sub"), "");
}

}  // namespace
}  // namespace rkv
