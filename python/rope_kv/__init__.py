"""rope_kv: rotary position embedding on Q and K plus the paged KV-cache write, in one CUDA launch.

Framework-free: every tensor argument is any CUDA array that supports DLPack (``torch.Tensor``,
``cupy.ndarray``, ``jax.Array``, ...). The arguments follow vLLM's ``rotary_embedding`` and
``reshape_and_cache_flash``::

    rope_kv.fused(positions, query, key, value, cos_sin_cache, slot_mapping,
                  key_cache, value_cache, k_scale, v_scale, is_neox=True, kv_cache_dtype="auto")

- ``positions`` [T] int64; ``query`` [T, Hq, D] (or [T, Hq * D] with ``head_size=``), ``key``
  [T, Hkv, D] and ``value`` [>= Tc, Hkv, Dv], usually views of one qkv tensor.
- ``cos_sin_cache`` [max_position, rot_dim], float32 or the query's dtype: each row holds the
  rot_dim / 2 cosines, then the sines. Dims past rot_dim pass through unrotated.
- ``slot_mapping`` [Tc <= T] int64: token t goes to cache slot ``slot_mapping[t]``; -1 skips it.
  ``None`` (with value, key_cache, value_cache None) rotates only.
- ``key_cache``, ``value_cache``: [num_blocks, block_size, Hkv, D] ("nhd", vLLM's flash layout) or
  [num_blocks, Hkv, block_size, D] ("hnd"), any strides (views into a packed K|V tensor work), or
  [num_blocks, block_size, D] for one KV head (MLA). ``layout=`` settles the order when
  block_size == Hkv (the default then is "nhd").
- ``kv_cache_dtype``: "auto" (the query's dtype), "fp8" / "fp8_e4m3" or "fp8_e5m2" (caches as
  uint8 or the matching float8 dtype, with float32 ``k_scale`` / ``v_scale`` of 1 or Hkv values).

Queries are rotated in place unless ``query_out`` is given; keys are rotated in place unless
``write_back_key=False`` (fused only). The launch goes on ``stream`` (an int cudaStream_t, a
``torch.cuda.Stream``, a CuPy stream or any object with ``__cuda_stream__``); by default PyTorch's
current stream once torch has initialized CUDA, else the legacy default stream. Nothing is
allocated or synchronized, so calls can be captured in CUDA graphs.

Bad arguments raise ``TypeError`` (wrong type or dtype) or ``ValueError`` (device, shape, stride,
layout, aliasing, a missing fp8 scale), the message starting with the argument's name, before
anything is launched. ``check_args`` runs the same checks without launching, and with
``data=True`` also reads positions, slots and scales back to check them (synchronizes).

``import rope_kv.torch_op`` (done for you when torch was imported first) registers
``torch.ops.rope_kv.fused`` and ``torch.ops.rope_kv.unfused_pair``, which ``torch.compile`` keeps
in its graphs. docs/python.md in the repository has the details.
"""

import sys

from . import _ext

__version__ = "0.1.0"
__all__ = [
    "fused",
    "unfused_pair",
    "rope_inplace",
    "cache_write",
    "check_args",
    "device_count",
    "HAS_PDL",
]

#: Whether this build can launch with programmatic dependent launch (``pdl=True``).
HAS_PDL = bool(_ext.HAS_PDL)

# The exception each refusal kind of _ext.run raises: the extension hands refusals back as data and
# never throws a C++ exception (docs/python.md, "No C++ exceptions").
_ERRORS = {
    _ext.ERROR_VALUE: ValueError,
    _ext.ERROR_TYPE: TypeError,
    _ext.ERROR_RUNTIME: RuntimeError,
}

# The fp8 flavour each kv_cache_dtype names; a float8 torch cache must be that one.
_FP8_FLAVOUR = {"fp8": "float8_e4m3fn", "fp8_e4m3": "float8_e4m3fn", "fp8_e5m2": "float8_e5m2"}


def device_count():
    """The number of CUDA devices the extension's runtime sees (0 without a GPU or driver)."""
    return _ext.device_count()


