"""One rope_kv.fused call in place of vLLM's rotary_embedding + reshape_and_cache_flash.

A decoder layer in vLLM does, after the qkv projection:

    q, k, v = qkv.split([q_size, kv_size, kv_size], dim=-1)
    ops.rotary_embedding(positions, q, k, head_size, cos_sin_cache, is_neox)
    ops.reshape_and_cache_flash(k.view(-1, Hkv, D), v.view(-1, Hkv, D), key_cache, value_cache,
                                slot_mapping, kv_cache_dtype, k_scale, v_scale)

With rope_kv the two launches become one, with the same arguments:

    rope_kv.fused(positions, q.view(-1, Hq, D), k.view(-1, Hkv, D), v.view(-1, Hkv, D),
                  cos_sin_cache, slot_mapping, key_cache, value_cache, k_scale, v_scale,
                  is_neox, kv_cache_dtype)

This script checks that both give the same bytes, then times both the way a serving engine runs
them: each inside a CUDA graph of --launches calls, replayed, timed with torch.cuda.Event around
each replay. "two calls" are vLLM's kernels when vllm is installed, else rope_kv's unfused pair
(rope_inplace, then cache_write: kernels shaped like vLLM's, vectorized as newer engines'), which
is the baseline every speedup in this repository divides by.

Usage: python3 python/examples/vllm_style.py [--tokens 1,8,64,512,4096] [--samples 30]
"""

import argparse
import statistics
import sys

import torch

import rope_kv


