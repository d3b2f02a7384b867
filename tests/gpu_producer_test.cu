// The producer modes on a GPU (timing/producer_sampler.h, run/case_variants.h): a graph of
// [producer, fused] launched with PDL writes the same bytes as one launched without it and as the
// golden model, on fresh random inputs over poisoned outputs, also when the producer first streams
// stand-in weights (whose ring hands out each window in turn); the capture keeps programmatic
// edges; both modes' samplers return finite added times and positive producer-alone times; the
// copy floor's consumer copies what it should.
//
// Every test here needs a GPU and skips, saying why, without one.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "device/captured_graph.h"
#include "device/cuda_check.h"
#include "device/device_buffers.h"
#include "device/device_info.h"
#include "golden.h"
#include "gpu_skip.h"
#include "pdl_producer.h"
#include "plan/timing_options.h"
#include "run/case_variants.h"
#include "timing/producer_sampler.h"
#include "timing/producer_weights.h"
#include "timing/stream_hold.h"
#include "timing/timer.h"
#include "validate/host_outputs.h"

namespace rkv {
namespace {

class GpuProducerMode : public GpuTest {};

std::uint64_t fresh_seed() {
  static std::random_device rd;
  return (std::uint64_t{rd()} << 32) | rd();
}

CaseSpec make_case(CacheDType cache, const char* heads, RopeStyle style, const char* layout,
                   std::int64_t tokens) {
  CaseSpec s;
  s.dtype = DType::bf16;
  s.cache_dtype = cache;
  s.heads = *HeadConfig::parse(heads);
  s.style = style;
  s.layout = *CacheLayout::parse(layout);
  s.tokens = tokens;
  s.seed = fresh_seed();
  return s;
}

// The configs/pdl.json shapes at decode and a small prefill, plus gpt-j, hnd, a separate query
// output and MLA, so the PDL path is checked beyond the benchmark's own cases.
std::vector<CaseSpec> producer_cases() {
  std::vector<CaseSpec> v = {
      make_case(CacheDType::auto_, "32x8x128", RopeStyle::neox, "nhd", 1),
      make_case(CacheDType::fp8_e4m3, "32x32x128", RopeStyle::neox, "nhd", 8),
      make_case(CacheDType::fp8_e4m3, "8x2x64", RopeStyle::gptj, "hnd", 300),
      make_case(CacheDType::auto_, "mla:16", RopeStyle::neox, "nhd", 17)};
  v[2].query_out = QueryOut::separate;
  return v;
}

// Everything the operation may write, from one slot, in one host vector per buffer.
std::vector<std::vector<std::uint8_t>> written(const OutputBuffers& out) {
  return {out.qkv.to_host(), out.query_out.to_host(), out.k_cache.to_host(), out.v_cache.to_host()};
}

std::vector<std::vector<std::uint8_t>> written(HostOutputs& h) {
  std::vector<std::vector<std::uint8_t>> all;
  for (BufferKind k :
       {BufferKind::qkv, BufferKind::query_out, BufferKind::k_cache, BufferKind::v_cache}) {
    const HostBytes& b = h.of(k);
    all.emplace_back(b.data(), b.data() + b.size());
  }
  return all;
}

// The same fresh pattern over one slot's query_out and caches (`outputs`), or over its qkv.
void poison_outputs(OutputBuffers& out, std::uint64_t seed) {
  fill_sentinel_device(out.query_out.get(), out.query_out.bytes(), seed + 1);
  fill_sentinel_device(out.k_cache.get(), out.k_cache.bytes(), seed + 2);
  fill_sentinel_device(out.v_cache.get(), out.v_cache.bytes(), seed + 3);
}

// One replay of a graph of `reps` x [producer, variant], as the producer modes capture it.
std::unique_ptr<CapturedGraph> producer_graph(const TimedVariant& v, cudaStream_t stream,
                                              int reps) {
  const auto launch = [v](cudaStream_t s) {
    const cudaError_t e = v.producer(s);
    return e != cudaSuccess ? e : v.launch(s);
  };
  return std::make_unique<CapturedGraph>(stream, reps, launch, v.name);
}

// Without stand-in weights and with them (TimingOptions::producer_read_mib; a small ring here, as
// if L2 were 3 MiB: 7 windows of 1 MiB, so the three launches read three windows).
TEST_F(GpuProducerMode, PdlGraphWritesWhatThePlainGraphAndTheGoldenModelWrite) {
  constexpr int kReps = 3;  // the producer restores q/k/v before every launch: one rotation
  ProducerWeights ring(std::int64_t{1} << 20, std::int64_t{3} << 20);
  ASSERT_EQ(ring.windows(), 7);
  for (ProducerWeights* weights : {static_cast<ProducerWeights*>(nullptr), &ring})
    for (const CaseSpec& spec : producer_cases()) {
      SCOPED_TRACE(spec.id() + " seed " + std::to_string(spec.seed) +
                   (weights != nullptr ? " with weights" : ""));
      DeviceCase dc(spec);
      dc.make_pristine_qkv();
      const std::uint64_t poison = fresh_seed();
      poison_outputs(dc.slot_a, poison);
      poison_outputs(dc.slot_b, poison);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      // The golden model on the pristine q/k/v (nothing has run on slot A yet) and the poison.
      HostOutputs golden;
      golden.download(dc.slot_a);
      golden_rope_kv(bind_args(dc.plan, golden.pointers(dc.host)));
      // q/k/v poisoned too: only the producer can put the inputs back.
      fill_sentinel_device(dc.slot_a.qkv.get(), dc.slot_a.qkv.bytes(), poison + 4);
      fill_sentinel_device(dc.slot_b.qkv.get(), dc.slot_b.qkv.bytes(), poison + 4);

      Stream stream;
      // The bench's own variants: fused with PDL on slot A, fused without it on slot B.
      const TimedVariant pdl =
          case_variants(dc, SlotAssignment::straight(), TimingMode::producer_pdl, weights).at(0);
      const TimedVariant plain =
          case_variants(dc, SlotAssignment::swapped(), TimingMode::producer, weights).at(0);
      ASSERT_EQ(pdl.name, "fused");
      ASSERT_EQ(plain.name, "fused");
      const auto pdl_graph = producer_graph(pdl, stream.get(), kReps);
      const auto plain_graph = producer_graph(plain, stream.get(), kReps);
      // Stream capture turned each PDL launch into a programmatic edge, and nothing else did.
      EXPECT_EQ(pdl_graph->programmatic_edges(), kReps);
      EXPECT_EQ(plain_graph->programmatic_edges(), 0);
      pdl_graph->replay(stream.get());
      plain_graph->replay(stream.get());
      ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);

      const auto with_pdl = written(dc.slot_a), without = written(dc.slot_b),
                 want = written(golden);
      const char* names[] = {"qkv", "query_out", "k_cache", "v_cache"};
      for (std::size_t b = 0; b < want.size(); ++b) {
        EXPECT_TRUE(with_pdl[b] == without[b]) << names[b] << ": PDL differs from the plain launch";
        EXPECT_TRUE(with_pdl[b] == want[b]) << names[b] << ": PDL differs from the golden model";
      }
    }
}

// Each launch reads the next window; after `windows` launches the first comes back.
TEST_F(GpuProducerMode, TheWeightRingHandsOutEachWindowInTurn) {
  ProducerWeights ring(std::int64_t{1} << 20, std::int64_t{2} << 20);
  ASSERT_EQ(ring.windows(), 5);
  std::vector<const void*> seen;
  for (int i = 0; i < 5; ++i) {
    const ProducerRead r = ring.next();
    EXPECT_EQ(r.bytes, std::size_t{1} << 20);
    EXPECT_NE(r.sink, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r.weights) % 16, 0u);
    if (!seen.empty())
      EXPECT_EQ(static_cast<const char*>(r.weights) - static_cast<const char*>(seen.back()),
                1 << 20);
    seen.push_back(r.weights);
  }
  EXPECT_EQ(ring.next().weights, seen.front());
}

