#include "validate/case_dump.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "plan/case_spec_json.h"
#include "validate/npy.h"

namespace rkv {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// How an element type is named and stored: the name a person uses, the NumPy type the bytes are
// stored as (bf16 and fp8 have none in plain NumPy), and the .npy descr.
struct Storage {
  std::string dtype, stored_as, descr;
  std::int64_t bytes;
};

Storage storage_of(DType d) {
  switch (d) {
    case DType::bf16:
      return {"bf16", "uint16", "<u2", 2};
    case DType::fp16:
      return {"fp16", "float16", "<f2", 2};
    case DType::fp32:
      return {"fp32", "float32", "<f4", 4};
  }
  throw std::logic_error("unknown dtype");
}

Storage cache_storage(const CaseSpec& s) {
  switch (s.cache_dtype) {
    case CacheDType::auto_:
      return storage_of(s.dtype);
    case CacheDType::fp8_e4m3:
      return {"fp8_e4m3", "uint8", "|u1", 1};
    case CacheDType::fp8_e5m2:
      return {"fp8_e5m2", "uint8", "|u1", 1};
  }
  throw std::logic_error("unknown cache dtype");
}

const Storage kInt64{"int64", "int64", "<i8", 8};
const Storage kFloat32{"fp32", "float32", "<f4", 4};

// A strided view into an array, in elements: element [i, j, k, ...] of the view is element
// offset + i * strides[0] + j * strides[1] + ... of the array (flattened).
json view(std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, std::int64_t offset) {
  return json{{"shape", shape}, {"strides", strides}, {"offset", offset}};
}

std::uint32_t fnv1a(const std::string& s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

class DumpWriter {
 public:
  explicit DumpWriter(std::string folder) : folder_(std::move(folder)) {}

  // Writes NAME.npy and records it in meta's "arrays".
  void add(const std::string& name, const Storage& st, const std::vector<std::int64_t>& shape,
           const void* data, std::int64_t bytes, json views = json::object(),
           const std::string& role = "") {
    std::int64_t elems = 1;
    for (std::int64_t d : shape)
      elems *= d;
    if (elems * st.bytes != bytes)
      throw std::logic_error("dump of " + name + ": shape does not match its " +
                             std::to_string(bytes) + " bytes");
    const std::string file = name + ".npy";
    write_npy((fs::path(folder_) / file).string(), st.descr, shape, data, bytes);
    json a{{"file", file},          {"dtype", st.dtype}, {"stored_as", st.stored_as},
           {"npy_descr", st.descr}, {"shape", shape},    {"bytes", bytes}};
    if (!views.empty()) a["views"] = std::move(views);
    if (!role.empty()) a["role"] = role;
    arrays_[name] = std::move(a);
  }
  json& arrays() { return arrays_; }

 private:
  std::string folder_;
  json arrays_ = json::object();
};

json plan_json(const TensorPlan& p) {
  return json{{"tokens", p.tokens},
              {"cache_tokens", p.cache_tokens},
              {"num_q_heads", p.num_q_heads},
              {"num_kv_heads", p.num_kv_heads},
              {"q_head_size", p.q_head_size},
              {"k_head_size", p.k_head_size},
              {"v_head_size", p.v_head_size},
              {"rot_dim", p.rot_dim},
              {"q_rot_offset", p.q_rot_offset},
              {"row_elems", p.row_elems},
              {"q_col", p.q_col},
              {"k_col", p.k_col},
              {"v_col", p.v_col},
              {"max_position", p.max_position},
              {"num_blocks", p.num_blocks},
              {"block_size", p.block_size},
              {"cache_tensors", p.cache_tensors},
              {"cache_elems", p.cache_elems},
              {"k_offset", p.k_offset},
              {"v_offset", p.v_offset},
              {"block_stride", p.block_stride},
              {"slot_stride", p.slot_stride},
              {"head_stride", p.head_stride}};
}

// The copies of the written buffers, each with the views a reader needs.
void add_copy(DumpWriter& w, const TensorPlan& p, const std::string& copy, const OutputCopy& c) {
  const Storage elem = storage_of(p.spec.dtype), cache = cache_storage(p.spec);
  const std::int64_t T = p.tokens, Hq = p.num_q_heads, Hkv = p.num_kv_heads;
  const std::int64_t Dq = p.q_head_size, Dk = p.k_head_size, Dv = p.v_head_size;
  w.add("qkv_" + copy, elem, {T, p.row_elems}, c.qkv.data, c.qkv.bytes,
        json{{"query", view({T, Hq, Dq}, {p.row_elems, Dq, 1}, p.q_col)},
             {"key", view({T, Hkv, Dk}, {p.row_elems, Dk, 1}, p.k_col)},
             {"value", view({T, Hkv, Dv}, {p.row_elems, Dv, 1}, p.v_col)}});
  if (c.query_out.bytes > 0)
    w.add("query_out_" + copy, elem, {T, Hq, Dq}, c.query_out.data, c.query_out.bytes);
  // Caches are flat: [block, offset-in-block, head, d] sits at the strides below. A packed or MLA
  // cache is one allocation holding both views; otherwise key and value are separate files.
  const json key_view = view({p.num_blocks, p.block_size, Hkv, Dk},
                             {p.block_stride, p.slot_stride, p.head_stride, 1}, p.k_offset);
  const json value_view = view({p.num_blocks, p.block_size, Hkv, Dv},
                               {p.block_stride, p.slot_stride, p.head_stride, 1}, p.v_offset);
  if (c.k_cache.bytes > 0) {
    json views{{"key", key_view}};
    if (p.cache_tensors == 1) views["value"] = value_view;
    w.add("key_cache_" + copy, cache, {p.cache_elems}, c.k_cache.data, c.k_cache.bytes, views);
  }
  if (c.v_cache.bytes > 0)
    w.add("value_cache_" + copy, cache, {p.cache_elems}, c.v_cache.data, c.v_cache.bytes,
          json{{"value", value_view}});
}

}  // namespace

std::string dump_folder_name(const std::string& case_id) {
  constexpr std::size_t kMax = 96, kHash = 10;  // "-h" + 8 hex digits
  std::string name;
  bool lossy = false;
  for (char ch : case_id) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || ch == '.' || ch == '_' || ch == '=' || ch == '-') {
      name += ch;
    } else if (ch == '|') {
      name += '+';
    } else {
      name += '_';
      lossy = true;
    }
  }
  // A leading dot hides the folder, a trailing one Windows drops.
  if (!name.empty() && name.front() == '.') name.front() = '_', lossy = true;
  if (!name.empty() && name.back() == '.') name.back() = '_', lossy = true;
  if (name.empty()) name = "case", lossy = true;
  if (name.size() > kMax) name.resize(kMax - kHash), lossy = true;
  if (lossy) {
    char hash[16];
    std::snprintf(hash, sizeof hash, "-h%08x", fnv1a(case_id));
    name += hash;
  }
  return name;
}