def _is_neox(is_neox, style):
    if style is None:
        return True if is_neox is None else bool(is_neox)
    if style not in ("neox", "gptj"):
        raise ValueError(f"style: expected 'neox' or 'gptj', got {style!r}")
    if is_neox is not None and bool(is_neox) != (style == "neox"):
        raise ValueError(f"style: {style!r} contradicts is_neox={is_neox!r}; pass one of them")
    return style == "neox"


def _stream_handle(stream, query):
    """The cudaStream_t to launch on, as an int."""
    if stream is None:
        # PyTorch's current stream (the capture stream inside torch.cuda.graph) once torch has
        # touched CUDA; asking earlier would initialize CUDA for a caller that may not use it.
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_initialized():
            device = query.device if isinstance(query, torch.Tensor) and query.is_cuda else None
            return torch.cuda.current_stream(device).cuda_stream
        return 0
    handle = stream
    if not isinstance(handle, int):
        if hasattr(stream, "cuda_stream"):  # torch.cuda.Stream
            handle = stream.cuda_stream
        elif hasattr(stream, "__cuda_stream__"):  # CUDA Python's stream protocol: (version, handle)
            handle = stream.__cuda_stream__()[1]
        elif hasattr(stream, "ptr"):  # cupy.cuda.Stream
            handle = stream.ptr
    if isinstance(handle, bool) or not isinstance(handle, int):
        raise TypeError(
            "stream: expected a cudaStream_t as an int, a torch.cuda.Stream, a cupy stream or an "
            f"object with __cuda_stream__, got {type(stream).__name__}"
        )
    if handle < 0:
        raise ValueError(f"stream: expected a cudaStream_t (a non-negative int), got {handle}")
    return handle


