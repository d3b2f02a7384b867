#include "validate/validator.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "device/cuda_check.h"
#include "device/device_compare.h"
#include "golden.h"
#include "rope_kv_check.h"
#include "unfused_pair.h"
#include "validate/buffer_coordinates.h"
#include "validate/case_dump.h"
#include "validate/host_outputs.h"

namespace rkv {
namespace {

constexpr BufferKind kBuffers[] = {BufferKind::qkv, BufferKind::query_out, BufferKind::k_cache,
                                   BufferKind::v_cache};

struct Mismatch {
  std::int64_t count = 0;
  std::string first;

  void add(const TensorPlan& p, BufferKind b, const ByteDiff& d, const char* against) {
    if (d.count == 0) return;
    if (count == 0) first = fmt::format("vs {}: {}", against, describe_byte(p, b, d.first));
    count += d.count;
  }
};

// Tokens the golden model checks: all of them, or for a large case the first, the last, the ones
// around the cached/uncached boundary and a seeded random rest.
std::vector<std::int64_t> golden_tokens(const TensorPlan& p, std::int64_t limit) {
  std::vector<std::int64_t> tokens;
  if (p.tokens <= limit) {
    tokens.resize(static_cast<std::size_t>(p.tokens));
    for (std::int64_t t = 0; t < p.tokens; ++t)
      tokens[static_cast<std::size_t>(t)] = t;
    return tokens;
  }
  std::vector<std::int64_t> picks = {0, p.tokens - 1, p.cache_tokens - 1, p.cache_tokens};
  std::mt19937_64 rng(p.spec.seed ^ 0x601DE2ull);
  std::uniform_int_distribution<std::int64_t> any(0, p.tokens - 1);
  while (static_cast<std::int64_t>(picks.size()) < limit)
    picks.push_back(any(rng));
  for (std::int64_t t : picks)
    if (t >= 0 && t < p.tokens) tokens.push_back(t);
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

void diff_range(const HostBytes& a, const HostBytes& b, std::int64_t begin, std::int64_t len,
                ByteDiff& d) {
  if (len <= 0 ||
      std::memcmp(a.data() + begin, b.data() + begin, static_cast<std::size_t>(len)) == 0)
    return;
  for (std::int64_t i = begin; i < begin + len; ++i) {
    if (a[i] == b[i]) continue;
    if (d.first < 0 || i < d.first) d.first = i;
    ++d.count;
  }
}

// fused vs golden on the host. Sampled: qkv/query_out rows of the sampled tokens, and every cache
// entry except those a non-sampled token targets (so untouched sentinel entries are all checked).
void compare_with_golden(const TensorPlan& p, const HostInputs& in, HostOutputs& golden,
                         HostOutputs& fused, const std::vector<std::int64_t>& tokens, Mismatch& m) {
  const bool all = static_cast<std::int64_t>(tokens.size()) == p.tokens;
  for (BufferKind b : kBuffers) {
    ByteDiff d;
    auto& g = golden.of(b);
    auto& f = fused.of(b);
    if (all) {
      diff_range(g, f, 0, g.size(), d);
    } else if (b == BufferKind::qkv || b == BufferKind::query_out) {
      const std::int64_t row = g.size() / std::max<std::int64_t>(p.tokens, 1);
      for (std::int64_t t : tokens)
        diff_range(g, f, t * row, row, d);
    } else if (!g.empty()) {
      std::vector<char> sampled(static_cast<std::size_t>(p.tokens), 0);
      for (std::int64_t t : tokens)
        sampled[static_cast<std::size_t>(t)] = 1;
      std::unordered_map<std::int64_t, std::int64_t> owner;
      for (std::size_t t = 0; t < in.slots.size(); ++t)
        if (in.slots[t] >= 0) owner[in.slots[t]] = static_cast<std::int64_t>(t);
      const bool key = b == BufferKind::k_cache;
      const std::int64_t ce = static_cast<std::int64_t>(p.cache_elem_bytes);
      for (std::int64_t blk = 0; blk < p.num_blocks; ++blk)
        for (std::int64_t off = 0; off < p.block_size; ++off) {
          const auto it = owner.find(blk * p.block_size + off);
          if (it != owner.end() && !sampled[static_cast<std::size_t>(it->second)]) continue;
          for (std::int64_t h = 0; h < p.num_kv_heads; ++h) {
            const std::int64_t base =
                blk * p.block_stride + off * p.slot_stride + h * p.head_stride;
            // A shared (packed/MLA) allocation is compared whole under k_cache.
            if (p.cache_tensors == 1) {
              diff_range(g, f, (base + p.k_offset) * ce, p.k_head_size * ce, d);
              diff_range(g, f, (base + p.v_offset) * ce, p.v_head_size * ce, d);
            } else {
              diff_range(g, f, base * ce, (key ? p.k_head_size : p.v_head_size) * ce, d);
            }
          }
        }
    }
    m.add(p, b, d, "golden");
  }
}

// One copy's host buffers as the dump writer sees them.
OutputCopy copy_of(HostOutputs& h) {
  return {{h.qkv.data(), h.qkv.size()},
          {h.query_out.data(), h.query_out.size()},
          {h.k_cache.data(), h.k_cache.size()},
          {h.v_cache.data(), h.v_cache.size()}};
}

// Flips one byte of the fused output: the key cache when the case writes one, else qkv.
void plant_error(OutputBuffers& fused, std::int64_t at) {
  DeviceBuffer& target = fused.k_cache.bytes() > 0 ? fused.k_cache : fused.qkv;
  if (at >= target.bytes()) throw std::runtime_error("--plant-error offset is past the buffer");
  std::uint8_t byte = 0;
  cuda_check(cudaMemcpy(&byte, static_cast<char*>(target.get()) + at, 1, cudaMemcpyDeviceToHost),
             "planting an error");
  byte ^= 0x5a;
  cuda_check(cudaMemcpy(static_cast<char*>(target.get()) + at, &byte, 1, cudaMemcpyHostToDevice),
             "planting an error");
}

}  // namespace

CaseValidation validate_case(DeviceCase& dc, const ValidateOptions& o, ValidationScratch& scratch) {
  const TensorPlan& p = dc.plan;
  // Validation always gives the fused kernel slot A and the pair slot B.
  const SlotAssignment slots = SlotAssignment::straight();
  OutputBuffers& fused_out = dc.outputs(slots.fused);
  OutputBuffers& pair_out = dc.outputs(slots.pair);
  const RopeKvArgs fused_args = dc.args(slots.fused);
  CaseValidation v;
  if (rope_kv_vector_elems(fused_args) == 0) {
    v.disposition = Disposition::not_supported;
    v.detail = "no supported access width divides these shapes and strides";
    return v;
  }
  const std::string bad = check_rope_kv_inputs(fused_args, host_side(dc.host));
  if (!bad.empty()) {
    v.disposition = Disposition::failed;
    v.detail = "input contract: " + bad;
    return v;
  }

  using Clock = std::chrono::steady_clock;
  auto lap = [t = Clock::now()](double& into) mutable {
    const auto now = Clock::now();
    into += std::chrono::duration<double>(now - t).count();
    t = now;
  };
  HostOutputs& golden = scratch.golden;
  HostOutputs& fused = scratch.fused;
  golden.download(fused_out);  // the inputs; the golden model then works on them in place
  if (!o.dump_dir.empty()) scratch.inputs.download(fused_out);
  lap(v.inputs_s);
  cuda_check(unfused_pair(dc.args(slots.pair), nullptr), "launching the unfused pair");
  cuda_check(rope_kv_fused(fused_args, nullptr), "launching rope_kv_fused");
  // The golden model runs on the host while the kernels run on the device.
  const std::vector<std::int64_t> tokens = golden_tokens(p, o.golden_sample_tokens);
  const int threads = o.threads > 0
                          ? o.threads
                          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  golden_rope_kv(bind_args(p, golden.pointers(dc.host)), &tokens, threads);
  lap(v.golden_s);
  cuda_check(cudaDeviceSynchronize(), "running the kernels");

  lap(v.kernels_s);
  if (o.plant_error_at >= 0) plant_error(fused_out, o.plant_error_at);
  Mismatch m;
  // The pair always writes rotated keys back; with key_out=cache_only the fused kernel must not,
  // so those columns are left to the golden comparison.
  RowWindow key_columns;
  if (p.spec.key_out == KeyOut::cache_only) {
    const std::int64_t e = static_cast<std::int64_t>(p.elem_bytes);
    key_columns = {p.row_elems * e, p.k_col * e,
                   (p.k_col + std::int64_t{p.num_kv_heads} * p.k_head_size) * e};
  }
  m.add(p, BufferKind::qkv,
        compare_device_bytes(fused_out.qkv.get(), pair_out.qkv.get(), p.qkv_bytes(), key_columns),
        "pair");
  m.add(p, BufferKind::query_out,
        compare_device_bytes(fused_out.query_out.get(), pair_out.query_out.get(),
                             p.query_out_bytes()),
        "pair");
  m.add(p, BufferKind::k_cache,
        compare_device_bytes(fused_out.k_cache.get(), pair_out.k_cache.get(),
                             fused_out.k_cache.bytes()),
        "pair");
  m.add(p, BufferKind::v_cache,
        compare_device_bytes(fused_out.v_cache.get(), pair_out.v_cache.get(),
                             fused_out.v_cache.bytes()),
        "pair");

  lap(v.device_compare_s);
  fused.download(fused_out);
  compare_with_golden(p, dc.host, golden, fused, tokens, m);
  lap(v.host_compare_s);

  v.disposition = m.count == 0 ? Disposition::passed : Disposition::incorrect;
  v.mismatches = m.count;
  v.first_mismatch = m.first;
  if (!o.dump_dir.empty() && (o.dump_all || m.count != 0)) {
    scratch.pair.download(pair_out);
    CaseDump d;
    d.tool_version = o.tool_version;
    d.disposition = to_string(v.disposition);
    d.mismatches = m.count;
    d.first_mismatch = m.first;
    d.input = copy_of(scratch.inputs);
    d.fused = copy_of(fused);
    d.pair = copy_of(scratch.pair);
    d.golden = copy_of(golden);
    d.golden_tokens = tokens;
    write_case_dump(o.dump_dir, p, dc.host, d);
  }
  v.detail = static_cast<std::int64_t>(tokens.size()) == p.tokens
                 ? "fused = pair = golden on every byte"
                 : fmt::format(
                       "fused = pair on every byte; golden on {} of {} tokens and all untargeted "
                       "cache entries",
                       tokens.size(), p.tokens);
  if (m.count != 0) v.detail = fmt::format("{} differing bytes, first {}", m.count, m.first);
  return v;
}

CaseValidation validate_spec(const CaseSpec& spec, const ValidateOptions& o,
                             ValidationScratch& scratch) {
  CaseValidation v;
  v.disposition = Disposition::failed;
  cudaError_t code = cudaSuccess;
  try {
    DeviceCase dc(spec);
    return validate_case(dc, o, scratch);
  } catch (const CudaError& e) {
    code = e.code();
    v.detail = e.what();
  } catch (const std::exception& e) {
    v.detail = e.what();
  }
  // A kernel fault poisons the context whichever call noticed it; the synchronize returns it
  // again when it is sticky, and clears a per-case error (out of memory) so the next case starts
  // clean.
  const cudaError_t after = cudaDeviceSynchronize();
  (void)cudaGetLastError();
  v.reach = classify_cuda_error(code);
  if (classify_cuda_error(after) == CudaFailureReach::sticky) v.reach = CudaFailureReach::sticky;
  if (v.reach == CudaFailureReach::out_of_memory) v.detail = "out of device memory: " + v.detail;
  return v;
}

}  // namespace rkv

namespace rkv {

CaseValidation validate_spec(const CaseSpec& spec, const ValidateOptions& o) {
  ValidationScratch scratch;
  return validate_spec(spec, o, scratch);
}

}  // namespace rkv
