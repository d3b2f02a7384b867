#include "gate/machine_allowance.h"

#include <fmt/format.h>

namespace rkv {
namespace {

// Which GPU each run was measured on, in words: "baseline measured on this GPU (...)".
std::string gpu_fact(const DeviceInfo& b, const DeviceInfo& c) {
  if (b.uuid.empty() && c.uuid.empty()) return "GPU of both runs unknown (reports without uuid)";
  if (b.uuid.empty()) return "GPU of the baseline unknown (report without uuid)";
  if (c.uuid.empty()) return "GPU of the current run unknown (report without uuid)";
  if (b.uuid == c.uuid) return "baseline measured on this GPU (" + b.uuid + ")";
  return "baseline measured on another GPU (uuid " + b.uuid + " vs " + c.uuid + ")";
}

bool applies(MachineAllowance mode, std::optional<bool> same) {
  switch (mode) {
    case MachineAllowance::on:
      return true;
    case MachineAllowance::off:
      return false;
    case MachineAllowance::by_uuid:
      return same != true;
  }
  return true;
}

}  // namespace

std::string to_string(MachineAllowance m) {
  switch (m) {
    case MachineAllowance::by_uuid:
      return "auto";
    case MachineAllowance::on:
      return "on";
    case MachineAllowance::off:
      return "off";
  }
  return "auto";
}

std::optional<MachineAllowance> parse_machine_allowance(const std::string& text) {
  for (MachineAllowance m :
       {MachineAllowance::by_uuid, MachineAllowance::on, MachineAllowance::off})
    if (text == to_string(m)) return m;
  return std::nullopt;
}

std::optional<bool> same_gpu(const DeviceInfo& a, const DeviceInfo& b) {
  if (a.uuid.empty() || b.uuid.empty()) return std::nullopt;
  return a.uuid == b.uuid;
}

AllowanceDecision decide_machine_allowance(MachineAllowance mode, const DeviceInfo& baseline,
                                           const DeviceInfo& other, const RuleParams& r) {
  AllowanceDecision d;
  d.same_gpu = same_gpu(baseline, other);
  d.applies = applies(mode, d.same_gpu);
  const std::string what =
      d.applies
          ? fmt::format(
                "between-machine allowance applies ({:g}% at N <= {}, {:g}% at N "
                "<= {}, {:g}% above)",
                r.decode_machine_allowance * 100, r.decode_max_tokens,
                r.mid_machine_allowance * 100, r.mid_max_tokens, r.large_machine_allowance * 100)
          : std::string("no machine allowance");
  const std::string fact = gpu_fact(baseline, other);
  d.why = mode == MachineAllowance::by_uuid
              ? fact + ": " + what
              : fact + "; --machine-allowance " + to_string(mode) + ": " + what;
  return d;
}

}  // namespace rkv
