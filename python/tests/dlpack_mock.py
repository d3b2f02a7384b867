"""CUDA tensors as DLPack describes them, at made-up addresses, for the tests that need no GPU.

Every argument check reads only the DLPack descriptor (device, dtype, shape, strides, pointer), so
a descriptor is all a check needs. These objects are never launched on: a test that would launch
skips itself where a GPU is present.
"""

import ctypes
import itertools


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64),
                ("dl_tensor", DLTensor)]


_READ_ONLY = 1  # DLPACK_FLAG_BITMASK_READ_ONLY

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# (DLPack type code, bits) of each dtype name.
DTYPES = {
    "int64": (0, 64), "int32": (0, 32), "uint8": (1, 8), "float16": (2, 16),
    "float32": (2, 32), "float64": (2, 64), "bfloat16": (4, 16), "bool": (6, 8),
    "float8_e4m3fn": (10, 8), "float8_e5m2": (12, 8),
}

CPU, CUDA = 1, 2

# Made-up allocations: 4 GiB apart, far from anything real, 256-byte aligned like cudaMalloc.
_next_base = itertools.count(0x7F0000000000, 1 << 32)
_keep_alive = []  # the ctypes structs behind capsules handed out (deleters are NULL)


def contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


class MockTensor:
    """A DLPack producer: __dlpack__ hands out a fresh capsule each call."""

    def __init__(self, shape, dtype="bfloat16", strides=None, address=None, device=CUDA,
                 device_id=0, read_only=False, versioned=False):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.strides = tuple(strides) if strides is not None else contiguous_strides(self.shape)
        self.address = next(_next_base) if address is None else address
        self.device = (device, device_id)
        self.read_only = read_only
        self.versioned = versioned or read_only

    @property
    def itemsize(self):
        return (DTYPES[self.dtype][1] + 7) // 8

    def view(self, offset, shape, strides=None, dtype=None):
        """Another descriptor into the same memory, `offset` elements (of this dtype) in."""
        return MockTensor(shape, dtype or self.dtype, strides, self.address + offset * self.itemsize,
                          self.device[0], self.device[1], self.read_only, self.versioned)

    def with_(self, **changes):
        fields = dict(shape=self.shape, dtype=self.dtype, strides=self.strides,
                      address=self.address, device=self.device[0], device_id=self.device[1],
                      read_only=self.read_only, versioned=self.versioned)
        fields.update(changes)
        return MockTensor(**fields)

    def capsule(self):
        n = len(self.shape)
        shape = (ctypes.c_int64 * max(n, 1))(*self.shape)
        strides = (ctypes.c_int64 * max(n, 1))(*self.strides)
        code, bits = DTYPES[self.dtype]
        tensor = DLTensor(self.address, DLDevice(*self.device), n, DLDataType(code, bits, 1),
                          shape, strides, 0)
        if self.versioned:
            managed = DLManagedTensorVersioned(DLPackVersion(1, 0), None, None,
                                               _READ_ONLY if self.read_only else 0, tensor)
            name = b"dltensor_versioned"
        else:
            managed = DLManagedTensor(tensor, None, None)
            name = b"dltensor"
        _keep_alive.append((managed, shape, strides))
        return _capsule_new(ctypes.addressof(managed), name, None)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        return self.capsule()

    def __dlpack_device__(self):
        return self.device


def qkv_views(tokens, q_heads, kv_heads, head_size, dtype="bfloat16"):
    """query, key and value as column views of one [tokens, (Hq + 2 Hkv) * D] tensor, as vLLM's
    qkv projection leaves them."""
    width = (q_heads + 2 * kv_heads) * head_size
    qkv = MockTensor((tokens, width), dtype)
    q = qkv.view(0, (tokens, q_heads, head_size), (width, head_size, 1))
    k = qkv.view(q_heads * head_size, (tokens, kv_heads, head_size), (width, head_size, 1))
    v = qkv.view((q_heads + kv_heads) * head_size, (tokens, kv_heads, head_size),
                 (width, head_size, 1))
    return qkv, q, k, v