std::string prepare_dump_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  const fs::path probe = fs::path(dir) / ".rope-kv-bench-write-test";
  {
    std::ofstream f(probe);
    if (!(f << "x")) return "cannot write in " + dir;
  }
  fs::remove(probe, ec);
  return "";
}

std::string write_case_dump(const std::string& dir, const TensorPlan& p, const HostInputs& in,
                            const CaseDump& d) {
  const std::string id = p.spec.id();
  const fs::path folder = fs::path(dir) / dump_folder_name(id);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    throw std::runtime_error("--dump: cannot create " + folder.string() + ": " + ec.message());

  DumpWriter w(folder.string());
  const Storage cs = p.spec.cos_sin_fp32 ? kFloat32 : storage_of(p.spec.dtype);
  w.add("positions", kInt64, {p.tokens}, in.positions.data(), p.tokens * 8);
  if (!in.slots.empty())
    w.add("slot_mapping", kInt64, {p.cache_tokens}, in.slots.data(), p.cache_tokens * 8);
  w.add("cos_sin_cache", cs, {p.max_position, p.rot_dim}, in.cos_sin.data(),
        static_cast<std::int64_t>(in.cos_sin.size()),
        json{{"cos", view({p.max_position, p.rot_dim / 2}, {p.rot_dim, 1}, 0)},
             {"sin", view({p.max_position, p.rot_dim / 2}, {p.rot_dim, 1}, p.rot_dim / 2)}});
  if (!in.k_scale.empty()) {
    const auto n = static_cast<std::int64_t>(in.k_scale.size());
    w.add("k_scale", kFloat32, {n}, in.k_scale.data(), n * 4);
    w.add("v_scale", kFloat32, {n}, in.v_scale.data(), n * 4);
  }
  add_copy(w, p, "input", d.input);
  add_copy(w, p, "fused", d.fused);
  add_copy(w, p, "pair", d.pair);
  add_copy(w, p, "golden", d.golden);

  const bool all_tokens = static_cast<std::int64_t>(d.golden_tokens.size()) == p.tokens;
  const json meta{{"format", "rope-kv-bench case dump"},
                  {"format_version", 1},
                  {"tool", "rope-kv-bench"},
                  {"tool_version", d.tool_version},
                  {"case_id", id},
                  {"repro", "rope-kv-bench validate " + p.spec.repro_args()},
                  {"spec", json(p.spec)},
                  {"validation",
                   {{"disposition", d.disposition},
                    {"mismatches", d.mismatches},
                    {"first_mismatch", d.first_mismatch}}},
                  {"plan", plan_json(p)},
                  {"scales",
                   {{"kind", in.k_scale.empty() ? "none" : to_string(p.spec.scale)},
                    {"k_scale", in.k_scale},
                    {"v_scale", in.v_scale}}},
                  {"golden_tokens", {{"all", all_tokens}, {"tokens", d.golden_tokens}}},
                  {"arrays", w.arrays()}};
  const fs::path meta_path = folder / "meta.json";
  std::ofstream f(meta_path);
  f << meta.dump(1) << '\n';
  if (!f) throw std::runtime_error("--dump: cannot write " + meta_path.string());
  return folder.string();
}

}  // namespace rkv
