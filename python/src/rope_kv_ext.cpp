// rope_kv._ext: the kernel library's launchers for Python, over DLPack tensors.
//
// One entry point, run(), turns the vLLM-shaped arguments (tensors with shapes and strides) into
// one RopeKvArgs, refusing anything the launchers would misread: every check here is O(1) in the
// number of tokens and touches no device memory, so it runs before every launch, also while a
// CUDA graph is being captured. The data-dependent half of the contract (positions in range,
// unique slots, finite scales) needs host copies of device data; check_args(data=True) makes them
// and asks the library's own checker, check_rope_kv_inputs().
//
// Every refusal is a Python ValueError or TypeError whose message starts with the argument's name.
// No C++ exception ever leaves or crosses this file's functions: a refusal travels back as data
// (an Error), run() hands it to the Python wrapper as (kind, message), and the wrapper raises.
// C++ unwinding through the extension crashed a pytest run on one machine (docs/python.md), and a
// plain return has nothing to unwind.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "rope_kv.h"
#include "rope_kv_check.h"
#include "unfused_pair.h"

namespace nb = nanobind;

namespace {

// What run() does once the arguments are checked.
enum class Op : int { check = 0, fused = 1, unfused_pair = 2, rope_inplace = 3, cache_write = 4 };

// DLPack device types and type codes by number: nanobind releases before 3.0 name fewer codes.
constexpr int kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLROCM = 10, kDLCUDAManaged = 13;
constexpr std::uint8_t kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4, kFloat8E4M3FN = 10,
                       kFloat8E5M2 = 12;

// Messages are built without iostreams: on the H200 an ostream inside this module crashed in its
// locale facets once torch had set up the process (results/h200/wave2/python-gdb.txt), so text
// is appended piece by piece with std::to_string and snprintf.
void append(std::string& out, const std::string& s) {
  out += s;
}
void append(std::string& out, const char* s) {
  out += s;
}
template <typename T>  // numbers only: a char or bool would print as a number here
std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, bool>>
append(std::string& out, T v) {
  out += std::to_string(v);
}
template <typename T>
std::enable_if_t<std::is_floating_point_v<T>> append(std::string& out, T v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  out += buf;
}

template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (append(out, parts), ...);
  return out;
}

// A refusal: which Python exception the wrapper raises (the numbers are rope_kv/__init__.py's) and
// its message. Kind none is success.
enum class ErrorKind : int { none = 0, value = 1, type = 2, runtime = 3 };

struct [[nodiscard]] Error {
  ErrorKind kind = ErrorKind::none;
  std::string message;
  explicit operator bool() const { return kind != ErrorKind::none; }
};

// Returns the error of `expr`, if any, from the calling function.
#define RKV_TRY(expr)                                 \
  do {                                                \
    if (Error rkv_error_ = (expr)) return rkv_error_; \
  } while (0)

template <typename... Parts>
Error value_error(Parts&&... parts) {
  return {ErrorKind::value, cat(parts...)};
}

template <typename... Parts>
Error type_error(Parts&&... parts) {
  return {ErrorKind::type, cat(parts...)};
}

std::string dtype_name(std::uint8_t code, std::uint8_t bits) {
  switch (code) {
    case kInt:
      return cat("int", int{bits});
    case kUInt:
      return bits == 1 ? "bool" : cat("uint", int{bits});
    case kFloat:
      return bits == 16 ? "float16" : cat("float", int{bits});
    case kBfloat:
      return cat("bfloat", int{bits});
    case kFloat8E4M3FN:
      return "float8_e4m3fn";
    case kFloat8E5M2:
      return "float8_e5m2";
    case 6:
      return "bool";
    default:
      return cat("DLPack type code ", int{code}, " of ", int{bits}, " bits");
  }
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// One tensor argument after import: the ndarray handle keeps the producer's buffer alive for the
// duration of the call (written arguments are imported writable, the others read-only, so a
// producer that exports read-only memory is refused only where we would write).
struct Tensor {
  const char* name = nullptr;
  bool given = false;
  nb::ndarray<> rw;
  nb::ndarray<nb::ro> ro;
  void* data = nullptr;
  std::uint8_t code = 0, bits = 0;
  int device_id = 0;
  std::vector<std::int64_t> shape, strides;

  int ndim() const { return static_cast<int>(shape.size()); }
  std::int64_t itemsize() const { return (bits + 7) / 8; }
  bool is(std::uint8_t c, std::uint8_t b) const { return code == c && bits == b; }
  std::string dtype() const { return dtype_name(code, bits); }
};

std::string device_text(int type) {
  switch (type) {
    case kDLCPU:
      return "a CPU array";
    case kDLCUDAHost:
      return "a CUDA pinned host array";
    case kDLCUDAManaged:
      return "a CUDA managed-memory array";
    case kDLROCM:
      return "a ROCm array";
    default:
      return cat("an array on DLPack device type ", type);
  }
}

// str(o) as UTF-8 (unencodable characters escaped), or `fallback` where Python cannot make one;
// leaves no Python error set.
std::string py_text(PyObject* o, const char* fallback) {
  PyObject* text = o != nullptr ? PyObject_Str(o) : nullptr;
  PyObject* bytes =
      text != nullptr ? PyUnicode_AsEncodedString(text, "utf-8", "backslashreplace") : nullptr;
  std::string out =
      bytes != nullptr
          ? std::string(PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes)))
          : fallback;
  Py_XDECREF(bytes);
  Py_XDECREF(text);
  PyErr_Clear();
  return out;
}