TEST_F(GpuProducerMode, ThePairWithPdlHasAProgrammaticEdgePerKernel) {
  DeviceCase dc(make_case(CacheDType::auto_, "32x8x128", RopeStyle::neox, "nhd", 8));
  dc.make_pristine_qkv();
  Stream stream;
  const TimedVariant pair =
      case_variants(dc, SlotAssignment::straight(), TimingMode::producer_pdl).at(1);
  ASSERT_EQ(pair.name, "pair");
  EXPECT_EQ(producer_graph(pair, stream.get(), 2)->programmatic_edges(), 4);
}

// What a driver that drops PDL under stream capture would give: a `with` graph without a
// programmatic edge. Made here by handing the PDL mode's sampler variants launched without PDL.
TEST_F(GpuProducerMode, APdlGraphWithoutAProgrammaticEdgeFailsInOneLine) {
  DeviceCase dc(make_case(CacheDType::auto_, "32x8x128", RopeStyle::neox, "nhd", 1));
  dc.make_pristine_qkv();
  Stream stream;
  EventPair events;
  StreamHold hold;
  const std::vector<TimedVariant> plain =
      case_variants(dc, SlotAssignment::straight(), TimingMode::producer);
  try {
    ProducerSampler sampler(stream.get(), events, hold, 2, true, plain);
    FAIL() << "a PDL sampler accepted graphs without programmatic edges";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind("producer_pdl mode: capturing the producer and fused", 0), 0u) << what;
  }
}

