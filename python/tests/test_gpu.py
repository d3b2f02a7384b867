"""The package on a GPU, through PyTorch tensors: fused equals the unfused pair byte for byte on every
layout, cache dtype, q/k/v dtype and style; the rotation is within 1 ulp of a float64 reference
and the caches equal a PyTorch reference; CUDA graph capture and replay; explicit streams; the
data-dependent check; errors on real tensors. Skipped without torch or a CUDA device."""

import zlib

import pytest

torch = pytest.importorskip("torch", reason="the GPU tests use PyTorch tensors")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the kernels are built for sm_90 (Hopper) only", allow_module_level=True)

import rope_kv  # noqa: E402
from gpu_cases import (  # noqa: E402
    FP8, LAYOUTS, SENTINEL, expected_caches, make_case, make_mla_case, rotate_reference,
    within_one_ulp)

WRITTEN = ("qkv", "q", "kv", "key_cache", "value_cache", "kv_cache", "cache", "query_out")


def run_both(case, **extra):
    """fused on one clone, the unfused pair on another; returns both after a synchronize."""
    a, b = case.clone(), case.clone()
    rope_kv.fused(**a.args, **extra)
    rope_kv.unfused_pair(**b.args, **extra)
    torch.cuda.synchronize()
    return a, b


def assert_same_bytes(a, b, names=WRITTEN):
    for name in names:
        if name in a.base:
            x, y = a.bytes(name), b.bytes(name)
            if not torch.equal(x, y):
                diff = (x != y).nonzero()
                raise AssertionError(f"{name}: {diff.numel()} bytes differ, first at byte "
                                     f"{diff[0].item()}: {x[diff[0]].item()} vs {y[diff[0]].item()}")


# ---- fused == unfused pair, byte for byte


