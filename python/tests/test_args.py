"""Argument checks without a GPU: every refusal is a TypeError or ValueError that names the argument,
raised before anything launches. CUDA tensors are DLPack descriptors at made-up addresses
(dlpack_mock.py); CPU arrays are numpy's."""

import pytest

import rope_kv
from arg_cases import (BLOCK, BLOCKS, D, HKV, HQ, ROT, T, TENSOR_ARGS, call, make_args,
                       make_mla_args, refused)
from dlpack_mock import CPU, MockTensor

# ---- the package


def test_imports_and_exposes_the_api():
    assert rope_kv.__version__
    for name in ("fused", "unfused_pair", "rope_inplace", "cache_write", "check_args"):
        assert callable(getattr(rope_kv, name))
    assert isinstance(rope_kv.HAS_PDL, bool)
    assert rope_kv.device_count() >= 0


def test_the_tested_package_is_the_one_just_built():
    import os

    expected = os.environ.get("RKV_PYTHON_PACKAGE_DIR")
    if not expected:
        pytest.skip("RKV_PYTHON_PACKAGE_DIR unset (not run by CTest)")
    assert os.path.realpath(os.path.dirname(rope_kv.__file__)) == os.path.realpath(expected)


# ---- valid calls pass the checks


@pytest.mark.parametrize("layout", ["nhd", "hnd", "packed_nhd", "flashinfer"])
@pytest.mark.parametrize("cache", ["auto", "fp8", "fp8_e4m3", "fp8_e5m2"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_valid_calls_pass(layout, cache, dtype):
    call(rope_kv.check_args, make_args(cache, dtype, layout))


def test_valid_variants_pass():
    call(rope_kv.check_args, make_mla_args())
    call(rope_kv.check_args, make_args(), is_neox=False)
    call(rope_kv.check_args, make_args(), style="gptj")
    call(rope_kv.check_args, make_args(rot=32))  # partial rotary
    call(rope_kv.check_args, make_args(cache="fp8", scales=HKV))  # per-head scales
    call(rope_kv.check_args, make_args(block=HKV))  # block_size == Hkv: nhd by default
    call(rope_kv.check_args, make_args(layout="hnd", block=HKV), layout="hnd")
    call(rope_kv.check_args, make_args(tokens=0))
    call(rope_kv.check_args, make_args(), write_back_key=False)
    call(rope_kv.check_args, make_args(), stream=12345)
    # RoPE only: no slot mapping, no caches.
    args = make_args()
    for name in ("value", "slot_mapping", "key_cache", "value_cache"):
        args[name] = None
    call(rope_kv.check_args, args)
    # fewer slots than tokens (CUDA-graph padding), value of the full length.
    args = make_args()
    args["slot_mapping"] = MockTensor((T - 2,), "int64")
    call(rope_kv.check_args, args)
    # a separate query_out
    call(rope_kv.check_args, make_args(), query_out=MockTensor((T, HQ, D), "bfloat16"))
    # fp8 caches as float8 dtypes
    args = make_args("fp8_e4m3")
    args["key_cache"] = args["key_cache"].with_(dtype="float8_e4m3fn")
    args["value_cache"] = args["value_cache"].with_(dtype="float8_e4m3fn")
    call(rope_kv.check_args, args)
    # auto cache: scales are ignored, whatever they are
    call(rope_kv.check_args, make_args(), k_scale=object(), v_scale=None)


def test_two_dimensional_tensors_with_head_size():
    args = make_args()
    q = args["query"]
    args["query"] = q.view(0, (T, HQ * D), (q.strides[0], 1))
    k = args["key"]
    args["key"] = k.view(0, (T, HKV * D), (k.strides[0], 1))
    call(rope_kv.check_args, args, head_size=D)
    refused(ValueError, args, "query", "needs head_size")
    refused(ValueError, args, "query", "not a multiple of head_size", head_size=48)
    refused(ValueError, make_args(), "query", "head_size = 32", head_size=32)


def test_raw_capsules_are_accepted_once():
    args = make_args()
    capsule = args["positions"].capsule()
    args["positions"] = capsule
    call(rope_kv.check_args, args)
    # A consumed capsule is renamed "used_dltensor" and cannot be read again.
    refused(TypeError, args, "positions", "DLPack")


def test_read_only_inputs_are_fine_but_written_ones_are_refused():
    args = make_args()
    args["positions"] = args["positions"].with_(read_only=True)
    args["cos_sin_cache"] = args["cos_sin_cache"].with_(read_only=True)
    call(rope_kv.check_args, args)
    args["key_cache"] = args["key_cache"].with_(read_only=True)
    refused(ValueError, args, "key_cache", "read-only")


# ---- wrong kinds of objects and devices


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_objects_that_are_no_arrays(arg):
    args = make_args("fp8")
    args[arg] = [1, 2, 3]
    refused(TypeError, args, arg, r"expected a CUDA tensor supporting DLPack .* got list")


class _RefusingProducer:
    """A DLPack producer whose __dlpack__ raises, as torch's does for a tensor needing grad."""

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        raise BufferError("cannot export this one \udcff")


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_a_producer_that_refuses_export_is_named_with_its_exception(arg):
    args = make_args("fp8")
    args[arg] = _RefusingProducer()
    # The producer's exception type and message, its unencodable character escaped.
    failed = r"whose __dlpack__\(\) failed: BufferError: cannot export this one \\udcff$"
    refused(TypeError, args, arg, r"got .*_RefusingProducer " + failed)


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_cpu_arrays(arg):
    np = pytest.importorskip("numpy")
    args = make_args("fp8")
    args[arg] = np.zeros(args[arg].shape or (1,), np.float32)
    refused(ValueError, args, arg, "expected a CUDA device tensor, got a CPU array")


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_cpu_descriptors(arg):
    args = make_args("fp8")
    args[arg] = args[arg].with_(device=CPU)
    refused(ValueError, args, arg, "got a CPU array")


@pytest.mark.parametrize("arg", [a for a in TENSOR_ARGS if a != "query"])
def test_other_device(arg):
    args = make_args("fp8")
    args[arg] = args[arg].with_(device_id=1)
    refused(ValueError, args, arg, "expected CUDA device 0 .that of query., got device 1")


@pytest.mark.parametrize("arg", ["positions", "query", "key", "cos_sin_cache"])
def test_required_tensors(arg):
    args = make_args()
    args[arg] = None
    refused(TypeError, args, arg, "got None")


@pytest.mark.parametrize("arg", ["value", "key_cache", "value_cache"])
def test_cache_tensors_need_slot_mapping_and_each_other(arg):
    args = make_args()
    args[arg] = None
    refused(TypeError, args, arg, "got None")
    args = make_args()
    args["slot_mapping"] = None
    refused(ValueError, args, "value", "without slot_mapping")


# ---- dtypes


@pytest.mark.parametrize(
    "arg,dtype,pattern",
    [
        ("query", "float64", "bfloat16, float16 or float32, got float64"),
        ("query", "int32", "got int32"),
        ("key", "float16", "expected dtype bfloat16 .that of query., got float16"),
        ("value", "float32", "expected dtype bfloat16 .that of query., got float32"),
        ("positions", "int32", "expected dtype int64, got int32"),
        ("slot_mapping", "float32", "expected dtype int64, got float32"),
        ("cos_sin_cache", "float16", "expected dtype float32 or bfloat16 .that of query., got float16"),
        ("key_cache", "float16", r"kv_cache_dtype='auto' stores the dtype of query"),
        ("value_cache", "uint8", "got uint8"),
    ],
)
def test_dtypes(arg, dtype, pattern):
    args = make_args()
    args[arg] = args[arg].with_(dtype=dtype)
    refused(TypeError, args, arg, pattern)


def test_fp8_cache_dtypes():
    args = make_args("fp8_e4m3")
    args["key_cache"] = args["key_cache"].with_(dtype="bfloat16")
    refused(TypeError, args, "key_cache", "uint8 or float8_e4m3fn for kv_cache_dtype='fp8_e4m3'")
    args = make_args("fp8_e5m2")
    args["value_cache"] = args["value_cache"].with_(dtype="float8_e4m3fn")
    refused(TypeError, args, "value_cache", "uint8 or float8_e5m2 .* got float8_e4m3fn")
    args = make_args("fp8")
    args["k_scale"] = args["k_scale"].with_(dtype="bfloat16")
    refused(TypeError, args, "k_scale", "expected dtype float32, got bfloat16")


# ---- shapes


def test_shapes():
    args = make_args()
    args["query"] = MockTensor((T, HQ, D, 1), "bfloat16")
    refused(ValueError, args, "query", r"got shape \[5, 8, 64, 1\]")

    args = make_args()
    args["key"] = MockTensor((T + 1, HKV, D), "bfloat16")
    refused(ValueError, args, "key", "expected 5 tokens")

    args = make_args()
    args["key"] = MockTensor((T, 3, D), "bfloat16")
    args["value"] = MockTensor((T, 3, D), "bfloat16")
    refused(ValueError, args, "key", "not a multiple of key's 3 heads")

    args = make_args()
    args["positions"] = MockTensor((T + 1,), "int64")
    refused(ValueError, args, "positions", r"expected shape \[5\]")

    args = make_args()
    args["positions"] = MockTensor((T, 1), "int64")
    refused(ValueError, args, "positions", "expected .num_tokens.")

    args = make_args()
    args["slot_mapping"] = MockTensor((T + 1,), "int64")
    refused(ValueError, args, "slot_mapping", "6 slots for 5 tokens")

    args = make_args()
    args["value"] = MockTensor((T - 1, HKV, D), "bfloat16")
    refused(ValueError, args, "value", "at least 5 tokens")

    args = make_args()
    args["value"] = MockTensor((T, HKV + 1, D), "bfloat16")
    refused(ValueError, args, "value", "expected 2 heads")

    args = make_args()
    args["query_out"] = MockTensor((T, HQ, D + 2), "bfloat16")
    refused(ValueError, args, "query_out", "expected the shape of query")


def test_cos_sin_cache_shapes():
    args = make_args()
    args["cos_sin_cache"] = MockTensor((4096 * 64,), "float32")
    refused(ValueError, args, "cos_sin_cache", "max_position, rot_dim")
    refused(ValueError, make_args(rot=62 + 1), "cos_sin_cache", "even and positive")
    refused(ValueError, make_args(rot=2 * D), "cos_sin_cache", "exceeds the head size")
    refused(ValueError, make_args(rot=6), "cos_sin_cache", "multiple of 4 for neox")
    call(rope_kv.check_args, make_args(rot=6), is_neox=False)
    args = make_args()
    args["cos_sin_cache"] = MockTensor((0, ROT), "float32")
    refused(ValueError, args, "cos_sin_cache", "no rows")


def test_cache_shapes():
    args = make_args()
    args["key_cache"] = MockTensor((BLOCKS, BLOCK, HKV + 1, D), "bfloat16")
    refused(ValueError, args, "key_cache", r"\[num_blocks, block_size, 2, 64\] \(nhd\)")

    args = make_args()
    args["value_cache"] = MockTensor((BLOCKS, BLOCK, HKV, D + 2), "bfloat16")
    refused(ValueError, args, "value_cache", r"expected \[num_blocks, block_size, 2, 64\]")

    args = make_args()
    args["value_cache"] = MockTensor((BLOCKS + 1, BLOCK, HKV, D), "bfloat16")
    refused(ValueError, args, "value_cache", "expected 16 blocks of 16 slots")

    args = make_args()
    args["key_cache"] = MockTensor((BLOCKS, BLOCK, D), "bfloat16")  # 3-D needs one KV head
    refused(ValueError, args, "key_cache", "got shape")

    args = make_args()
    refused(ValueError, args, "key_cache", r"\(layout hnd\)", layout="hnd")

    args = make_args()
    args["key_cache"] = MockTensor((0, BLOCK, HKV, D), "bfloat16")
    args["value_cache"] = MockTensor((0, BLOCK, HKV, D), "bfloat16")
    refused(ValueError, args, "key_cache", "is empty")


def test_scales():
    args = make_args("fp8_e4m3")
    args["k_scale"] = None
    refused(ValueError, args, "k_scale",
            "kv_cache_dtype='fp8_e4m3' needs a float32 CUDA tensor of 1 or num_kv_heads = 2 "
            "scales, got None")
    args = make_args("fp8_e5m2")
    args["v_scale"] = None
    refused(ValueError, args, "v_scale", "got None")
    args = make_args("fp8")
    args["k_scale"] = MockTensor((3,), "float32")
    refused(ValueError, args, "k_scale", r"expected shape \[\], \[1\] or \[2\]")
    args = make_args("fp8", scales=HKV)
    args["v_scale"] = MockTensor((1,), "float32")
    refused(ValueError, args, "v_scale", "expected 2 scale.s. like k_scale, got 1")
    # RoPE only: an fp8 kv_cache_dtype needs no scales
    args = make_args("fp8")
    for name in ("value", "slot_mapping", "key_cache", "value_cache", "k_scale", "v_scale"):
        args[name] = None
    call(rope_kv.check_args, args)


# ---- strides


def test_inner_dims_must_be_contiguous():
    args = make_args()
    args["query"] = MockTensor((T, HQ, D), "bfloat16", strides=(HQ * D * 2, D * 2, 2))
    refused(ValueError, args, "query", r"innermost \(head_size\) dim to be contiguous")
    args = make_args()
    args["key_cache"] = MockTensor((BLOCKS, BLOCK, HKV, D), "bfloat16",
                                   strides=(BLOCK * HKV * D * 2, HKV * D * 2, D * 2, 2))
    refused(ValueError, args, "key_cache", "innermost")
    args = make_args()
    args["positions"] = MockTensor((T,), "int64", strides=(2,))
    refused(ValueError, args, "positions", "contiguous")
    args = make_args()
    args["cos_sin_cache"] = MockTensor((4096, ROT), "float32", strides=(ROT * 2, 2))
    refused(ValueError, args, "cos_sin_cache", "innermost .rot_dim.")
    args = make_args("fp8", scales=HKV)
    args["k_scale"] = MockTensor((HKV,), "float32", strides=(2,))
    refused(ValueError, args, "k_scale", "contiguous")


def test_overlapping_strides():
    args = make_args()
    args["query"] = MockTensor((T, HQ, D), "bfloat16", strides=(HQ * D, D // 2, 1))
    refused(ValueError, args, "query", "heads overlap")
    args = make_args()
    args["key"] = MockTensor((T, HKV, D), "bfloat16", strides=(D, D, 1))
    refused(ValueError, args, "key", "token stride 64 overlaps the 2 heads")
    args = make_args()
    args["value"] = MockTensor((T, HKV, D), "bfloat16", strides=(0, D, 1))
    refused(ValueError, args, "value", "overlaps")
    args = make_args()
    args["key_cache"] = MockTensor((BLOCKS, BLOCK, HKV, D), "bfloat16",
                                   strides=(0, HKV * D, D, 1))
    refused(ValueError, args, "key_cache", "make distinct cache entries")
    args = make_args()
    args["query"] = MockTensor((T, HQ, D), "bfloat16", strides=(-HQ * D, D, 1))
    refused(ValueError, args, "query", "non-negative strides")


def test_cos_sin_row_stride():
    args = make_args()
    args["cos_sin_cache"] = MockTensor((4096, ROT), "float32", strides=(ROT - 2, 1))
    refused(ValueError, args, "cos_sin_cache", "row stride 62 is shorter than rot_dim 64")


# ---- aliasing


def test_the_same_cache_twice():
    args = make_args()
    args["value_cache"] = args["key_cache"]
    refused(ValueError, args, "key_cache", "overlaps value_cache")


def test_query_out_must_not_be_query():
    args = make_args()
    refused(ValueError, args, "query_out", "overlaps query", query_out=args["query"])


def test_written_views_overlapping_inputs():
    args = make_args()
    q = args["query"]
    args["key"] = q.view(D, (T, HKV, D), q.strides)  # key inside query's columns
    refused(ValueError, args, "query", "overlaps key")
    args = make_args()
    args["value"] = args["key_cache"].view(0, (T, HKV, D), (HKV * D, D, 1))
    refused(ValueError, args, "key_cache", "overlaps value")
    args = make_args()
    args["positions"] = args["value_cache"].view(8, (T,), dtype="int64")
    refused(ValueError, args, "value_cache", "overlaps positions")
    args = make_args()
    q = args["query"]
    args["key_cache"] = MockTensor((BLOCKS, BLOCK, HKV, D), "bfloat16", address=q.address)
    refused(ValueError, args, "query", "overlaps key_cache")
    args = make_args("fp8")
    args["k_scale"] = args["key_cache"].view(0, (), dtype="float32")
    refused(ValueError, args, "key_cache", "overlaps k_scale")


def test_packed_views_that_overlap():
    kv = MockTensor((BLOCKS, BLOCK, HKV, 2 * D), "bfloat16")
    args = make_args()
    args["key_cache"] = kv.view(0, (BLOCKS, BLOCK, HKV, D), kv.strides)
    args["value_cache"] = kv.view(D // 2, (BLOCKS, BLOCK, HKV, D), kv.strides)  # half into K
    refused(ValueError, args, "key_cache", "overlaps value_cache")


def test_reading_one_input_twice_is_fine():
    args = make_args("fp8")
    args["v_scale"] = args["k_scale"]
    call(rope_kv.check_args, args)


# ---- alignment


def test_misaligned_pointers():
    args = make_args()
    q = MockTensor((T, HQ, D), "bfloat16")
    args["query"] = q.view(1, q.shape, q.strides)  # one bf16 element in: not 4-byte aligned
    msg = refused(ValueError, args, "query", "aligned pairs")
    assert "4 bytes" in msg
    args = make_args(cache="fp8")
    args["key_cache"] = args["key_cache"].view(1, args["key_cache"].shape,
                                                args["key_cache"].strides)
    refused(ValueError, args, "key_cache", "aligned pairs")


# ---- options


def test_options():
    refused(ValueError, make_args(), "kv_cache_dtype", "'auto', 'fp8', 'fp8_e4m3' or 'fp8_e5m2', got 'int8'",
            kv_cache_dtype="int8")
    refused(TypeError, make_args(), "kv_cache_dtype", "str", kv_cache_dtype=None)
    refused(ValueError, make_args(), "layout", "'nhd' or 'hnd', got 'nchw'", layout="nchw")
    refused(ValueError, make_args(), "style", "'neox' or 'gptj'", style="llama")
    refused(ValueError, make_args(), "style", "contradicts is_neox=True", style="gptj",
            is_neox=True)
    refused(ValueError, make_args(), "head_size", "positive", head_size=-1)
    refused(TypeError, make_args(), "head_size", "int", head_size=64.0)
    refused(TypeError, make_args(), "stream", "cudaStream_t", stream="default")
    refused(ValueError, make_args(), "stream", "non-negative", stream=-1)


def test_pdl():
    if rope_kv.HAS_PDL:
        call(rope_kv.check_args, make_args(), pdl=True)
    else:
        refused(ValueError, make_args(), "pdl", "no programmatic dependent launch", pdl=True)


@pytest.mark.parametrize("fn", [rope_kv.unfused_pair, rope_kv.rope_inplace, rope_kv.cache_write])
def test_the_unfused_kernels_always_write_the_key(fn):
    refused(ValueError, make_args(), "write_back_key", "always write", fn=fn,
            write_back_key=False)


@pytest.mark.parametrize(
    "fn", [rope_kv.fused, rope_kv.unfused_pair, rope_kv.rope_inplace, rope_kv.cache_write])
def test_launchers_check_first(fn):
    args = make_args()
    args["key"] = None
    refused(TypeError, args, "key", fn=fn)


@pytest.mark.skipif(rope_kv.device_count() > 0, reason="launches at made-up addresses")
@pytest.mark.parametrize(
    "fn", [rope_kv.fused, rope_kv.unfused_pair, rope_kv.rope_inplace, rope_kv.cache_write])
def test_launch_without_a_gpu_is_a_runtime_error(fn):
    with pytest.raises(RuntimeError, match="CUDA error"):
        call(fn, make_args())


@pytest.mark.skipif(rope_kv.device_count() > 0, reason="reads made-up addresses")
def test_data_check_without_a_gpu_is_a_runtime_error():
    with pytest.raises(RuntimeError):
        call(rope_kv.check_args, make_args(), data=True)


def test_tensors_autograd_tracks_are_refused():
    # The op writes in place outside autograd; a tensor that requires grad must not slip through.
    args = make_args()
    args["query"].requires_grad = True
    refused(TypeError, args, "query", "does not require grad")
