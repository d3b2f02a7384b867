// DLPack import of one tensor argument (dlpack_tensor.h), and the text that says what could not be
// imported. Python is called through its C API here: nanobind's object calls throw a C++
// exception when Python raises, and no C++ exception may cross the extension (refusal.h).
#include "dlpack_tensor.h"

#include <cstdint>
#include <string>

namespace nb = nanobind;

namespace rkv_ext {

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

namespace {

// DLPack device types by number, as for the type codes in dlpack_tensor.h.
constexpr int kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLROCM = 10, kDLCUDAManaged = 13;

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

}  // namespace

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

}  // namespace rkv_ext
