// What the report model computes for itself: variant lookup and its timestamp.
#include <ctime>

#include "report/report.h"

namespace rkv {

const VariantResult* CaseResult::find_variant(Variant v) const {
  const std::string name = to_string(v);
  for (const VariantResult& r : variants)
    if (r.variant == name) return &r;
  return nullptr;
}

const std::vector<std::vector<double>>* CaseResult::raw_samples_us(Variant variant) const {
  const VariantResult* v = find_variant(variant);
  return v != nullptr && !v->raw_us.empty() ? &v->raw_us : nullptr;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace rkv
