#include "gate/verdict_json.h"

#include <nlohmann/json.hpp>

#include "gate/compare_render.h"

namespace rkv {
namespace {

using nlohmann::json;

json run_json(const RunInfo& r) {
  return json{{"git_revision", r.git_revision},
              {"created_utc", r.created_utc},
              {"tool_version", r.tool_version},
              {"device", r.device.fingerprint()},
              {"gpu_uuid", r.device.uuid}};
}

json gate_json(const GateResult& g) {
  const Judgement& j = g.judgement;
  return json{{"quantity", to_string(g.what)},
              {"baseline", g.baseline},
              {"current", g.current},
              {"change", to_string(j.change)},
              {"delta_pct", j.delta * 100},
              {"threshold_pct", j.threshold * 100},
              {"floor_shift_pct", j.floor_shift * 100},
              {"noise_pct", j.noise * 100},
              {"machine_allowance_pct", j.machine_allowance * 100},
              {"evidence",
               {{"method", j.evidence.method},
                {"z", j.evidence.z},
                {"p_slower", j.evidence.p_slower},
                {"p_faster", j.evidence.p_faster}}},
              {"why", j.why}};
}

const char* result_word(CompareExit e) {
  switch (e) {
    case CompareExit::pass:
      return "pass";
    case CompareExit::regression:
      return "regression";
    case CompareExit::not_passed:
      return "not_passed";
    case CompareExit::inconclusive:
      return "inconclusive";
    case CompareExit::usage:
      return "usage";
    case CompareExit::environment:
      return "environment";
  }
  return "usage";
}

}  // namespace

std::string verdict_json(const CompareOutcome& o) {
  json gated = json::array();
  for (Gated g : o.gate)
    gated.push_back(to_string(g));
  json cases = json::array();
  for (const CaseComparison* c : rows_in_order(o)) {
    json gates = json::array(), rerun = json::array();
    for (const GateResult& g : c->gates)
      gates.push_back(gate_json(g));
    for (const GateResult& g : c->rerun_gates)
      rerun.push_back(gate_json(g));
    cases.push_back(json{{"id", c->id},
                         {"mode", c->mode},
                         {"verdict", to_string(c->verdict)},
                         {"fails", fails_gate(c->verdict, o.allow_missing)},
                         {"machine_allowance_pct", c->machine_allowance * 100},
                         {"gates", gates},
                         {"rerun_gates", rerun},
                         {"notes", c->notes}});
  }
  json counts = json::object();
  for (Verdict v :
       {Verdict::pass, Verdict::win, Verdict::noted, Verdict::unconfirmed, Verdict::accepted,
        Verdict::regression, Verdict::missing, Verdict::added, Verdict::not_passed})
    counts[to_string(v)] = o.count(v);
  const RuleParams& r = o.rule;
  const json j = {{"tool", "rope-kv-bench compare"},
                  {"exit_code", o.exit_code()},
                  {"result", result_word(o.exit)},
                  {"message", o.message},
                  {"warnings", o.warnings},
                  {"baseline", run_json(o.baseline)},
                  {"current", run_json(o.current)},
                  {"same_gpu", o.same_gpu ? json(*o.same_gpu) : json(nullptr)},
                  {"rerun", o.rerun},
                  {"allow_missing", o.allow_missing},
                  {"rule",
                   {{"gate", gated},
                    {"min_slowdown_pct", r.min_slowdown * 100},
                    {"resolution_us", r.resolution_us},
                    {"noise_factor", r.noise_factor},
                    {"floor_shift_share", r.floor_shift_share},
                    {"max_p", r.max_p},
                    {"speedup_tolerance_pct", r.speedup_tolerance * 100},
                    {"machine_allowance", to_string(o.machine_allowance_mode)},
                    {"machine_allowance_applies", o.machine_allowance_applies},
                    {"machine_allowance_why", o.machine_allowance_why},
                    {"decode_max_tokens", r.decode_max_tokens},
                    {"mid_max_tokens", r.mid_max_tokens},
                    {"machine_allowance_pct",
                     {{"decode", r.decode_machine_allowance * 100},
                      {"mid", r.mid_machine_allowance * 100},
                      {"large", r.large_machine_allowance * 100}}},
                    {"description", describe_rule(o)}}},
                  {"counts", counts},
                  {"cases", cases}};
  return j.dump(2) + "\n";
}

}  // namespace rkv
