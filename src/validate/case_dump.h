// `validate --dump DIR`: one folder per case that another tool can read without this one. Each
// holds meta.json (what wrote it, every case parameter, the tensor plan, and for every array its
// file, dtype, how it is stored, shape and the views into it) and one .npy file per array
// (docs/dump.md). Written from host memory only, so it is tested without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/workload.h"

namespace rkv {

// Bytes in host memory, not owned.
struct HostArray {
  const void* data = nullptr;
  std::int64_t bytes = 0;
};

// One copy of every buffer the operation writes (an empty HostArray: the case has no such buffer).
struct OutputCopy {
  HostArray qkv, query_out, k_cache, v_cache;
};

struct CaseDump {
  std::string tool_version;
  std::string disposition;  // to_string(Disposition)
  std::int64_t mismatches = 0;
  std::string first_mismatch;
  // The copies: the inputs before any kernel ran, and each variant's outputs. `golden` holds the
  // golden model's outputs on `golden_tokens` (and the inputs elsewhere when it was sampled).
  OutputCopy input, fused, pair, golden;
  std::vector<std::int64_t> golden_tokens;  // ascending; every token when the whole case
};

// The folder name for a case id: safe on every common filesystem (only A-Z a-z 0-9 . _ = - +),
// '|' written as '+', at most 96 characters, and a short hash of the id appended whenever
// anything else was replaced or the name was cut, so distinct ids never share a folder.
std::string dump_folder_name(const std::string& case_id);

// Creates DIR and checks that a file can be written in it, before any case runs: "" when it can,
// else one line saying why.
std::string prepare_dump_dir(const std::string& dir);

// Writes DIR/dump_folder_name(id)/ with meta.json and the arrays; returns that folder. Throws
// std::runtime_error naming the path when it cannot be written.
std::string write_case_dump(const std::string& dir, const TensorPlan& plan, const HostInputs& in,
                            const CaseDump& dump);

}  // namespace rkv
