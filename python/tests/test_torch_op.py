"""The torch.library custom ops: registered with the right schema, traced by fake tensors, refused
on CPU tensors, and (with a GPU) kept whole by torch.compile(fullgraph=True) with results equal to
eager calls. Skipped without torch."""

import pytest

torch = pytest.importorskip("torch", reason="the custom ops need PyTorch")

import rope_kv  # noqa: E402
import rope_kv.torch_op  # noqa: E402,F401

HAS_GPU = torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs an sm_90 CUDA device")

MUTATED = {"query", "key", "key_cache", "value_cache", "query_out"}


@pytest.mark.parametrize("name", ["fused", "unfused_pair"])
def test_registered_with_mutations_declared(name):
    op = getattr(torch.ops.rope_kv, name).default
    schema = op._schema
    assert [a.name for a in schema.arguments][:10] == [
        "positions", "query", "key", "value", "cos_sin_cache", "slot_mapping", "key_cache",
        "value_cache", "k_scale", "v_scale"]
    written = {a.name for a in schema.arguments if a.alias_info is not None and a.alias_info.is_write}
    assert written == MUTATED
    assert len(schema.returns) == 0


def _cpu_args(tokens=4, q_heads=4, kv_heads=2, head=64, blocks=4, block=16):
    qkv = torch.randn(tokens, (q_heads + 2 * kv_heads) * head, dtype=torch.bfloat16)
    q, k, v = qkv.split([q_heads * head, kv_heads * head, kv_heads * head], dim=-1)
    return (torch.arange(tokens), q.view(tokens, q_heads, head), k.view(tokens, kv_heads, head),
            v.view(tokens, kv_heads, head), torch.randn(128, head), torch.arange(tokens),
            torch.zeros(blocks, block, kv_heads, head, dtype=torch.bfloat16),
            torch.zeros(blocks, block, kv_heads, head, dtype=torch.bfloat16))


def test_fake_tensors_trace_without_running():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode() as mode:
        args = [mode.from_tensor(t) for t in _cpu_args()]
        assert torch.ops.rope_kv.fused(*args, None, None, True, "auto", None) is None
        out = mode.from_tensor(torch.empty(4, 4, 64, dtype=torch.bfloat16))
        assert torch.ops.rope_kv.unfused_pair(*args, None, None, False, "auto", out,
                                              head_size=64) is None


def test_cpu_tensors_are_refused_through_the_op():
    with pytest.raises(ValueError, match="^positions: expected a CUDA device tensor"):
        torch.ops.rope_kv.fused(*_cpu_args(), None, None, True, "auto", None)


def test_float8_cpu_cache_with_the_wrong_flavour():
    args = list(_cpu_args())
    args[6] = args[6].to(torch.float8_e5m2)
    with pytest.raises(TypeError, match="^key_cache: expected dtype uint8 or float8_e4m3fn"):
        rope_kv.fused(*args, kv_cache_dtype="fp8")


@needs_gpu
@pytest.mark.parametrize(  # each compiles afresh (seconds), so two, not the whole square
    "op,cache", [("fused", "auto"), ("unfused_pair", "fp8_e4m3")])
def test_torch_compile_fullgraph(op, cache):
    """A vLLM-like step compiled whole: split the qkv projection into views, one op call rotates
    q and k in place and fills the cache, then attention-like math reads the rotated q and the
    cache. Equal, byte for byte, to the same step run eagerly."""
    from gpu_cases import make_case

    q_heads, kv_heads, head = 8, 2, 128
    target = getattr(torch.ops.rope_kv, op)

    def step(positions, qkv, cos_sin_cache, slot_mapping, key_cache, value_cache, k_scale,
             v_scale):
        tokens = qkv.shape[0]
        q, k, v = qkv.split([q_heads * head, kv_heads * head, kv_heads * head], dim=-1)
        q = q.view(tokens, q_heads, head)
        k = k.view(tokens, kv_heads, head)
        v = v.view(tokens, kv_heads, head)
        target(positions, q, k, v, cos_sin_cache, slot_mapping, key_cache, value_cache, k_scale,
               v_scale, True, cache, None)
        # read what the op wrote: rotated q, and the cache (as bytes, whatever its dtype);
        # exact arithmetic only, so eager and compiled agree whatever their reduction order
        return q.float() * 2, key_cache.view(torch.uint8).sum(dim=(1, 2, 3))

    graphs = []

    def counting_inductor(gm, example_inputs):
        graphs.append(gm)
        from torch._inductor.compile_fx import compile_fx

        return compile_fx(gm, example_inputs)

    compiled = torch.compile(step, fullgraph=True, backend=counting_inductor)

    def inputs(case):
        b = case.base
        return (b["positions"], b["qkv"], b["cos_sin_cache"], b["slot_mapping"], b["key_cache"],
                b["value_cache"], b.get("k_scale"), b.get("v_scale"))

    for seed in (90, 91):  # the second call reuses the compiled graph
        case = make_case(seed=seed, cache=cache, layout="nhd", tokens=24, cached=20,
                         q_heads=q_heads, kv_heads=kv_heads, head=head)
        eager, comp = case.clone(), case.clone()
        want = step(*inputs(eager))
        got = compiled(*inputs(comp))
        torch.cuda.synchronize()
        for name in ("qkv", "key_cache", "value_cache"):
            assert torch.equal(eager.bytes(name), comp.bytes(name)), name
        for w, g in zip(want, got):
            assert torch.equal(w, g)
    assert len(graphs) == 1
    calls = [n for n in graphs[0].graph.nodes if n.op == "call_function"]
    assert any(f"rope_kv.{op}" in str(n.target) for n in calls), [str(n.target) for n in calls]