@pytest.mark.parametrize("neox", [True, False], ids=["neox", "gptj"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("cache", ["auto", "fp8_e4m3", "fp8_e5m2"])
@pytest.mark.parametrize("dtype", ["bf16", "fp16", "fp32"])
def test_fused_equals_pair(dtype, cache, layout, neox):
    seed = zlib.crc32(f"{dtype}|{cache}|{layout}|{neox}".encode()) % 1000  # stable across runs
    case = make_case(seed=seed, dtype=dtype, cache=cache,
                     layout=layout, neox=neox, tokens=37, cached=33)
    a, b = run_both(case)
    assert_same_bytes(a, b)
    # Something was written, and padding tokens (no slot) wrote nothing: the caches differ from
    # the sentinel in exactly the entries expected (checked in full by test_caches_match_torch).
    assert not torch.equal(a.base["qkv"], case.base["qkv"])


@pytest.mark.parametrize(
    "variant",
    [
        dict(rot=64),  # partial rotary: dims 64..127 pass through
        dict(query_out=True),
        dict(query_out=True, rot=64, neox=False),
        dict(tokens=1, cached=1),  # decode
        dict(tokens=1, cached=0),  # a padding token only
        dict(cos_sin="dtype"),
        dict(cache="fp8_e4m3", per_head_scale=True),
        dict(cache="fp8_e4m3", fp8_storage="float8"),
        dict(cache="fp8_e5m2", fp8_storage="float8", layout="packed_hnd"),
        dict(q_heads=32, kv_heads=8, head=128, tokens=4096, cached=4000),  # the strided grid
        dict(q_heads=32, kv_heads=8, head=128, tokens=4096, cache="fp8_e4m3"),
        dict(q_heads=4, kv_heads=4, head=64, block=32, layout="hnd"),  # MHA
        dict(q_heads=8, kv_heads=1, head=256, layout="packed_nhd", dtype="fp16"),  # MQA
        dict(head=72, rot=72, layout="flashinfer", dtype="fp16"),  # 8-byte accesses
    ],
    ids=lambda v: ",".join(f"{k}={v[k]}" for k in v),
)
def test_fused_equals_pair_variants(variant):
    case = make_case(seed=7, **variant)
    a, b = run_both(case)
    assert_same_bytes(a, b)


@pytest.mark.parametrize("cache", ["auto", "fp8_e4m3"])
@pytest.mark.parametrize("neox", [True, False], ids=["neox", "gptj"])
def test_mla(cache, neox):
    case = make_mla_case(seed=3, cache=cache, neox=neox)
    a, b = run_both(case)
    assert_same_bytes(a, b)
    exp = expected_caches(case, a.args["key"], a.args["value"])
    assert torch.equal(a.bytes("cache"), exp.bytes("cache"))
    # q's first 128 dims (q_nope) are untouched.
    assert torch.equal(a.base["q"][..., :128], case.base["q"][..., :128])


def test_write_back_key_false_leaves_key_alone():
    case = make_case(seed=11, layout="packed_nhd")
    kept = case.clone()
    rope_kv.fused(**kept.args, write_back_key=False)
    pair = case.clone()
    rope_kv.unfused_pair(**pair.args)
    torch.cuda.synchronize()
    assert torch.equal(kept.args["key"], case.args["key"])
    assert torch.equal(kept.args["query"], pair.args["query"])
    assert torch.equal(kept.args["value"], case.args["value"])
    assert_same_bytes(kept, pair, ["kv_cache"])


def test_rope_inplace_then_cache_write_is_the_pair():
    case = make_case(seed=12, cache="fp8_e5m2", layout="hnd")
    a, b = case.clone(), case.clone()
    rope_kv.rope_inplace(**a.args)
    rope_kv.cache_write(**a.args)
    rope_kv.unfused_pair(**b.args)
    torch.cuda.synchronize()
    assert_same_bytes(a, b)


# ---- against PyTorch references


def assert_rotation_within_one_ulp(before, after):
    """query (or query_out) and key of `after` against a float64 rotation of `before`'s."""
    args0, args1 = before.args, after.args
    rot, neox = before.meta["rot"], before.meta["neox"]
    rows = args0["cos_sin_cache"][args0["positions"]].double()
    cos, sin = rows[:, : rot // 2], rows[:, rot // 2 :]
    q_result = args1["query_out"] if "query_out" in args1 else args1["query"]
    for name, result in (("query", q_result), ("key", args1["key"])):
        exact, terms = rotate_reference(args0[name].double(), cos, sin, rot, neox)
        ok, err, bound = within_one_ulp(result, exact, terms)
        assert ok.all(), (f"{name}: {int((~ok).sum())} elements off by more than 1 ulp, worst "
                          f"{(err / bound).max().item():.3f} bounds")
        # dims outside the rotated window pass through bit for bit
        assert torch.equal(result[..., rot:], args0[name][..., rot:])
    assert torch.equal(args1["value"], args0["value"])


@pytest.mark.parametrize("neox", [True, False], ids=["neox", "gptj"])
@pytest.mark.parametrize("rot", [128, 64])
@pytest.mark.parametrize("cos_sin", ["fp32", "dtype"])
@pytest.mark.parametrize("dtype", ["bf16", "fp16", "fp32"])
def test_rotation_within_one_ulp_of_float64(dtype, cos_sin, rot, neox):
    case = make_case(seed=21, dtype=dtype, rot=rot, neox=neox, cos_sin=cos_sin, query_out=True,
                     layout="nhd")
    out = case.clone()
    rope_kv.fused(**out.args)
    torch.cuda.synchronize()
    assert_rotation_within_one_ulp(case, out)
    assert torch.equal(out.args["query"], case.args["query"])  # query_out given: query read only


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("cache", ["auto", "fp8_e4m3", "fp8_e5m2"])
@pytest.mark.parametrize("dtype", ["bf16", "fp16", "fp32"])
def test_caches_match_torch(dtype, cache, layout):
    """On every layout and cache dtype: q and k within 1 ulp of float64, and each cached token's
    rotated key and its value in its slot (fp8: torch's saturated conversion of the fp32
    quotient), the sentinel everywhere else: padding tokens and -1 slots write nothing."""
    case = make_case(seed=31, dtype=dtype, cache=cache, layout=layout, tokens=45, cached=40,
                     per_head_scale=(cache == "fp8_e5m2"))
    out = case.clone()
    rope_kv.fused(**out.args)
    torch.cuda.synchronize()
    assert_rotation_within_one_ulp(case, out)
    exp = expected_caches(case, out.args["key"], out.args["value"])
    for name in ("key_cache", "value_cache", "kv_cache"):
        if name in out.base:
            got, want = out.bytes(name), exp.bytes(name)
            assert torch.equal(got, want), f"{name}: {(got != want).sum().item()} bytes differ"
    untouched = (out.bytes("kv_cache" if "kv_cache" in out.base else "key_cache") == SENTINEL)
    assert untouched.any()


# ---- streams and CUDA graphs


def test_explicit_and_current_streams():
    case = make_case(seed=41, cache="fp8_e4m3")
    ref = case.clone()
    rope_kv.fused(**ref.args)
    side = torch.cuda.Stream()
    a, b, c = case.clone(), case.clone(), case.clone()
    side.wait_stream(torch.cuda.current_stream())
    rope_kv.fused(**a.args, stream=side)  # a torch.cuda.Stream
    rope_kv.fused(**b.args, stream=side.cuda_stream)  # a raw cudaStream_t
    with torch.cuda.stream(side):
        rope_kv.fused(**c.args)  # the default: torch's current stream
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    for x in (a, b, c):
        assert_same_bytes(x, ref)


@pytest.mark.parametrize("op", ["fused", "unfused_pair"])
def test_cuda_graph_capture_and_replay(op):
    launch = getattr(rope_kv, op)
    static = make_case(seed=50, cache="fp8_e4m3", layout="packed_nhd", tokens=64, cached=60)
    fresh = [make_case(seed=51 + i, cache="fp8_e4m3", layout="packed_nhd", tokens=64, cached=60)
             for i in range(3)]
    # Warm up off the capture (first launches set up the kernels' occupancy query).
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        launch(**static.clone().args)
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        launch(**static.args)  # default stream: the capture stream
    for inputs in fresh:
        static.load(inputs)  # new qkv, positions, slots; caches back to the sentinel
        graph.replay()
        eager = inputs.clone()
        launch(**eager.args)
        torch.cuda.synchronize()
        assert_same_bytes(static, eager)


def test_data_check_refuses_during_capture():
    case = make_case(seed=60)
    graph = torch.cuda.CUDAGraph()
    with pytest.raises(ValueError, match="^data: "):
        with torch.cuda.graph(graph):
            rope_kv.check_args(**case.args, data=True)


# ---- the data-dependent check and errors on real tensors


def test_data_check():
    case = make_case(seed=70, cache="fp8_e4m3")
    rope_kv.check_args(**case.args, data=True)

    bad = case.clone()
    bad.base["positions"][3] = 4096
    with pytest.raises(ValueError, match=r"positions\[3\] = 4096 is outside the cos/sin cache"):
        rope_kv.check_args(**bad.args, data=True)

    bad = case.clone()
    valid = (bad.base["slot_mapping"] >= 0).nonzero().flatten()
    bad.base["slot_mapping"][valid[1]] = bad.base["slot_mapping"][valid[0]]
    with pytest.raises(ValueError, match="repeats an earlier token's slot"):
        rope_kv.check_args(**bad.args, data=True)

    bad = case.clone()
    bad.base["k_scale"].fill_(float("nan"))
    with pytest.raises(ValueError, match="k_scale"):
        rope_kv.check_args(**bad.args, data=True)


def test_errors_on_torch_tensors():
    case = make_case(seed=80)
    before = case.clone()
    args = dict(case.args)
    args["positions"] = args["positions"].cpu()
    with pytest.raises(ValueError, match="^positions: expected a CUDA device tensor, got a CPU"):
        rope_kv.fused(**args)
    args = dict(case.args)
    args["positions"] = args["positions"].int()
    with pytest.raises(TypeError, match="^positions: expected dtype int64, got int32"):
        rope_kv.fused(**args)
    args = dict(case.args)
    args["query"] = case.base["qkv"][:, ::2].unflatten(-1, (8, -1))[..., :64]  # stride-2 inner dim
    with pytest.raises(ValueError, match="^query: expected the innermost"):
        rope_kv.fused(**args)
    args = dict(case.args, kv_cache_dtype="fp8_e4m3")
    with pytest.raises(ValueError, match="^k_scale: .* got None"):
        rope_kv.fused(**{k: v for k, v in args.items() if k not in ("key_cache", "value_cache")},
                      key_cache=case.args["key_cache"].view(torch.uint8)[..., :128],
                      value_cache=case.args["value_cache"].view(torch.uint8)[..., :128])
    args = dict(case.args)
    args["value_cache"] = args["key_cache"]
    with pytest.raises(ValueError, match="^key_cache: overlaps value_cache"):
        rope_kv.fused(**args)
    args = dict(case.args, kv_cache_dtype="fp8_e5m2",
                key_cache=case.args["key_cache"].view(torch.uint8)[..., :128].view(FP8["fp8_e4m3"]),
                k_scale=torch.ones((), device="cuda"), v_scale=torch.ones((), device="cuda"))
    with pytest.raises(TypeError, match="^key_cache: expected dtype uint8 or float8_e5m2"):
        rope_kv.fused(**args)
    grad = case.clone()
    args = dict(grad.args, query=grad.args["query"].detach().clone().requires_grad_())
    with pytest.raises(TypeError, match="^query: "):
        rope_kv.fused(**args)
    torch.cuda.synchronize()
    # Nothing above wrote anything.
    assert_same_bytes(case, before)
    assert (case.bytes("key_cache") == SENTINEL).all()