def cos_sin_table(max_position, rot_dim, dtype, base=500000.0):
    inv_freq = base ** (-torch.arange(0, rot_dim, 2, dtype=torch.float64) / rot_dim)
    angles = torch.arange(max_position, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return torch.cat([angles.cos(), angles.sin()], dim=-1).to(dtype)


class Step:
    """The tensors of one layer's step: a qkv projection output, positions, slots, a paged cache
    in vLLM's flash layout [num_blocks, block_size, Hkv, D]."""

    def __init__(self, tokens, q_heads, kv_heads, head, dtype, cache, block=16, seed=0):
        g = torch.Generator(device="cuda").manual_seed(seed)
        self.shape = (tokens, q_heads, kv_heads, head)
        self.cache = cache
        num_blocks = (tokens + block - 1) // block + 8
        width = (q_heads + 2 * kv_heads) * head
        self.qkv = torch.randn(tokens, width, device="cuda", dtype=dtype, generator=g)
        self.positions = torch.randint(0, 8192, (tokens,), device="cuda", generator=g)
        self.slots = torch.randperm(num_blocks * block, device="cuda", generator=g)[:tokens]
        self.cos_sin = cos_sin_table(8192, head, torch.float32).cuda()
        cache_dtype = dtype if cache == "auto" else torch.uint8
        self.key_cache = torch.zeros(num_blocks, block, kv_heads, head, device="cuda",
                                     dtype=cache_dtype)
        self.value_cache = torch.zeros_like(self.key_cache)
        self.k_scale = torch.tensor(0.5, device="cuda")
        self.v_scale = torch.tensor(0.5, device="cuda")

    def clone(self):
        other = object.__new__(Step)
        other.__dict__ = {k: (v.clone() if isinstance(v, torch.Tensor) else v)
                          for k, v in self.__dict__.items()}
        return other

    def views(self):
        t, hq, hkv, d = self.shape
        q, k, v = self.qkv.split([hq * d, hkv * d, hkv * d], dim=-1)
        return q.view(t, hq, d), k.view(t, hkv, d), v.view(t, hkv, d)

    def outputs(self):
        return [self.qkv, self.key_cache, self.value_cache]


def fused(s):
    q, k, v = s.views()
    rope_kv.fused(s.positions, q, k, v, s.cos_sin, s.slots, s.key_cache, s.value_cache,
                  s.k_scale, s.v_scale, True, s.cache)


def two_calls_vllm(ops):
    def run(s):
        q, k, v = s.views()
        t, hq, hkv, d = s.shape
        ops.rotary_embedding(s.positions, q.reshape(t, hq * d), k.reshape(t, hkv * d), d,
                             s.cos_sin, True)
        cache = "fp8" if s.cache != "auto" else "auto"
        ops.reshape_and_cache_flash(k, v, s.key_cache, s.value_cache, s.slots, cache, s.k_scale,
                                    s.v_scale)
    return run


def two_calls_rope_kv(s):
    q, k, v = s.views()
    args = (s.positions, q, k, v, s.cos_sin, s.slots, s.key_cache, s.value_cache, s.k_scale,
            s.v_scale, True, s.cache)
    rope_kv.rope_inplace(*args)  # the shape of vLLM's rotary_embedding
    rope_kv.cache_write(*args)  # the shape of vLLM's reshape_and_cache_flash


def graph_of(fn, step, launches):
    """A CUDA graph of `launches` calls of fn(step), warmed up first on a side stream."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn(step)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(launches):
            fn(step)
    return graph


def time_graphs(graphs, launches, samples):
    """Microseconds per launch for each graph: replays interleaved, so clock and thermal drift
    hit every variant alike; median and quartiles of the samples."""
    times = [[] for _ in graphs]
    for g in graphs:  # warm replays
        g.replay()
    for _ in range(samples):
        for i, g in enumerate(graphs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            g.replay()
            end.record()
            end.synchronize()
            times[i].append(start.elapsed_time(end) * 1000.0 / launches)
    return [(statistics.median(t), *statistics.quantiles(t, n=4)[::2]) for t in times]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", default="1,8,64,512,4096")
    p.add_argument("--heads", default="32x8x128", help="Hq x Hkv x D (Llama 3 8B: 32x8x128)")
    p.add_argument("--cache", default="auto,fp8_e4m3")
    p.add_argument("--launches", type=int, default=20, help="launches per graph")
    p.add_argument("--samples", type=int, default=30, help="timed replays per variant")
    a = p.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to time")
        return 4
    hq, hkv, d = (int(x) for x in a.heads.split("x"))

    try:
        from vllm import _custom_ops as ops  # noqa: PLC0415
        baseline, two_calls = "vLLM rotary_embedding + reshape_and_cache_flash", two_calls_vllm(ops)
    except Exception:
        baseline, two_calls = ("rope_kv.rope_inplace + rope_kv.cache_write (vLLM-shaped kernels; "
                               "vllm not installed)"), two_calls_rope_kv
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"rope_kv {rope_kv.__version__}")
    print(f"two calls: {baseline}")
    print("one call:  rope_kv.fused")
    print(f"heads {a.heads}, bf16 q/k/v, neox, flash layout, block 16; CUDA graph of "
          f"{a.launches} launches, {a.samples} timed replays each (median [q1, q3]), us per step")
    print()
    print("| cache | tokens | two calls (us) | one call (us) | speedup | same bytes |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for cache in a.cache.split(","):
        for tokens in (int(t) for t in a.tokens.split(",")):
            step = Step(tokens, hq, hkv, d, torch.bfloat16, cache)
            # Correctness first: both ways from the same inputs.
            x, y = step.clone(), step.clone()
            two_calls(x)
            fused(y)
            torch.cuda.synchronize()
            same = all(torch.equal(u.view(torch.uint8), w.view(torch.uint8))
                       for u, w in zip(x.outputs(), y.outputs()))
            # Timing: each variant on its own copy (kept alive: the graphs hold its addresses),
            # captured once, replayed.
            copies = [step.clone(), step.clone()]
            graphs = [graph_of(two_calls, copies[0], a.launches),
                      graph_of(fused, copies[1], a.launches)]
            (m2, q1_2, q3_2), (m1, q1_1, q3_1) = time_graphs(graphs, a.launches, a.samples)
            # vLLM's rotation rounds differently (no fma), so bytes are compared with rope_kv's
            # own pair only.
            verdict = "-" if two_calls is not two_calls_rope_kv else ("yes" if same else "NO")
            print(f"| {cache} | {tokens} | {m2:.2f} [{q1_2:.2f}, {q3_2:.2f}] | "
                  f"{m1:.2f} [{q1_1:.2f}, {q3_1:.2f}] | {m2 / m1:.2f}x | {verdict} |")
            del graphs, copies
    return 0


if __name__ == "__main__":
    sys.exit(main())
