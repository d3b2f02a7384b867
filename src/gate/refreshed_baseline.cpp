#include "gate/refreshed_baseline.h"

#include <map>
#include <utility>

namespace rkv {
namespace {

using Key = std::pair<std::string, std::string>;

struct Indexed {
  const Report* report = nullptr;
  std::map<Key, std::size_t> index;
};

Indexed index_of(const Report* r) {
  Indexed x;
  x.report = r;
  if (!r) return x;
  for (std::size_t i = 0; i < r->cases.size(); ++i)
    x.index.emplace(Key{r->cases[i].id, r->cases[i].mode}, i);
  return x;
}

const CaseResult* find(const Indexed& x, const Key& k) {
  const auto it = x.index.find(k);
  return it == x.index.end() ? nullptr : &x.report->cases[it->second];
}

}  // namespace

std::optional<RefreshedBaseline> refresh_baseline(
    const CompareOutcome& outcome, const Report& baseline,
    const std::vector<CaseProvenance>& baseline_measured_by, const Report& current,
    const Report* rerun) {
  if (outcome.exit != CompareExit::pass) return std::nullopt;
  const Indexed base = index_of(&baseline), cur = index_of(&current), again = index_of(rerun);
  RefreshedBaseline out;
  out.report = current;  // the newest run's device, timing and tool
  out.report.cases.clear();
  out.report.complete = baseline.complete && current.complete;

  auto take = [&](const CaseResult* c, const CaseProvenance& p) {
    out.report.cases.push_back(*c);
    out.measured_by.push_back(p);
  };
  for (const CaseComparison& cmp : outcome.cases) {
    const Key key{cmp.id, cmp.mode};
    const CaseResult* b = find(base, key);
    const CaseResult* c = find(cur, key);
    switch (cmp.verdict) {
      case Verdict::pass:
      case Verdict::win:
      case Verdict::noted:
      case Verdict::accepted:
      case Verdict::added:
        if (c) take(c, provenance_of(current));
        break;
      case Verdict::unconfirmed:
        if (const CaseResult* r = find(again, key))
          take(r, provenance_of(*rerun));
        else if (c)
          take(c, provenance_of(current));
        break;
      case Verdict::missing:
      case Verdict::regression:  // not reachable on exit 0; keep the old numbers if it were
      case Verdict::not_passed:
        if (b) take(b, baseline_measured_by.at(base.index.at(key)));
        break;
    }
  }
  return out;
}

}  // namespace rkv
