// The last of prepare()'s checks (rope_kv_args.h): where the arguments lie in memory. Each reads
// only pointers and strides, never device memory.
#pragma once

#include "refusal.h"
#include "rope_kv.h"
#include "rope_kv_args.h"

namespace rkv_ext {

// Aliasing: nothing written may share a byte with any other argument. query is written in place
// unless query_out is given; key is always written by the pair, so it counts as written.
Error refuse_overlaps(const Inputs& in, const Prepared& p);

// Access width: the kernels need at least 4-byte, pair-aligned accesses everywhere.
Error refuse_misaligned(const Inputs& in, const rkv::RopeKvArgs& a);

}  // namespace rkv_ext
