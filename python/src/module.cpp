// rope_kv._ext: the kernel library's launchers for Python, over DLPack tensors.
//
// One entry point, run(), turns the vLLM-shaped arguments (tensors with shapes and strides) into
// one RopeKvArgs, refusing anything the launchers would misread: every check of rope_kv_args.h is
// O(1) in the number of tokens and touches no device memory, so it runs before every launch, also
// while a CUDA graph is being captured. The data-dependent half of the contract (positions in
// range, unique slots, finite scales) needs host copies of device data; check_args(data=True)
// makes them (launch.h).
//
// Every refusal is a Python ValueError or TypeError whose message starts with the argument's name.
// No C++ exception ever leaves or crosses the extension's functions (refusal.h says why): run()
// hands a refusal to the Python wrapper as (kind, message), and the wrapper raises.
//
// The extension's other files, each with one job: refusal.h (the Error and its text, built without
// iostreams), dlpack_tensor (importing one tensor), tensor_views (one tensor's shape checks),
// rope_kv_args (all arguments to one RopeKvArgs), memory_checks (overlap and alignment), launch
// (the CUDA calls).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>
#include <utility>

#include "dlpack_tensor.h"
#include "launch.h"
#include "refusal.h"
#include "rope_kv.h"  // RKV_HAS_PDL
#include "rope_kv_args.h"

namespace nb = nanobind;

namespace rkv_ext {
namespace {

// Everything run() does; a refusal comes back as an Error.
Error checked_run(int op_code, nb::handle positions, nb::handle query, nb::handle key,
                  nb::handle value, nb::handle cos_sin_cache, nb::handle slot_mapping,
                  nb::handle key_cache, nb::handle value_cache, nb::handle k_scale,
                  nb::handle v_scale, bool is_neox, std::string kv_cache_dtype, std::string layout,
                  std::int64_t head_size, nb::handle query_out, bool write_back_key, bool pdl,
                  std::uintptr_t stream, bool check_data) {
  if (op_code < 0 || op_code > 4) return value_error("op: unknown operation ", op_code);
  const Op op = static_cast<Op>(op_code);
  Options o;
  o.is_neox = is_neox;
  o.kv_cache_dtype = std::move(kv_cache_dtype);
  RKV_TRY(parse_cache_dtype(o.kv_cache_dtype, o.cache_dtype));
  o.layout = std::move(layout);
  if (!o.layout.empty() && o.layout != "nhd" && o.layout != "hnd")
    return value_error("layout: expected None, 'nhd' or 'hnd', got '", o.layout, "'");
  o.head_size = head_size;
  if (o.head_size < 0) return value_error("head_size: expected a positive size, got ", o.head_size);
  o.write_back_key = write_back_key;
  o.pdl = pdl;
  // Which tensors we may write decides how each is imported.
  const bool in_place_q = query_out.is_none();
  Inputs in;
  RKV_TRY(import_tensor("positions", positions, false, in.positions));
  RKV_TRY(import_tensor("query", query, in_place_q, in.query));
  RKV_TRY(import_tensor("key", key, true, in.key));
  RKV_TRY(import_tensor("value", value, false, in.value));
  RKV_TRY(import_tensor("cos_sin_cache", cos_sin_cache, false, in.cos_sin_cache));
  RKV_TRY(import_tensor("slot_mapping", slot_mapping, false, in.slot_mapping));
  RKV_TRY(import_tensor("key_cache", key_cache, true, in.key_cache));
  RKV_TRY(import_tensor("value_cache", value_cache, true, in.value_cache));
  // Scales are read only for fp8 caches; "auto" ignores them, as the C API does.
  if (o.cache_dtype != rkv::CacheDType::auto_) {
    RKV_TRY(import_tensor("k_scale", k_scale, false, in.k_scale));
    RKV_TRY(import_tensor("v_scale", v_scale, false, in.v_scale));
  } else {
    in.k_scale.name = "k_scale";
    in.v_scale.name = "v_scale";
  }
  RKV_TRY(import_tensor("query_out", query_out, true, in.query_out));
  Prepared p;
  RKV_TRY(prepare(op, in, o, p));
  if (op == Op::check && !check_data) return {};  // O(1) checks only: no CUDA call at all
  return launch(op, p, reinterpret_cast<cudaStream_t>(stream), check_data);
}

// The Python entry: None, or (error kind, message) for rope_kv/__init__.py to raise. Built with
// Python's C API, which reports failure (only memory exhaustion here) as a set Python error and
// a null result, never as a C++ exception; nanobind passes both on to the caller.
nb::object run(int op_code, nb::handle positions, nb::handle query, nb::handle key,
               nb::handle value, nb::handle cos_sin_cache, nb::handle slot_mapping,
               nb::handle key_cache, nb::handle value_cache, nb::handle k_scale, nb::handle v_scale,
               bool is_neox, std::string kv_cache_dtype, std::string layout, std::int64_t head_size,
               nb::handle query_out, bool write_back_key, bool pdl, std::uintptr_t stream,
               bool check_data) {
  const Error e =
      checked_run(op_code, positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
                  value_cache, k_scale, v_scale, is_neox, std::move(kv_cache_dtype),
                  std::move(layout), head_size, query_out, write_back_key, pdl, stream, check_data);
  if (!e) return nb::none();
  PyObject* message =
      PyUnicode_DecodeUTF8(e.message.data(), static_cast<Py_ssize_t>(e.message.size()), "replace");
  if (message == nullptr) return nb::object();
  return nb::steal(Py_BuildValue("(iN)", static_cast<int>(e.kind), message));
}

// CUDA devices the runtime sees; 0 (not an error) without a driver or GPU, so tests can skip.
int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

}  // namespace
}  // namespace rkv_ext

NB_MODULE(_ext, m) {
  m.doc() = "rope_kv's compiled core: argument checks and launches over DLPack tensors";
  m.def("run", &rkv_ext::run, nb::arg("op"), nb::arg("positions").none(), nb::arg("query").none(),
        nb::arg("key").none(), nb::arg("value").none(), nb::arg("cos_sin_cache").none(),
        nb::arg("slot_mapping").none(), nb::arg("key_cache").none(), nb::arg("value_cache").none(),
        nb::arg("k_scale").none(), nb::arg("v_scale").none(), nb::arg("is_neox"),
        nb::arg("kv_cache_dtype"), nb::arg("layout"), nb::arg("head_size"),
        nb::arg("query_out").none(), nb::arg("write_back_key"), nb::arg("pdl"), nb::arg("stream"),
        nb::arg("check_data"));
  m.def("device_count", &rkv_ext::device_count);
  m.attr("OP_CHECK") = static_cast<int>(rkv_ext::Op::check);
  m.attr("OP_FUSED") = static_cast<int>(rkv_ext::Op::fused);
  m.attr("OP_UNFUSED_PAIR") = static_cast<int>(rkv_ext::Op::unfused_pair);
  m.attr("OP_ROPE_INPLACE") = static_cast<int>(rkv_ext::Op::rope_inplace);
  m.attr("OP_CACHE_WRITE") = static_cast<int>(rkv_ext::Op::cache_write);
  m.attr("ERROR_VALUE") = static_cast<int>(rkv_ext::ErrorKind::value);
  m.attr("ERROR_TYPE") = static_cast<int>(rkv_ext::ErrorKind::type);
  m.attr("ERROR_RUNTIME") = static_cast<int>(rkv_ext::ErrorKind::runtime);
#ifdef RKV_HAS_PDL
  m.attr("HAS_PDL") = true;
#else
  m.attr("HAS_PDL") = false;
#endif
}