// Why an object could not be imported, for the message: the producer's own exception when it has
// __dlpack__ (e.g. torch refuses a tensor that requires grad), else its type. Python's C API
// throughout: nanobind's object calls throw a C++ exception when Python raises.
std::string import_failure(nb::handle obj) {
  const nb::str type_name = nb::type_name(obj.type());
  const std::string type = type_name.is_valid() ? type_name.c_str() : "an object";
  if (!nb::hasattr(obj, "__dlpack__")) return type;
  PyObject* capsule = PyObject_CallMethod(obj.ptr(), "__dlpack__", nullptr);
  if (capsule != nullptr) {
    Py_DECREF(capsule);
    return cat(type, " whose DLPack capsule could not be read");
  }
  PyObject *exc_type = nullptr, *exc = nullptr, *traceback = nullptr;
  PyErr_Fetch(&exc_type, &exc, &traceback);
  PyErr_NormalizeException(&exc_type, &exc, &traceback);
  const std::string what =
      cat(exc_type != nullptr ? reinterpret_cast<PyTypeObject*>(exc_type)->tp_name : "Exception",
          ": ", py_text(exc, "(no message)"));
  Py_XDECREF(exc_type);
  Py_XDECREF(exc);
  Py_XDECREF(traceback);
  return cat(type, " whose __dlpack__() failed: ", what);
}

// Every later check multiplies extents by strides by the element size in int64: bound the last
// element's byte offset here, once, so none of those products can overflow. A non-empty tensor
// must also point somewhere: a null data pointer would read as "not given" to the launchers.
Error require_sane_span(const Tensor& t) {
  constexpr std::int64_t kMaxBytes = std::int64_t{1} << 56;
  std::int64_t last = 0;  // the last element's offset, in elements
  bool empty = false;
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    empty = empty || t.shape[i] == 0;
    std::int64_t step = 0;
    if (t.shape[i] > 1 && (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &step) ||
                           __builtin_add_overflow(last, step, &last) || last > kMaxBytes))
      return value_error(t.name, ": shape ", shape_text(t.shape), " with strides ",
                         shape_text(t.strides), " spans more than 2^56 elements");
  }
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(last + 1, t.itemsize(), &bytes) || bytes > kMaxBytes)
    return value_error(t.name, ": shape ", shape_text(t.shape), " with strides ",
                       shape_text(t.strides), " spans more than 2^56 bytes");
  if (t.data == nullptr && !empty)
    return value_error(t.name, ": has a null data pointer but shape ", shape_text(t.shape));
  return {};
}

// Fills `t` from `obj` (None: t.given stays false).
Error import_tensor(const char* name, nb::handle obj, bool writable, Tensor& t) {
  t = Tensor{};
  t.name = name;
  if (obj.is_none()) return {};
  t.given = true;
  int device_type = 0;
  auto fill = [&](const auto& a) -> Error {
    t.data = const_cast<void*>(static_cast<const void*>(a.data()));
    t.code = a.dtype().code;
    t.bits = a.dtype().bits;
    device_type = a.device_type();
    t.device_id = a.device_id();
    for (std::size_t i = 0; i < a.ndim(); ++i) {
      t.shape.push_back(static_cast<std::int64_t>(a.shape(i)));
      t.strides.push_back(a.stride(i));
    }
    if (a.dtype().lanes != 1)
      return type_error(name, ": expected a scalar dtype, got ", int{a.dtype().lanes}, " lanes");
    return {};
  };
  bool read_only = false;
  if (writable && nb::try_cast(obj, t.rw, false)) {
    RKV_TRY(fill(t.rw));
  } else if (nb::try_cast(obj, t.ro, false)) {
    RKV_TRY(fill(t.ro));
    read_only = writable;  // a writable import failed where a read-only one worked
  } else {
    return type_error(name,
                      ": expected a CUDA tensor supporting DLPack (torch.Tensor, cupy.ndarray, "
                      "jax.Array, ...), got ",
                      import_failure(obj));
  }
  if (device_type != kDLCUDA)
    return value_error(name, ": expected a CUDA device tensor, got ", device_text(device_type));
  if (read_only)
    return value_error(name, ": is written, but its producer exported it read-only through DLPack");
  for (std::size_t i = 0; i < t.strides.size(); ++i) {
    if (t.shape[i] < 0)
      return value_error(name, ": expected non-negative extents, got shape ", shape_text(t.shape));
    if (t.shape[i] == 1) t.strides[i] = 0;  // an extent-1 dim's stride is never used: normalize
    if (t.strides[i] < 0)
      return value_error(name, ": expected non-negative strides, got strides ",
                         shape_text(t.strides));
  }
  return require_sane_span(t);
}

// The innermost dim must be contiguous: the kernels move 4-16 byte chunks along it.
Error require_inner_contiguous(const Tensor& t, const char* what) {
  if (t.ndim() > 0 && t.shape.back() > 1 && t.strides.back() != 1)
    return value_error(t.name, ": expected the innermost (", what,
                       ") dim to be contiguous (stride 1), got strides ", shape_text(t.strides),
                       " for shape ", shape_text(t.shape));
  return {};
}

// A [tokens, heads, dim] view, from a 3-D tensor or a 2-D [tokens, heads * head_size] one.
struct Heads {
  std::int64_t tokens = 0, heads = 0, dim = 0;
  rkv::HeadTensor view;
};

