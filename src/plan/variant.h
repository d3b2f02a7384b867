// The launch variants of one case: the fused kernel, the unfused pair (rope then cache_write,
// back to back) and each kernel of the pair alone. Their names are what reports, CSV columns,
// NVTX ranges and `profile --variants` say.
//
// It lives in plan/ because a run plans which variants to launch (RunRequest::variants) and plan/
// is the lowest folder that everything naming a variant already includes: timing names its
// samples by it, report and gate look results up by it, cli parses it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rkv {

enum class Variant : std::uint8_t { fused, pair, rope, cache_write };

// Every variant, in the order they are timed and reported.
const std::vector<Variant>& all_variants();

std::string to_string(Variant v);                               // "fused", "cache_write"
std::optional<Variant> parse_variant(const std::string& name);  // the same names
std::vector<std::string> variant_names();                       // in all_variants() order
std::string to_string(const std::vector<Variant>& vs);          // "fused, pair"

}  // namespace rkv
