// Same GPU or another: whether the gate's between-machine allowance (gate_rule.h) applies to a
// comparison. Two reports name the same board when both carry a device uuid and the uuids are
// equal; otherwise (different, or either unknown) the allowance applies, unless
// --machine-allowance says otherwise. docs/ci.md, "Same GPU or another: the machine allowance".
#pragma once

#include <optional>
#include <string>

#include "gate/gate_rule.h"
#include "report/report.h"

namespace rkv {

// --machine-allowance: by the reports' GPU uuids (auto), always (on), or never (off).
enum class MachineAllowance { by_uuid, on, off };
std::string to_string(MachineAllowance m);  // "auto", "on", "off"
std::optional<MachineAllowance> parse_machine_allowance(const std::string& text);

// Whether two runs were measured on one GPU: nullopt when either report lacks a uuid.
std::optional<bool> same_gpu(const DeviceInfo& a, const DeviceInfo& b);

struct AllowanceDecision {
  std::optional<bool> same_gpu;  // same_gpu() of the two devices
  bool applies = true;           // what the mode made of it
  // One line for the header, which GPU and so what: "baseline measured on another GPU (uuid A
  // vs B): between-machine allowance applies (8% at N <= 8, ...)".
  std::string why;
  Boards boards() const { return applies ? Boards::may_differ : Boards::same; }
};

// `other`: the current run's device, or the re-run's.
AllowanceDecision decide_machine_allowance(MachineAllowance mode, const DeviceInfo& baseline,
                                           const DeviceInfo& other, const RuleParams& rule);

}  // namespace rkv
