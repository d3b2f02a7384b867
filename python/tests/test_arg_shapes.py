"""Every tensor argument with a shape, stride, pointer or device the checks must refuse: each gets a
ValueError or TypeError naming that argument, never a crash (a crash here ends the whole pytest run,
which is why scripts/python_device.sh runs each test file on its own)."""

import pytest

import rope_kv
from arg_cases import D, HKV, HQ, T, TENSOR_ARGS, call, make_args, refused
from dlpack_mock import MockTensor

# The ranks each argument accepts (in make_args("fp8"), which has two KV heads, so the 3-D MLA
# cache is not one of them); 2-D q/k/v needs head_size=, so it is refused here.
VALID_NDIMS = {"positions": {1}, "query": {3}, "key": {3}, "value": {3}, "cos_sin_cache": {2},
               "slot_mapping": {1}, "key_cache": {4}, "value_cache": {4}, "k_scale": {0, 1},
               "v_scale": {0, 1}}


def _fp8_args():
    return make_args("fp8")


@pytest.mark.parametrize("ndim", range(6))
@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_every_argument_with_every_wrong_rank(arg, ndim):
    if ndim in VALID_NDIMS[arg]:
        pytest.skip("a valid rank")
    args = _fp8_args()
    args[arg] = MockTensor((2,) * ndim, args[arg].dtype)
    refused(ValueError, args, arg, r"shape \[")


@pytest.mark.parametrize("shape", [(), (T,), (T, HKV, D, 1), (T, HKV, D, 1, 1)])
@pytest.mark.parametrize("arg", ["query", "key", "value"])
def test_head_size_does_not_make_other_ranks_two_dimensional(arg, shape):
    """With head_size= given, q/k/v of a rank other than 2 or 3 are still refused, not read as 2-D."""
    args = make_args()
    args[arg] = MockTensor(shape, "bfloat16")
    refused(ValueError, args, arg, r"got shape \[", head_size=D)


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_every_zero_extent_is_refused_or_fine(arg):
    """A zero in any dim either is a valid empty call or is refused naming an argument; never a
    division by zero (zero heads used to crash the process) or a launch on nothing."""
    base = _fp8_args()[arg]
    for i in range(len(base.shape)):
        args = _fp8_args()
        shape = list(base.shape)
        shape[i] = 0
        args[arg] = MockTensor(shape, base.dtype)
        try:
            call(rope_kv.check_args, args)
        except (TypeError, ValueError) as e:
            assert str(e).split(":")[0] in TENSOR_ARGS, e


@pytest.mark.parametrize("arg,shape", [("query", (T, 0, D)), ("query", (T, HQ, 0)),
                                       ("key", (T, 0, D)), ("key", (T, HKV, 0)),
                                       ("value", (T, 0, D)), ("value", (T, HKV, 0))])
def test_zero_heads_or_head_size(arg, shape):
    args = make_args()
    args[arg] = MockTensor(shape, "bfloat16")
    refused(ValueError, args, arg, "expected 1 to 2.31 - 1 heads of head_size")


def test_zero_width_two_dimensional_tensors():
    args = make_args()
    args["key"] = MockTensor((T, 0), "bfloat16")
    refused(ValueError, args, "key", r"got shape \[5, 0\] with head_size = 64", head_size=D)


def test_more_heads_than_int32():
    args = make_args()
    args["query"] = MockTensor((T, 1 << 31, D), "bfloat16")
    refused(ValueError, args, "query", "2.31 - 1 heads")


def test_empty_calls_pass():
    call(rope_kv.check_args, make_args(tokens=0))
    args = make_args()
    args["slot_mapping"] = MockTensor((0,), "int64")
    call(rope_kv.check_args, args)


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_negative_extents(arg):
    args = _fp8_args()
    shape = list(args[arg].shape) or [1]
    shape[0] = -shape[0] if shape[0] > 0 else -1
    args[arg] = MockTensor(shape, args[arg].dtype, strides=[1] * len(shape))
    refused(ValueError, args, arg, "non-negative extents")


@pytest.mark.parametrize("arg", [a for a in TENSOR_ARGS if a not in ("k_scale", "v_scale")])
def test_negative_strides(arg):
    args = _fp8_args()
    t = args[arg]
    strides = list(t.strides)
    strides[0] = -max(strides[0], 1)
    args[arg] = t.with_(strides=strides)
    refused(ValueError, args, arg, "non-negative strides")


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_strides_past_any_memory(arg):
    """Strides whose span overflows int64 arithmetic are refused before anything multiplies them."""
    args = _fp8_args()
    t = args[arg]
    shape = list(t.shape) or [2]
    shape[0] = max(shape[0], 2)
    strides = list(t.strides) or [1]
    strides[0] = 1 << 62
    args[arg] = MockTensor(shape, t.dtype, strides=strides)
    refused(ValueError, args, arg, "spans more than 2.56")


@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_null_data_pointers(arg):
    args = _fp8_args()
    args[arg] = args[arg].with_(address=0)
    refused(ValueError, args, arg, "null data pointer")


def test_null_data_pointers_of_empty_tensors_are_fine():
    """torch hands out data_ptr() == 0 for empty CUDA tensors."""
    args = make_args(tokens=0)
    for name in ("positions", "slot_mapping"):
        args[name] = args[name].with_(address=0)
    call(rope_kv.check_args, args)


@pytest.mark.parametrize("device,text", [(3, "CUDA pinned host"), (13, "CUDA managed-memory"),
                                         (10, "ROCm"), (14, "DLPack device type 14")])
@pytest.mark.parametrize("arg", TENSOR_ARGS)
def test_devices_other_than_cuda(arg, device, text):
    args = _fp8_args()
    args[arg] = args[arg].with_(device=device)
    refused(ValueError, args, arg, "expected a CUDA device tensor, got .*" + text)


@pytest.mark.parametrize("arg", ["query", "key", "value", "key_cache"])
def test_other_dtypes_of_wrong_rank(arg):
    """Rank and dtype both wrong: one clear refusal either way, no read past the shape."""
    args = make_args()
    args[arg] = MockTensor((2,) * 5, "float64")
    with pytest.raises((TypeError, ValueError)) as info:
        call(rope_kv.check_args, args)
    assert str(info.value).startswith(arg + ":"), info.value
