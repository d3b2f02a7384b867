// The names of CaseSpec's enums and of the timing modes, from one table each (name_table.h).
#include "plan/case_spec.h"
#include "plan/name_table.h"
#include "plan/sweep_axes.h"
#include "plan/timing_options.h"

namespace rkv {
namespace {

const NameTable<DType>& dtype_table() {
  static const NameTable<DType> t{
      {DType::bf16, "bf16"}, {DType::fp16, "fp16"}, {DType::fp32, "fp32"}};
  return t;
}
const NameTable<CacheDType>& cache_dtype_table() {
  static const NameTable<CacheDType> t{{CacheDType::auto_, "auto"},
                                       {CacheDType::fp8_e4m3, "fp8_e4m3"},
                                       {CacheDType::fp8_e5m2, "fp8_e5m2"}};
  return t;
}
const NameTable<RopeStyle>& style_table() {
  static const NameTable<RopeStyle> t{{RopeStyle::neox, "neox"}, {RopeStyle::gptj, "gptj"}};
  return t;
}
const NameTable<SlotMode>& slot_table() {
  static const NameTable<SlotMode> t{{SlotMode::mixed, "mixed"},
                                     {SlotMode::padded, "padded"},
                                     {SlotMode::all_invalid, "all_invalid"},
                                     {SlotMode::rope_only, "rope_only"}};
  return t;
}
const NameTable<ScaleKind>& scale_table() {
  static const NameTable<ScaleKind> t{{ScaleKind::per_tensor, "tensor"},
                                      {ScaleKind::per_head, "head"}};
  return t;
}
const NameTable<QueryOut>& query_out_table() {
  static const NameTable<QueryOut> t{{QueryOut::inplace, "inplace"},
                                     {QueryOut::separate, "separate"}};
  return t;
}
const NameTable<KeyOut>& key_out_table() {
  static const NameTable<KeyOut> t{{KeyOut::writeback, "writeback"},
                                   {KeyOut::cache_only, "cache_only"}};
  return t;
}
const NameTable<FillValues>& fill_values_table() {
  static const NameTable<FillValues> t{{FillValues::seeded, "seeded"},
                                       {FillValues::specials, "specials"}};
  return t;
}
const NameTable<TimingMode>& timing_table() {
  static const NameTable<TimingMode> t{
      {TimingMode::cold, "cold"},         {TimingMode::warm, "warm"},
      {TimingMode::graph, "graph"},       {TimingMode::wall, "wall"},
      {TimingMode::producer, "producer"}, {TimingMode::producer_pdl, "producer_pdl"}};
  return t;
}

}  // namespace

// ---- enum names

std::string to_string(DType v) {
  return name_of(dtype_table(), v);
}
std::string to_string(CacheDType v) {
  return name_of(cache_dtype_table(), v);
}
std::string to_string(RopeStyle v) {
  return name_of(style_table(), v);
}
std::string to_string(SlotMode v) {
  return name_of(slot_table(), v);
}
std::string to_string(ScaleKind v) {
  return name_of(scale_table(), v);
}
std::string to_string(QueryOut v) {
  return name_of(query_out_table(), v);
}
std::string to_string(KeyOut v) {
  return name_of(key_out_table(), v);
}
std::string to_string(FillValues v) {
  return name_of(fill_values_table(), v);
}
std::string to_string(TimingMode m) {
  return name_of(timing_table(), m);
}

std::optional<DType> parse_dtype(const std::string& s) {
  return value_of(dtype_table(), s);
}
std::optional<CacheDType> parse_cache_dtype(const std::string& s) {
  if (s == "fp8") return CacheDType::fp8_e4m3;  // vLLM's kv_cache_dtype="fp8" means e4m3
  return value_of(cache_dtype_table(), s);
}
std::optional<RopeStyle> parse_style(const std::string& s) {
  return value_of(style_table(), s);
}
std::optional<SlotMode> parse_slot_mode(const std::string& s) {
  return value_of(slot_table(), s);
}
std::optional<ScaleKind> parse_scale_kind(const std::string& s) {
  return value_of(scale_table(), s);
}
std::optional<QueryOut> parse_query_out(const std::string& s) {
  return value_of(query_out_table(), s);
}
std::optional<KeyOut> parse_key_out(const std::string& s) {
  return value_of(key_out_table(), s);
}
std::optional<FillValues> parse_fill_values(const std::string& s) {
  return value_of(fill_values_table(), s);
}
std::optional<TimingMode> parse_timing_mode(const std::string& s) {
  return value_of(timing_table(), s);
}

// Declared in sweep_axes.h for `list` and the error messages; they read the tables above so no
// name is written twice.
std::vector<std::string> dtype_names() {
  return names_of(dtype_table());
}
std::vector<std::string> cache_dtype_names() {
  return names_of(cache_dtype_table());
}
std::vector<std::string> style_names() {
  return names_of(style_table());
}
std::vector<std::string> slot_mode_names() {
  return names_of(slot_table());
}
std::vector<std::string> scale_kind_names() {
  return names_of(scale_table());
}
std::vector<std::string> query_out_names() {
  return names_of(query_out_table());
}
std::vector<std::string> key_out_names() {
  return names_of(key_out_table());
}
std::vector<std::string> fill_values_names() {
  return names_of(fill_values_table());
}
std::vector<std::string> timing_mode_names() {
  return names_of(timing_table());
}

}  // namespace rkv