Error head_view(const Tensor& t, std::int64_t head_size, const char* expected, Heads& h) {
  if (t.ndim() == 3) {
    h = {t.shape[0], t.shape[1], t.shape[2], {t.data, t.strides[0], t.strides[1]}};
    if (head_size > 0 && h.dim != head_size)
      return value_error(t.name, ": expected head_size = ", head_size,
                         " in the last dim, got shape ", shape_text(t.shape));
  } else if (t.ndim() == 2) {
    if (head_size <= 0)
      return value_error(t.name,
                         ": a 2-D tensor [num_tokens, num_heads * head_size] needs head_size=; ",
                         "got shape ", shape_text(t.shape));
    if (t.shape[1] % head_size != 0)
      return value_error(t.name, ": last dim ", t.shape[1],
                         " is not a multiple of head_size = ", head_size);
    h = {t.shape[0], t.shape[1] / head_size, head_size, {t.data, t.strides[0], head_size}};
  } else {
    return value_error(t.name, ": expected ", expected, ", got shape ", shape_text(t.shape));
  }
  // Zero heads would divide by zero below (query's heads per key head), a zero head_size would
  // launch on nothing; the launch arguments hold both as int32.
  if (h.heads <= 0 || h.dim <= 0 || h.heads > INT32_MAX || h.dim > INT32_MAX)
    return value_error(
        t.name, ": expected 1 to 2^31 - 1 heads of head_size 1 to 2^31 - 1, got shape ",
        shape_text(t.shape), t.ndim() == 2 ? cat(" with head_size = ", head_size) : "");
  RKV_TRY(require_inner_contiguous(t, "head_size"));
  // Distinct rows must not overlap, as check_rope_kv_inputs() requires of every q/k/v view.
  if (h.heads > 1 && h.view.head_stride < h.dim)
    return value_error(t.name, ": head stride ", h.view.head_stride, " is smaller than head_size ",
                       h.dim, ", so heads overlap");
  if (h.tokens > 1 && h.view.token_stride < (h.heads - 1) * h.view.head_stride + h.dim)
    return value_error(t.name, ": token stride ", h.view.token_stride, " overlaps the ", h.heads,
                       " heads of a token");
  if (h.heads == 1) h.view.head_stride = 0;
  return {};
}

Error require_dtype_like(const Tensor& t, const Tensor& like) {
  if (t.code != like.code || t.bits != like.bits)
    return type_error(t.name, ": expected dtype ", like.dtype(), " (that of ", like.name, "), got ",
                      t.dtype());
  return {};
}

Error require_int64_vector(const Tensor& t, const char* expected) {
  if (!t.is(kInt, 64)) return type_error(t.name, ": expected dtype int64, got ", t.dtype());
  if (t.ndim() != 1)
    return value_error(t.name, ": expected ", expected, ", got shape ", shape_text(t.shape));
  return require_inner_contiguous(t, "and only");
}

// ---- memory overlap

// The bytes a strided view can touch: runs of `width` bytes starting at base + sum(i_k * stride_k)
// for 0 <= i_k < count_k.
struct Footprint {
  const char* name = nullptr;
  bool written = false;
  std::int64_t base = 0, width = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> dims;  // (stride, count), bytes

  std::int64_t end() const {
    std::int64_t e = base + width;
    for (const auto& [stride, count] : dims)
      e += (count - 1) * stride;
    return e;
  }
};

Footprint footprint(const char* name, bool written, const void* data, std::int64_t width,
                    std::initializer_list<std::pair<std::int64_t, std::int64_t>> dims) {
  Footprint f;
  f.name = name;
  f.written = written;
  f.base = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(data));
  f.width = width;
  for (const auto& [stride, count] : dims)
    if (count > 1 && stride != 0) f.dims.emplace_back(stride, count);
  return f;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Whether two views share a byte. Exact: it searches for index differences m_k = i_k - j_k over the
// union of both views' strides, outermost first, keeping only the m_k that leave the remaining
// offset within reach of the inner dims; for nested strides (every layout here) that is at most
// three candidates a level. Views of one allocation that interleave without touching (q, k and v
// columns of one qkv tensor; K and V halves of a packed cache; K and V blocks of a
// [blocks, 2, ...] cache) are told apart from real overlaps. Past a work limit it answers "yes".
bool overlaps(const Footprint& a, const Footprint& b) {
  if (a.end() <= b.base || b.end() <= a.base) return false;
  std::vector<std::int64_t> strides;
  for (const auto* f : {&a, &b})
    for (const auto& d : f->dims)
      strides.push_back(d.first);
  std::sort(strides.begin(), strides.end(), std::greater<>());
  strides.erase(std::unique(strides.begin(), strides.end()), strides.end());
  const std::size_t n = strides.size();
  // count_a[k] / count_b[k]: each view's extent along strides[k] (1 where it has no such dim).
  std::vector<std::int64_t> count_a(n, 1), count_b(n, 1);
  for (std::size_t k = 0; k < n; ++k) {
    for (const auto& d : a.dims)
      if (d.first == strides[k]) count_a[k] *= d.second;  // repeated strides: a superset, safe
    for (const auto& d : b.dims)
      if (d.first == strides[k]) count_b[k] *= d.second;
  }
  // reach_a[k]: how far a's dims inside level k (k..n-1) can move forward; reach_b likewise back.
  std::vector<std::int64_t> reach_a(n + 1, 0), reach_b(n + 1, 0);
  for (std::size_t k = n; k-- > 0;) {
    reach_a[k] = reach_a[k + 1] + (count_a[k] - 1) * strides[k];
    reach_b[k] = reach_b[k + 1] + (count_b[k] - 1) * strides[k];
  }
  long budget = 100000;
  // r: b's element start minus a's, after the levels above k; overlap iff -b.width < r < a.width
  // once every level has been assigned.
  auto search = [&](auto&& self, std::size_t k, std::int64_t r) -> bool {
    if (--budget < 0) return true;
    if (k == n) return -b.width < r && r < a.width;
    const std::int64_t hi_r = a.width + reach_a[k + 1];  // r - m * s must lie in (lo_r, hi_r)
    const std::int64_t lo_r = -b.width - reach_b[k + 1];
    const std::int64_t s = strides[k];
    const std::int64_t m_lo = std::max(floor_div(r - hi_r, s) + 1, -(count_b[k] - 1));
    const std::int64_t m_hi = std::min(-floor_div(-(r - lo_r), s) - 1, count_a[k] - 1);
    for (std::int64_t m = m_lo; m <= m_hi; ++m)
      if (self(self, k + 1, r - m * s)) return true;
    return false;
  };
  return search(search, 0, b.base - a.base);
}

