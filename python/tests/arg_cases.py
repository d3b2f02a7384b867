"""The argument-check tests' shared cases: a valid call built from mocked DLPack descriptors
(dlpack_mock.py), the call itself, and the assertion that a call is refused naming an argument."""

import re

import pytest

import rope_kv
from dlpack_mock import MockTensor, qkv_views

T, HQ, HKV, D, ROT = 5, 8, 2, 64, 64
BLOCKS, BLOCK = 16, 16

TENSOR_ARGS = ["positions", "query", "key", "value", "cos_sin_cache", "slot_mapping", "key_cache",
               "value_cache", "k_scale", "v_scale"]


def make_args(cache="auto", dtype="bfloat16", layout="nhd", tokens=T, kv_heads=HKV, head=D,
              rot=ROT, block=BLOCK, scales=1):
    """A valid call: q/k/v views of one qkv tensor, separate K and V caches in `layout`."""
    _, q, k, v = qkv_views(tokens, HQ, kv_heads, head, dtype)
    cache_dtype = dtype if cache == "auto" else "uint8"
    if layout == "nhd":
        shape = (BLOCKS, block, kv_heads, head)
    elif layout == "hnd":
        shape = (BLOCKS, kv_heads, block, head)
    elif layout == "packed_nhd":  # one [blocks, block, Hkv, 2D] tensor, K | V in the last dim
        kv = MockTensor((BLOCKS, block, kv_heads, 2 * head), cache_dtype)
        st = kv.strides
        shape = None
        kc = kv.view(0, (BLOCKS, block, kv_heads, head), st)
        vc = kv.view(head, (BLOCKS, block, kv_heads, head), st)
    elif layout == "flashinfer":  # [blocks, 2, block, Hkv, D]: K and V blocks interleaved
        kv = MockTensor((BLOCKS, 2, block, kv_heads, head), cache_dtype)
        st = kv.strides
        shape = None
        kc = kv.view(0, (BLOCKS, block, kv_heads, head), (st[0], st[2], st[3], st[4]))
        vc = kv.view(st[1], (BLOCKS, block, kv_heads, head), (st[0], st[2], st[3], st[4]))
    elif layout == "mla":  # [blocks, block, 576]: kv_c in [:512], k_pe in [512:]
        raise ValueError("use make_mla_args")
    if shape is not None:
        kc = MockTensor(shape, cache_dtype)
        vc = MockTensor(shape, cache_dtype)
    args = dict(
        positions=MockTensor((tokens,), "int64"),
        query=q,
        key=k,
        value=v,
        cos_sin_cache=MockTensor((4096, rot), "float32"),
        slot_mapping=MockTensor((tokens,), "int64"),
        key_cache=kc,
        value_cache=vc,
        kv_cache_dtype=cache,
    )
    if cache != "auto":
        shape = () if scales == 1 else (scales,)
        args["k_scale"] = MockTensor(shape, "float32")
        args["v_scale"] = MockTensor(shape, "float32")
    return args


def make_mla_args(tokens=T, q_heads=16):
    """DeepSeek MLA: q_pe is the last 64 of 192 dims per head; k_pe [T, 1, 64] and kv_c
    [T, 1, 512] (views of one [T, 576] projection) go to one [blocks, block, 576] cache entry."""
    q = MockTensor((tokens, q_heads, 192), "bfloat16")
    q_pe = q.view(128, (tokens, q_heads, 64), (q_heads * 192, 192, 1))
    kv = MockTensor((tokens, 576), "bfloat16")
    kv_c = kv.view(0, (tokens, 1, 512), (576, 576, 1))
    k_pe = kv.view(512, (tokens, 1, 64), (576, 64, 1))
    cache = MockTensor((BLOCKS, BLOCK, 576), "bfloat16")
    return dict(
        positions=MockTensor((tokens,), "int64"),
        query=q_pe,
        key=k_pe,
        value=kv_c,
        cos_sin_cache=MockTensor((4096, 64), "float32"),
        slot_mapping=MockTensor((tokens,), "int64"),
        key_cache=cache.view(512, (BLOCKS, BLOCK, 64), (BLOCK * 576, 576, 1)),
        value_cache=cache.view(0, (BLOCKS, BLOCK, 512), (BLOCK * 576, 576, 1)),
    )


def call(fn, args, **extra):
    kwargs = dict(args)
    kwargs.update(extra)
    positional = [kwargs.pop(name, None) for name in TENSOR_ARGS[:8]]
    return fn(*positional, **kwargs)


def refused(exc, args, arg, pattern=None, fn=rope_kv.check_args, **extra):
    """Assert that fn(args) raises `exc` with a message starting '<arg>:' (and matching pattern)."""
    with pytest.raises(exc) as info:
        call(fn, args, **extra)
    message = str(info.value)
    assert message.startswith(arg + ":"), message
    if pattern is not None:
        assert re.search(pattern, message), message
    return message