def _uint8_if_float8(name, cache, kv_cache_dtype):
    """A torch float8 cache as uint8 bytes: DLPack export of float8 varies across torch releases,
    and the kernels only need to know the flavour, which is checked here against kv_cache_dtype."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(cache, torch.Tensor):
        return cache
    flavour = str(cache.dtype).replace("torch.", "")
    if not flavour.startswith("float8"):
        return cache
    wanted = _FP8_FLAVOUR.get(kv_cache_dtype)
    if wanted != flavour:
        wants = f"uint8 or {wanted}" if wanted else "the dtype of query"
        raise TypeError(
            f"{name}: expected dtype {wants} for kv_cache_dtype={kv_cache_dtype!r}, got {flavour}"
        )
    return cache.view(torch.uint8)


def _run(op, positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
         k_scale, v_scale, is_neox, kv_cache_dtype, style, layout, head_size, query_out,
         write_back_key, pdl, stream, data=False):
    if not isinstance(kv_cache_dtype, str):
        raise TypeError(f"kv_cache_dtype: expected a str, got {type(kv_cache_dtype).__name__}")
    if layout is not None and not isinstance(layout, str):
        raise TypeError(f"layout: expected None, 'nhd' or 'hnd', got {type(layout).__name__}")
    if head_size is not None and (isinstance(head_size, bool) or not isinstance(head_size, int)):
        raise TypeError(f"head_size: expected an int, got {type(head_size).__name__}")
    if head_size is not None and head_size <= 0:
        raise ValueError(f"head_size: expected a positive int, got {head_size}")
    # The op writes q, k and the caches in place, outside autograd: a tensor that autograd tracks
    # is refused here, whether or not the framework's DLPack export would have refused it.
    tensors = (("positions", positions), ("query", query), ("key", key), ("value", value),
               ("cos_sin_cache", cos_sin_cache), ("slot_mapping", slot_mapping),
               ("key_cache", key_cache), ("value_cache", value_cache), ("k_scale", k_scale),
               ("v_scale", v_scale), ("query_out", query_out))
    for name, tensor in tensors:
        if getattr(tensor, "requires_grad", False) is True:
            raise TypeError(f"{name}: expected a tensor that does not require grad (the op "
                            "writes in place, outside autograd)")
    refusal = _ext.run(
        op,
        positions,
        query,
        key,
        value,
        cos_sin_cache,
        slot_mapping,
        _uint8_if_float8("key_cache", key_cache, kv_cache_dtype),
        _uint8_if_float8("value_cache", value_cache, kv_cache_dtype),
        k_scale,
        v_scale,
        _is_neox(is_neox, style),
        kv_cache_dtype,
        layout or "",
        head_size or 0,
        query_out,
        bool(write_back_key),
        bool(pdl),
        _stream_handle(stream, query),
        bool(data),
    )
    if refusal is not None:
        kind, message = refusal
        raise _ERRORS[kind](message)


def fused(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
          k_scale=None, v_scale=None, is_neox=None, kv_cache_dtype="auto", *, style=None,
          layout=None, head_size=None, query_out=None, write_back_key=True, pdl=False,
          stream=None):
    """RoPE on query and key, and key/value into the paged cache, in one launch (see the module
    docstring for the arguments). Returns None; query (or query_out), key and the caches are
    written in place."""
    _run(_ext.OP_FUSED, positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
         value_cache, k_scale, v_scale, is_neox, kv_cache_dtype, style, layout, head_size,
         query_out, write_back_key, pdl, stream)


def unfused_pair(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
                 value_cache, k_scale=None, v_scale=None, is_neox=None, kv_cache_dtype="auto", *,
                 style=None, layout=None, head_size=None, query_out=None, write_back_key=True,
                 pdl=False, stream=None):
    """The same operation as two launches shaped like vLLM's kernels: rope_inplace, then
    cache_write. Byte for byte the result of fused(); the key is always written back."""
    _run(_ext.OP_UNFUSED_PAIR, positions, query, key, value, cos_sin_cache, slot_mapping,
         key_cache, value_cache, k_scale, v_scale, is_neox, kv_cache_dtype, style, layout,
         head_size, query_out, write_back_key, pdl, stream)


def rope_inplace(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
                 value_cache, k_scale=None, v_scale=None, is_neox=None, kv_cache_dtype="auto", *,
                 style=None, layout=None, head_size=None, query_out=None, write_back_key=True,
                 pdl=False, stream=None):
    """The unfused pair's first kernel alone: rotates query (into query_out when given) and key in
    place; the caches are not touched."""
    _run(_ext.OP_ROPE_INPLACE, positions, query, key, value, cos_sin_cache, slot_mapping,
         key_cache, value_cache, k_scale, v_scale, is_neox, kv_cache_dtype, style, layout,
         head_size, query_out, write_back_key, pdl, stream)


def cache_write(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
                value_cache, k_scale=None, v_scale=None, is_neox=None, kv_cache_dtype="auto", *,
                style=None, layout=None, head_size=None, query_out=None, write_back_key=True,
                pdl=False, stream=None):
    """The unfused pair's second kernel alone: copies key (taken as already rotated) and value of
    every token with a slot into the cache, quantizing for fp8 caches."""
    _run(_ext.OP_CACHE_WRITE, positions, query, key, value, cos_sin_cache, slot_mapping,
         key_cache, value_cache, k_scale, v_scale, is_neox, kv_cache_dtype, style, layout,
         head_size, query_out, write_back_key, pdl, stream)


def check_args(positions, query, key, value, cos_sin_cache, slot_mapping, key_cache, value_cache,
               k_scale=None, v_scale=None, is_neox=None, kv_cache_dtype="auto", *, style=None,
               layout=None, head_size=None, query_out=None, write_back_key=True, pdl=False,
               stream=None, data=False):
    """Raise TypeError/ValueError for arguments that fused() would refuse, without launching.

    The default checks are the ones every launch makes (types, devices, shapes, strides, layout,
    aliasing, fp8 scales present), in time independent of the token count and without touching
    device memory. ``data=True`` also copies positions, slot_mapping and the scales to the host on
    ``stream``, synchronizes, and applies the kernel library's full contract (positions inside
    the cos/sin table, slots inside the cache and unique, scales finite and positive); it cannot
    run while a CUDA graph is being captured."""
    _run(_ext.OP_CHECK, positions, query, key, value, cos_sin_cache, slot_mapping, key_cache,
         value_cache, k_scale, v_scale, is_neox, kv_cache_dtype, style, layout, head_size,
         query_out, write_back_key, pdl, stream, data)


# The torch custom ops come with the package when torch is already there; importing torch
# ourselves would cost every framework-free user a second or more.
if "torch" in sys.modules:
    from . import torch_op  # noqa: E402,F401