// ---- the arguments

struct Options {
  bool is_neox = true;
  std::string kv_cache_dtype = "auto";
  rkv::CacheDType cache_dtype = rkv::CacheDType::auto_;
  std::string layout;  // "", "nhd" or "hnd": the order of the cache tensors' dims
  std::int64_t head_size = 0;
  bool write_back_key = true;
  bool pdl = false;
};

// PDL lives in one place: rope_kv.h defines RKV_HAS_PDL where RopeKvArgs has the field.
Error set_pdl(rkv::RopeKvArgs& a, bool pdl) {
#ifdef RKV_HAS_PDL
  a.programmatic_dependent_launch = pdl;
#else
  (void)a;
  if (pdl)
    return value_error(
        "pdl: this build of the kernel library has no programmatic dependent launch");
#endif
  return {};
}

Error parse_cache_dtype(const std::string& s, rkv::CacheDType& out) {
  if (s == "auto")
    out = rkv::CacheDType::auto_;
  else if (s == "fp8" || s == "fp8_e4m3")
    out = rkv::CacheDType::fp8_e4m3;
  else if (s == "fp8_e5m2")
    out = rkv::CacheDType::fp8_e5m2;
  else
    return value_error("kv_cache_dtype: expected 'auto', 'fp8', 'fp8_e4m3' or 'fp8_e5m2', got '", s,
                       "'");
  return {};
}

const char* cache_dtype_text(rkv::CacheDType c) {
  return c == rkv::CacheDType::fp8_e4m3 ? "float8_e4m3fn" : "float8_e5m2";
}

struct Cache {
  rkv::CacheTensor view;
  std::int64_t blocks = 0, block_size = 0, heads = 0, dim = 0;
};

// A cache tensor's dims are [num_blocks, block_size, num_kv_heads, head_size] ("nhd", vLLM's
// flash layout), [num_blocks, num_kv_heads, block_size, head_size] ("hnd"), or
// [num_blocks, block_size, head_size] for one KV head (MLA). Strides say where each dim lives, so
// physically permuted tensors and views into a packed K|V tensor need nothing more.
Error cache_view(const Tensor& t, std::int64_t kv_heads, std::int64_t dim, std::string& layout,
                 Cache& c) {
  const auto expected = [&] {
    return cat("[num_blocks, block_size, ", kv_heads, ", ", dim, "] (nhd) or [num_blocks, ",
               kv_heads, ", block_size, ", dim, "] (hnd)",
               kv_heads == 1 ? cat(" or [num_blocks, block_size, ", dim, "]") : "");
  };
  if (t.ndim() == 4) {
    if (layout.empty()) {
      // Both fit when block_size == num_kv_heads: then vLLM's order (nhd) is meant.
      if (t.shape[2] == kv_heads)
        layout = "nhd";
      else if (t.shape[1] == kv_heads)
        layout = "hnd";
      else
        return value_error(t.name, ": expected ", expected(), ", got shape ", shape_text(t.shape));
    }
    const int slot_dim = layout == "nhd" ? 1 : 2, head_dim = layout == "nhd" ? 2 : 1;
    c.blocks = t.shape[0];
    c.block_size = t.shape[slot_dim];
    c.heads = t.shape[head_dim];
    c.dim = t.shape[3];
    c.view = {t.data, t.strides[0], t.strides[slot_dim], t.strides[head_dim]};
  } else if (t.ndim() == 3 && kv_heads == 1) {
    c.blocks = t.shape[0];
    c.block_size = t.shape[1];
    c.heads = 1;
    c.dim = t.shape[2];
    c.view = {t.data, t.strides[0], t.strides[1], 0};
  } else {
    return value_error(t.name, ": expected ", expected(), ", got shape ", shape_text(t.shape));
  }
  if (c.heads != kv_heads || c.dim != dim) {
    const std::string want =
        layout == "nhd"   ? cat("[num_blocks, block_size, ", kv_heads, ", ", dim, "] (layout nhd)")
        : layout == "hnd" ? cat("[num_blocks, ", kv_heads, ", block_size, ", dim, "] (layout hnd)")
                          : expected();
    return value_error(t.name, ": expected ", want, ", got shape ", shape_text(t.shape));
  }
  RKV_TRY(require_inner_contiguous(t, "head_size"));
  if (c.blocks <= 0 || c.block_size <= 0)
    return value_error(t.name, ": a cache of ", c.blocks, " blocks of ", c.block_size,
                       " slots is empty");
  // Distinct (block, slot, head) entries must not overlap (check_rope_kv_inputs() asks the same):
  // sorted by stride, each dim's stride covers everything inside it.
  std::pair<std::int64_t, std::int64_t> dims[] = {{c.view.block_stride, c.blocks},
                                                  {c.view.slot_stride, c.block_size},
                                                  {c.view.head_stride, c.heads}};
  std::sort(std::begin(dims), std::end(dims));
  std::int64_t covered = c.dim;
  for (const auto& [stride, extent] : dims) {
    if (extent <= 1) continue;
    if (stride < covered)
      return value_error(t.name, ": strides ", shape_text(t.strides),
                         " make distinct cache entries of ", "shape ", shape_text(t.shape),
                         " overlap");
    covered = stride * (extent - 1) + covered;
  }
  return {};
}