TimingOptions quick_options() {
  TimingOptions o;
  o.min_samples = 5;
  o.min_time_s = 0;
  o.timeout_s = 0.5;
  o.warmup_s = 0;
  o.warmup_min = 1;
  o.graph_launches = 10;
  return o;
}

TEST_F(GpuProducerMode, BothModesGiveFiniteAddedAndPositiveProducerTimes) {
  Timer timer(quick_options(), query_device_info());
  for (TimingMode mode : {TimingMode::producer, TimingMode::producer_pdl}) {
    SCOPED_TRACE(to_string(mode));
    DeviceCase dc(make_case(CacheDType::fp8_e4m3, "32x8x128", RopeStyle::neox, "nhd", 128));
    dc.make_pristine_qkv();
    const std::vector<VariantSamples> out =
        timer.sample(mode, case_variants(dc, SlotAssignment::straight(), mode));
    ASSERT_EQ(out.size(), 4u);
    for (const VariantSamples& v : out) {
      ASSERT_FALSE(v.us.empty()) << v.variant;
      ASSERT_EQ(v.producer_us.size(), v.us.size()) << v.variant;
      for (std::size_t i = 0; i < v.us.size(); ++i) {
        EXPECT_TRUE(std::isfinite(v.us[i])) << v.variant;
        EXPECT_TRUE(std::isfinite(v.producer_us[i]) && v.producer_us[i] > 0) << v.variant;
      }
    }
    const double floor = timer.launch_floor_us(mode, kCaseVariants);
    EXPECT_TRUE(std::isfinite(floor)) << floor;
    // The case's own floor: a waiting consumer after the fused variant's producer.
    const double waits = timer.producer_floor_us(
        mode, case_variants(dc, SlotAssignment::straight(), mode).front().producer, 2);
    EXPECT_TRUE(std::isfinite(waits)) << waits;
    // ... and one that also copies what that producer wrote.
    const DeviceBuffer& written = dc.outputs(SlotAssignment::straight().fused).qkv;
    const double copies = timer.producer_copy_floor_us(
        mode, case_variants(dc, SlotAssignment::straight(), mode).front().producer, written.get(),
        written.bytes(), 2);
    EXPECT_TRUE(std::isfinite(copies)) << copies;
  }
  // Only the producer modes have a producer to wait for.
  DeviceCase dc(make_case(CacheDType::auto_, "32x8x128", RopeStyle::neox, "nhd", 1));
  dc.make_pristine_qkv();
  const auto producer =
      case_variants(dc, SlotAssignment::straight(), TimingMode::producer).front().producer;
  EXPECT_THROW(timer.producer_floor_us(TimingMode::graph, producer, 2), std::invalid_argument);
  EXPECT_THROW(timer.producer_floor_us(TimingMode::producer, {}, 2), std::invalid_argument);
  const void* qkv = dc.outputs(SlotAssignment::straight().fused).qkv.get();
  EXPECT_THROW(timer.producer_copy_floor_us(TimingMode::graph, producer, qkv, 512, 2),
               std::invalid_argument);
  EXPECT_THROW(timer.producer_copy_floor_us(TimingMode::producer, producer, nullptr, 512, 2),
               std::invalid_argument);
}