// Everything run() needs after the checks: the launch arguments and what the launch must hold.
struct Prepared {
  rkv::RopeKvArgs args;
  int device = 0;
  std::int64_t scale_count = 0;
};

struct Inputs {
  Tensor positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache, k_scale,
      v_scale, query_out;
};

Error require_given(const Tensor& t, const char* why) {
  if (!t.given) return type_error(t.name, ": expected a CUDA tensor (", why, "), got None");
  return {};
}

Error prepare(Op op, Inputs& in, Options& o, Prepared& p) {
  rkv::RopeKvArgs& a = p.args;
  const bool caches = in.slot_mapping.given;

  // Presence first, so "missing" is reported before anything about the others.
  RKV_TRY(require_given(in.positions, "positions [num_tokens], int64"));
  RKV_TRY(require_given(in.query, "query [num_tokens, num_heads, head_size]"));
  RKV_TRY(require_given(in.key, "key [num_tokens, num_kv_heads, head_size]"));
  RKV_TRY(require_given(in.cos_sin_cache, "cos_sin_cache [max_position, rot_dim]"));
  if (caches) {
    RKV_TRY(require_given(in.value, "value is cached wherever slot_mapping is given"));
    RKV_TRY(require_given(in.key_cache, "slot_mapping is given"));
    RKV_TRY(require_given(in.value_cache, "slot_mapping is given"));
  } else {
    for (const Tensor* t : {&in.value, &in.key_cache, &in.value_cache})
      if (t->given)
        return value_error(t->name,
                           ": given without slot_mapping; pass slot_mapping to write the cache, "
                           "or None for value, key_cache and value_cache to rotate only");
  }
  if (!o.write_back_key && op != Op::fused && op != Op::check)
    return value_error(
        "write_back_key: the unfused kernels always write the rotated key back; "
        "write_back_key=False is the fused kernel's alone");

  // One device for everything.
  p.device = in.query.device_id;
  for (const Tensor* t : {&in.positions, &in.key, &in.value, &in.cos_sin_cache, &in.slot_mapping,
                          &in.key_cache, &in.value_cache, &in.k_scale, &in.v_scale, &in.query_out})
    if (t->given && t->device_id != p.device)
      return value_error(t->name, ": expected CUDA device ", p.device,
                         " (that of query), got device ", t->device_id);

  // q/k/v dtype and views.
  if (in.query.is(kBfloat, 16))
    a.dtype = rkv::DType::bf16;
  else if (in.query.is(kFloat, 16))
    a.dtype = rkv::DType::fp16;
  else if (in.query.is(kFloat, 32))
    a.dtype = rkv::DType::fp32;
  else
    return type_error("query: expected dtype bfloat16, float16 or float32, got ", in.query.dtype());
  Heads q;
  RKV_TRY(head_view(in.query, o.head_size,
                    "[num_tokens, num_heads, head_size] or [num_tokens, num_heads * "
                    "head_size] with head_size=",
                    q));
  RKV_TRY(require_dtype_like(in.key, in.query));
  Heads k;
  RKV_TRY(head_view(in.key, o.head_size,
                    "[num_tokens, num_kv_heads, head_size] or [num_tokens, num_kv_heads "
                    "* head_size] with head_size=",
                    k));
  if (k.tokens != q.tokens)
    return value_error("key: expected ", q.tokens, " tokens (those of query), got shape ",
                       shape_text(in.key.shape));
  if (q.heads % k.heads != 0)
    return value_error("key: query's ", q.heads, " heads are not a multiple of key's ", k.heads,
                       " heads");
  Heads qo;
  if (in.query_out.given) {
    RKV_TRY(require_dtype_like(in.query_out, in.query));
    RKV_TRY(head_view(in.query_out, o.head_size, "the shape of query", qo));
    if (qo.tokens != q.tokens || qo.heads != q.heads || qo.dim != q.dim)
      return value_error("query_out: expected the shape of query [", q.tokens, ", ", q.heads, ", ",
                         q.dim, "], got shape ", shape_text(in.query_out.shape));
  }

  RKV_TRY(require_int64_vector(in.positions, "[num_tokens], int64"));
  if (in.positions.shape[0] != q.tokens)
    return value_error("positions: expected shape [", q.tokens, "] (num_tokens of query), got ",
                       shape_text(in.positions.shape));

  // cos/sin table: [max_position, rot_dim], cos then sin in each row.
  const Tensor& cs = in.cos_sin_cache;
  if (!cs.is(kFloat, 32) && !(cs.code == in.query.code && cs.bits == in.query.bits))
    return type_error("cos_sin_cache: expected dtype float32 or ", in.query.dtype(),
                      " (that of query), got ", cs.dtype());
  if (cs.ndim() != 2)
    return value_error("cos_sin_cache: expected [max_position, rot_dim], got shape ",
                       shape_text(cs.shape));
  RKV_TRY(require_inner_contiguous(cs, "rot_dim"));
  const std::int64_t rot = cs.shape[1];
  if (rot <= 0 || rot % 2 != 0)
    return value_error("cos_sin_cache: rot_dim = shape[1] = ", rot, " must be even and positive");
  if (rot > q.dim || rot > k.dim)
    return value_error("cos_sin_cache: rot_dim = shape[1] = ", rot,
                       " exceeds the head size (query ", q.dim, ", key ", k.dim, ")");
  if (cs.shape[0] <= 0) return value_error("cos_sin_cache: has no rows (max_position = 0)");

  a.num_tokens = q.tokens;
  a.num_q_heads = static_cast<std::int32_t>(q.heads);
  a.num_kv_heads = static_cast<std::int32_t>(k.heads);
  a.q_head_size = static_cast<std::int32_t>(q.dim);
  a.k_head_size = static_cast<std::int32_t>(k.dim);
  a.v_head_size = a.k_head_size;
  a.rot_dim = static_cast<std::int32_t>(rot);
  a.q_rot_offset = 0;
  a.style = o.is_neox ? rkv::RopeStyle::neox : rkv::RopeStyle::gptj;
  a.positions = static_cast<const std::int64_t*>(in.positions.data);
  a.cos_sin_cache = cs.data;
  a.cos_sin_fp32 = cs.is(kFloat, 32);
  a.cos_sin_stride = cs.shape[0] > 1 ? cs.strides[0] : rot;
  if (a.cos_sin_stride < rot)
    return value_error("cos_sin_cache: row stride ", a.cos_sin_stride, " is shorter than rot_dim ",
                       rot);
  a.max_position = cs.shape[0];
  a.query = q.view;
  a.query_out = qo.view;
  a.key = k.view;
  a.write_back_key = o.write_back_key;
  RKV_TRY(set_pdl(a, o.pdl));

  a.cache_dtype = o.cache_dtype;

  if (caches) {
    RKV_TRY(require_int64_vector(in.slot_mapping, "[num_cache_tokens], int64"));
    const std::int64_t tc = in.slot_mapping.shape[0];
    if (tc > q.tokens)
      return value_error("slot_mapping: ", tc, " slots for ", q.tokens,
                         " tokens; expected at most one per token");
    RKV_TRY(require_dtype_like(in.value, in.query));
    Heads v;
    RKV_TRY(head_view(in.value, o.head_size,
                      "[num_tokens, num_kv_heads, head_size] or [num_tokens, "
                      "num_kv_heads * head_size] with head_size=",
                      v));
    if (v.heads != k.heads)
      return value_error("value: expected ", k.heads, " heads (those of key), got shape ",
                         shape_text(in.value.shape));
    if (v.tokens < tc)
      return value_error("value: expected at least ", tc,
                         " tokens (the length of slot_mapping), got "
                         "shape ",
                         shape_text(in.value.shape));
    a.v_head_size = static_cast<std::int32_t>(v.dim);
    a.value = v.view;
    a.num_cache_tokens = tc;
    a.slot_mapping = static_cast<const std::int64_t*>(in.slot_mapping.data);

    // Cache dtype: the q/k/v dtype for "auto", one byte (uint8 or the matching float8) for fp8.
    for (const Tensor* t : {&in.key_cache, &in.value_cache}) {
      if (a.cache_dtype == rkv::CacheDType::auto_) {
        if (t->code != in.query.code || t->bits != in.query.bits)
          return type_error(t->name, ": expected dtype ", in.query.dtype(),
                            " (kv_cache_dtype='auto' stores the dtype of query), got ", t->dtype());
      } else {
        const std::uint8_t fp8 =
            a.cache_dtype == rkv::CacheDType::fp8_e4m3 ? kFloat8E4M3FN : kFloat8E5M2;
        if (!t->is(kUInt, 8) && !t->is(fp8, 8))
          return type_error(t->name, ": expected dtype uint8 or ", cache_dtype_text(a.cache_dtype),
                            " for kv_cache_dtype='", o.kv_cache_dtype, "', got ", t->dtype());
      }
    }
    std::string layout = o.layout;
    Cache kc, vc;
    RKV_TRY(cache_view(in.key_cache, k.heads, k.dim, layout, kc));
    RKV_TRY(cache_view(in.value_cache, k.heads, v.dim, layout, vc));
    if (vc.blocks != kc.blocks || vc.block_size != kc.block_size)
      return value_error("value_cache: expected ", kc.blocks, " blocks of ", kc.block_size,
                         " slots (those of key_cache), got shape ",
                         shape_text(in.value_cache.shape));
    if (kc.blocks > 0x7fffffffLL / kc.block_size)
      return value_error("key_cache: ", kc.blocks, " blocks of ", kc.block_size,
                         " slots; at most 2^31 - 1 slots are supported");
    a.key_cache = kc.view;
    a.value_cache = vc.view;
    a.block_size = static_cast<std::int32_t>(kc.block_size);
    a.num_blocks = kc.blocks;

    // fp8 scales: float32, one per tensor or one per KV head, the same for K and V.
    if (a.cache_dtype != rkv::CacheDType::auto_) {
      std::int64_t counts[2] = {0, 0};
      int i = 0;
      for (const Tensor* t : {&in.k_scale, &in.v_scale}) {
        if (!t->given)
          return value_error(t->name, ": kv_cache_dtype='", o.kv_cache_dtype,
                             "' needs a float32 CUDA tensor of 1 or num_kv_heads = ", k.heads,
                             " scales, got None");
        if (!t->is(kFloat, 32))
          return type_error(t->name, ": expected dtype float32, got ", t->dtype());
        std::int64_t n = 1;
        for (std::int64_t d : t->shape)
          n *= d;
        if (t->ndim() > 1 || (n != 1 && n != k.heads))
          return value_error(t->name, ": expected shape [], [1] or [", k.heads,
                             "] (one scale, or one per KV head), got ", shape_text(t->shape));
        RKV_TRY(require_inner_contiguous(*t, "scale"));
        counts[i++] = n;
      }
      if (counts[0] != counts[1])
        return value_error("v_scale: expected ", counts[0], " scale(s) like k_scale, got ",
                           counts[1]);
      a.k_scale = static_cast<const float*>(in.k_scale.data);
      a.v_scale = static_cast<const float*>(in.v_scale.data);
      a.scale_head_stride = counts[0] > 1 ? 1 : 0;
      p.scale_count = counts[0];
    }
  }

  // Aliasing: nothing written may share a byte with any other argument. query is written in place
  // unless query_out is given; key is always written by the pair, so it counts as written.
  const std::int64_t e = static_cast<std::int64_t>(rkv::dtype_bytes(a.dtype));
  const std::int64_t ce = static_cast<std::int64_t>(rkv::cache_elem_bytes(a.cache_dtype, a.dtype));
  const auto head_fp = [&](const char* name, bool written, const rkv::HeadTensor& h,
                           std::int64_t tokens, std::int64_t heads, std::int64_t dim) {
    return footprint(name, written, h.data, dim * e,
                     {{h.token_stride * e, tokens}, {h.head_stride * e, heads}});
  };
  std::vector<Footprint> fps;
  fps.push_back(head_fp("query", !in.query_out.given, a.query, q.tokens, q.heads, q.dim));
  if (in.query_out.given)
    fps.push_back(head_fp("query_out", true, a.query_out, q.tokens, q.heads, q.dim));
  fps.push_back(head_fp("key", true, a.key, k.tokens, k.heads, k.dim));
  fps.push_back(footprint("positions", false, a.positions, q.tokens * 8, {}));
  fps.push_back(footprint("cos_sin_cache", false, a.cos_sin_cache,
                          rot * static_cast<std::int64_t>(cs.itemsize()),
                          {{a.cos_sin_stride * cs.itemsize(), a.max_position}}));
  if (caches) {
    fps.push_back(
        head_fp("value", false, a.value, a.num_cache_tokens, a.num_kv_heads, a.v_head_size));
    fps.push_back(footprint("slot_mapping", false, a.slot_mapping, a.num_cache_tokens * 8, {}));
    const auto cache_fp = [&](const char* name, const rkv::CacheTensor& c, std::int64_t dim) {
      return footprint(name, true, c.data, dim * ce,
                       {{c.block_stride * ce, a.num_blocks},
                        {c.slot_stride * ce, a.block_size},
                        {c.head_stride * ce, a.num_kv_heads}});
    };
    fps.push_back(cache_fp("key_cache", a.key_cache, a.k_head_size));
    fps.push_back(cache_fp("value_cache", a.value_cache, a.v_head_size));
    if (a.k_scale != nullptr) {
      fps.push_back(footprint("k_scale", false, a.k_scale, p.scale_count * 4, {}));
      fps.push_back(footprint("v_scale", false, a.v_scale, p.scale_count * 4, {}));
    }
  }
  if (a.num_tokens > 0)
    for (std::size_t i = 0; i < fps.size(); ++i)
      for (std::size_t j = i + 1; j < fps.size(); ++j)
        if ((fps[i].written || fps[j].written) && overlaps(fps[i], fps[j])) {
          const Footprint& w = fps[i].written ? fps[i] : fps[j];
          const Footprint& other = fps[i].written ? fps[j] : fps[i];
          return value_error(w.name, ": overlaps ", other.name, " in memory; ", w.name,
                             " is written, so it must not share memory with any other argument");
        }

  // Access width: the kernels need at least 4-byte, pair-aligned accesses everywhere.
  if (a.num_tokens > 0 && rkv::rope_kv_vector_elems(a) == 0) {
    const auto misaligned = [](const void* ptr, std::int64_t bytes) {
      return reinterpret_cast<std::uintptr_t>(ptr) % static_cast<std::uint64_t>(bytes) != 0;
    };
    if (a.style == rkv::RopeStyle::neox && rot % 4 != 0)
      return value_error("cos_sin_cache: rot_dim = ", rot,
                         " must be a multiple of 4 for neox style");
    const std::tuple<const Tensor*, rkv::HeadTensor, std::int64_t> heads[] = {
        {&in.query, a.query, a.q_head_size},
        {&in.query_out, a.query_out, a.q_head_size},
        {&in.key, a.key, a.k_head_size},
        {&in.value, a.value, a.v_head_size}};
    for (const auto& [t, h, dim] : heads)
      if (h.data != nullptr && (misaligned(h.data, 2 * e) || h.token_stride % 2 != 0 ||
                                h.head_stride % 2 != 0 || dim % 2 != 0))
        return value_error(t->name,
                           ": its data pointer, strides and head size must allow aligned pairs ",
                           "of elements (pointer a multiple of ", 2 * e, " bytes, even strides)");
    if (caches)
      for (const auto& [t, c] :
           {std::pair{&in.key_cache, a.key_cache}, std::pair{&in.value_cache, a.value_cache}})
        if (misaligned(c.data, 2 * ce) || c.block_stride % 2 != 0 || c.slot_stride % 2 != 0 ||
            c.head_stride % 2 != 0)
          return value_error(t->name, ": its data pointer and strides must allow aligned pairs of ",
                             "elements (pointer a multiple of ", 2 * ce, " bytes, even strides)");
    return value_error(
        "cos_sin_cache: its data pointer and row stride must allow aligned reads of ",
        a.style == rkv::RopeStyle::neox ? 2 : 1, " entries");
  }
  return {};
}

Error cuda_failure(const char* what, cudaError_t err) {
  return {ErrorKind::runtime,
          cat("rope_kv: ", what, cudaGetErrorName(err), ": ", cudaGetErrorString(err))};
}

// check_args(data=True): host copies of the device inputs, then the library's full contract.
Error check_device_data(const Prepared& p, cudaStream_t stream) {
  const rkv::RopeKvArgs& a = p.args;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
      capture != cudaStreamCaptureStatusNone)
    return value_error(
        "data: check_args(data=True) copies device data to the host, which a CUDA graph "
        "capture cannot hold; check before capturing");
  std::vector<std::int64_t> positions(static_cast<std::size_t>(a.num_tokens));
  std::vector<std::int64_t> slots(static_cast<std::size_t>(a.num_cache_tokens));
  std::vector<float> k_scale(static_cast<std::size_t>(p.scale_count)),
      v_scale(static_cast<std::size_t>(p.scale_count));
  const auto copy = [&](void* dst, const void* src, std::size_t bytes) -> Error {
    if (bytes == 0) return {};
    const cudaError_t err = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
    if (err != cudaSuccess) return cuda_failure("reading inputs back failed: ", err);
    return {};
  };
  RKV_TRY(copy(positions.data(), a.positions, positions.size() * 8));
  if (a.slot_mapping != nullptr) RKV_TRY(copy(slots.data(), a.slot_mapping, slots.size() * 8));
  if (a.k_scale != nullptr) {
    RKV_TRY(copy(k_scale.data(), a.k_scale, k_scale.size() * 4));
    RKV_TRY(copy(v_scale.data(), a.v_scale, v_scale.size() * 4));
  }
  const cudaError_t err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) return cuda_failure("reading inputs back failed: ", err);
  rkv::HostSideInputs host;
  host.positions = positions.data();
  host.slot_mapping = a.slot_mapping != nullptr ? slots.data() : nullptr;
  host.k_scale = a.k_scale != nullptr ? k_scale.data() : nullptr;
  host.v_scale = a.v_scale != nullptr ? v_scale.data() : nullptr;
  const std::string e = rkv::check_rope_kv_inputs(a, host);
  if (!e.empty()) return value_error(e);
  return {};
}