// The copy floor's consumer copies exactly copy_after_wait_bytes from the first 16-byte boundary
// of its source, whatever the source's misalignment and size, with and without PDL, and nothing
// past them: fresh random bytes in, a poisoned destination with its tail as the canary.
TEST_F(GpuProducerMode, TheCopyFloorsConsumerCopiesItsBytesAndNoMore) {
  std::mt19937_64 rng(fresh_seed());
  Stream stream;
  for (const bool pdl : {false, true})
    for (const int misalign : {0, 1, 7, 15})
      for (const std::int64_t bytes : {std::int64_t{8}, std::int64_t{100}, std::int64_t{4096}}) {
        SCOPED_TRACE("pdl " + std::to_string(pdl) + " misalign " + std::to_string(misalign) +
                     " bytes " + std::to_string(bytes));
        DeviceBuffer src(bytes, "copy floor source", misalign);
        DeviceBuffer dst(kCopyFloorBytes, "copy floor destination");
        std::vector<std::uint8_t> in(static_cast<std::size_t>(bytes));
        for (auto& b : in)
          b = static_cast<std::uint8_t>(rng());
        src.upload(in.data(), bytes);
        const std::vector<std::uint8_t> poison(kCopyFloorBytes, 0xA5);
        dst.upload(poison.data(), kCopyFloorBytes);
        ASSERT_EQ(launch_copy_after_wait_kernel(src.get(), bytes, dst.get(), pdl, stream.get()),
                  cudaSuccess);
        ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
        const std::vector<std::uint8_t> out = dst.to_host();
        const std::int64_t skip = (16 - misalign) % 16;
        const std::int64_t copied = copy_after_wait_bytes(src.get(), bytes);
        EXPECT_EQ(copied,
                  bytes - skip < 16 ? 0 : std::min((bytes - skip) / 16 * 16, kCopyFloorBytes));
        for (std::int64_t i = 0; i < kCopyFloorBytes; ++i) {
          const std::uint8_t want = i < copied ? in[static_cast<std::size_t>(skip + i)] : 0xA5;
          ASSERT_EQ(out[static_cast<std::size_t>(i)], want) << "byte " << i;
        }
      }
}

TEST_F(GpuProducerMode, AVariantWithoutAProducerIsRefused) {
  Timer timer(quick_options(), query_device_info());
  DeviceCase dc(make_case(CacheDType::auto_, "32x8x128", RopeStyle::neox, "nhd", 1));
  // case_variants refuses every mode before the pristine copy exists (producers and refreshes
  // copy from it).
  EXPECT_THROW(case_variants(dc, SlotAssignment::straight(), TimingMode::producer),
               std::logic_error);
  EXPECT_THROW(case_variants(dc, SlotAssignment::straight()), std::logic_error);
  dc.make_pristine_qkv();
  const std::vector<TimedVariant> plain = case_variants(dc, SlotAssignment::straight());
  EXPECT_THROW(timer.sample(TimingMode::producer, plain), std::invalid_argument);
}

// ---- host-side contracts: no GPU needed

// Between two reads of one window at least twice L2 of other windows is read, and never fewer
// than two windows.
TEST(ProducerWeightWindows, KeepEachWindowOutOfL2UntilItsTurn) {
  constexpr std::int64_t kMiB = std::int64_t{1} << 20;
  EXPECT_EQ(producer_weight_windows(96 * kMiB, 60 * kMiB), 3);  // 2 x 96 MiB >= 120 MiB
  EXPECT_EQ(producer_weight_windows(48 * kMiB, 60 * kMiB), 4);  // 3 x 48 MiB >= 120 MiB
  EXPECT_EQ(producer_weight_windows(1 * kMiB, 60 * kMiB), 121);
  EXPECT_EQ(producer_weight_windows(512 * kMiB, 60 * kMiB), 2);
  EXPECT_EQ(producer_weight_windows(kMiB, 0), 2);
  EXPECT_THROW(producer_weight_windows(0, 60 * kMiB), std::invalid_argument);
}

// A read the producer cannot do is refused before anything is launched (the checks are the
// host's, so no device is touched: the pointers here are never dereferenced).
TEST(ProducerRead, AReadItCannotDoIsAnInvalidValue) {
  alignas(16) static unsigned char fake[64];
  unsigned sink = 0;
  auto with = [&](const void* weights, std::size_t bytes, unsigned* s) {
    ProducerRead r;
    r.weights = weights;
    r.bytes = bytes;
    r.sink = s;
    return launch_pdl_producer(fake, nullptr, 16, 0, nullptr, r);
  };
  EXPECT_EQ(with(fake + 8, 64, &sink), cudaErrorInvalidValue);  // misaligned
  EXPECT_EQ(with(fake, 40, &sink), cudaErrorInvalidValue);      // not whole 16-byte words
  EXPECT_EQ(with(fake, 64, nullptr), cudaErrorInvalidValue);    // nowhere to fold into
  EXPECT_EQ(launch_pdl_producer(nullptr, nullptr, 16, 0, nullptr), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace rkv