// Launches on the tensors' device (restoring the caller's current device after), on `stream`.
Error launch(Op op, const Prepared& p, cudaStream_t stream, bool data) {
  int current = 0;
  cudaError_t err = cudaGetDevice(&current);
  if (err == cudaSuccess && current != p.device) err = cudaSetDevice(p.device);
  Error refused;
  if (err == cudaSuccess) {
    switch (op) {
      case Op::check:
        if (data) refused = check_device_data(p, stream);
        break;
      case Op::fused:
        err = rkv::rope_kv_fused(p.args, stream);
        break;
      case Op::unfused_pair:
        err = rkv::unfused_pair(p.args, stream);
        break;
      case Op::rope_inplace:
        err = rkv::rope_inplace(p.args, stream);
        break;
      case Op::cache_write:
        err = rkv::cache_write(p.args, stream);
        break;
    }
    if (current != p.device) cudaSetDevice(current);
  }
  if (refused) return refused;
  if (err != cudaSuccess) return cuda_failure("CUDA error ", err);
  return {};
}

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

NB_MODULE(_ext, m) {
  m.doc() = "rope_kv's compiled core: argument checks and launches over DLPack tensors";
  m.def("run", &run, nb::arg("op"), nb::arg("positions").none(), nb::arg("query").none(),
        nb::arg("key").none(), nb::arg("value").none(), nb::arg("cos_sin_cache").none(),
        nb::arg("slot_mapping").none(), nb::arg("key_cache").none(), nb::arg("value_cache").none(),
        nb::arg("k_scale").none(), nb::arg("v_scale").none(), nb::arg("is_neox"),
        nb::arg("kv_cache_dtype"), nb::arg("layout"), nb::arg("head_size"),
        nb::arg("query_out").none(), nb::arg("write_back_key"), nb::arg("pdl"), nb::arg("stream"),
        nb::arg("check_data"));
  m.def("device_count", &device_count);
  m.attr("OP_CHECK") = static_cast<int>(Op::check);
  m.attr("OP_FUSED") = static_cast<int>(Op::fused);
  m.attr("OP_UNFUSED_PAIR") = static_cast<int>(Op::unfused_pair);
  m.attr("OP_ROPE_INPLACE") = static_cast<int>(Op::rope_inplace);
  m.attr("OP_CACHE_WRITE") = static_cast<int>(Op::cache_write);
  m.attr("ERROR_VALUE") = static_cast<int>(ErrorKind::value);
  m.attr("ERROR_TYPE") = static_cast<int>(ErrorKind::type);
  m.attr("ERROR_RUNTIME") = static_cast<int>(ErrorKind::runtime);
#ifdef RKV_HAS_PDL
  m.attr("HAS_PDL") = true;
#else
  m.attr("HAS_PDL") = false;
#endif
}
