"""Inputs and PyTorch references for the GPU tests (imported only where torch is present).

A case is a set of base allocations (one qkv tensor, the caches, ...) plus a function that derives
the kernel's arguments (views) from them, so a case can be cloned and run twice on identical
inputs. Caches and query_out start filled with a sentinel byte, so a write that should not happen
shows up in a byte comparison.
"""

import math

import torch

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
FP8 = {"fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}
FP8_MAX = {"fp8_e4m3": 448.0, "fp8_e5m2": 57344.0}
SENTINEL = 0xA5
LAYOUTS = ["nhd", "hnd", "hnd_strided", "packed_nhd", "packed_hnd", "flashinfer"]


def cos_sin_table(max_position, rot_dim, dtype, base=10000.0):
    """vLLM's table: row p holds cos(p * f_i) for i < rot_dim / 2, then sin(p * f_i)."""
    inv_freq = base ** (-torch.arange(0, rot_dim, 2, dtype=torch.float64) / rot_dim)
    angles = torch.arange(max_position, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return torch.cat([angles.cos(), angles.sin()], dim=-1).to(dtype)


class Case:
    def __init__(self, base, derive, meta):
        self.base = base  # name -> tensor (whole allocations)
        self._derive = derive
        self.meta = meta
        self.args = derive(base)  # the keyword arguments of rope_kv.fused

    def clone(self):
        return Case({k: v.clone() for k, v in self.base.items()}, self._derive, self.meta)

    def load(self, other):
        """Copy another case's base tensors into this one's (same shapes): refills the static inputs
        of a captured graph."""
        for k, v in other.base.items():
            self.base[k].copy_(v)

    def bytes(self, name):
        return self.base[name].reshape(-1).view(torch.uint8)


def make_case(seed=0, dtype="bf16", cache="auto", layout="nhd", neox=True, tokens=37,
              cached=None, q_heads=8, kv_heads=2, head=128, rot=None, cos_sin="fp32",
              block=16, query_out=False, per_head_scale=False, fp8_storage="uint8",
              device="cuda"):
    """A vLLM-style step: q/k/v are column views of one [T, (Hq + 2 Hkv) * D] tensor; the first
    `cached` tokens have slots (about 1 in 8 set to -1), the rest are CUDA-graph padding."""
    g = torch.Generator().manual_seed(seed)
    dt = DTYPES[dtype]
    rot = head if rot is None else rot
    cached = tokens if cached is None else cached
    max_position = 4096
    width = (q_heads + 2 * kv_heads) * head

    # Mostly N(0, 3), with 1 value in 64 scaled by 300 so fp8 caches saturate.
    qkv = torch.randn(tokens, width, generator=g, dtype=torch.float32) * 3
    qkv = torch.where(torch.rand(tokens, width, generator=g) < 1 / 64, qkv * 300, qkv)
    positions = torch.randint(0, max_position, (tokens,), generator=g, dtype=torch.int64)
    slots_needed = max(cached, 1)
    num_blocks = math.ceil(slots_needed * 1.25 / block) + 1
    slots = torch.randperm(num_blocks * block, generator=g)[:cached].to(torch.int64)
    if cached > 1:
        drop = torch.rand(cached, generator=g) < 1 / 8
        drop[torch.randint(0, cached, (1,), generator=g)] = False  # at least one slot stays
        slots[drop] = -1

    cache_dt = dt if cache == "auto" else (FP8[cache] if fp8_storage == "float8" else torch.uint8)
    nb, bs, H, D = num_blocks, block, kv_heads, head
    if layout in ("nhd", "hnd", "hnd_strided"):
        shape = (nb, H, bs, D) if layout != "nhd" else (nb, bs, H, D)
        caches = {"key_cache": torch.empty(shape, dtype=cache_dt),
                  "value_cache": torch.empty(shape, dtype=cache_dt)}
    elif layout == "packed_nhd":
        caches = {"kv_cache": torch.empty(nb, bs, H, 2 * D, dtype=cache_dt)}
    elif layout == "packed_hnd":
        caches = {"kv_cache": torch.empty(nb, H, bs, 2 * D, dtype=cache_dt)}
    elif layout == "flashinfer":
        caches = {"kv_cache": torch.empty(nb, 2, bs, H, D, dtype=cache_dt)}
    else:
        raise ValueError(layout)
    for c in caches.values():
        c.view(torch.uint8).fill_(SENTINEL)

    base = {
        "positions": positions,
        "qkv": qkv.to(dt),
        "cos_sin_cache": cos_sin_table(max_position, rot, dt if cos_sin == "dtype" else torch.float32),
        "slot_mapping": slots,
        **caches,
    }
    if cache != "auto":
        n = H if per_head_scale else 1
        k_scale = 0.5 + torch.rand(n, generator=g) if per_head_scale else torch.tensor([0.7])
        v_scale = 0.5 + torch.rand(n, generator=g) if per_head_scale else torch.tensor([1.3])
        base["k_scale"], base["v_scale"] = k_scale.float(), v_scale.float()
    if query_out:
        base["query_out"] = torch.empty(tokens, q_heads, head, dtype=dt)
        base["query_out"].view(torch.uint8).fill_(SENTINEL)
    base = {k: v.to(device) for k, v in base.items()}

    def derive(b):
        q, k, v = b["qkv"].split([q_heads * head, kv_heads * head, kv_heads * head], dim=-1)
        args = dict(positions=b["positions"], query=q.view(tokens, q_heads, head),
                    key=k.view(tokens, kv_heads, head), value=v.view(tokens, kv_heads, head),
                    cos_sin_cache=b["cos_sin_cache"], slot_mapping=b["slot_mapping"],
                    is_neox=neox, kv_cache_dtype=cache)
        if layout in ("nhd", "hnd"):
            args["key_cache"], args["value_cache"] = b["key_cache"], b["value_cache"]
        elif layout == "hnd_strided":  # hnd in memory, vLLM's [blocks, block, H, D] dim order
            args["key_cache"] = b["key_cache"].permute(0, 2, 1, 3)
            args["value_cache"] = b["value_cache"].permute(0, 2, 1, 3)
        elif layout in ("packed_nhd", "packed_hnd"):
            args["key_cache"], args["value_cache"] = b["kv_cache"][..., :head], b["kv_cache"][..., head:]
        elif layout == "flashinfer":
            args["key_cache"], args["value_cache"] = b["kv_cache"][:, 0], b["kv_cache"][:, 1]
        if cache != "auto":
            args["k_scale"], args["v_scale"] = b["k_scale"], b["v_scale"]
        if query_out:
            args["query_out"] = b["query_out"]
        return args

    meta = dict(dtype=dtype, cache=cache, layout=layout, neox=neox, tokens=tokens, cached=cached,
                q_heads=q_heads, kv_heads=kv_heads, head=head, rot=rot, block=block,
                query_out=query_out)
    return Case(base, derive, meta)


def make_mla_case(seed=0, dtype="bf16", cache="auto", neox=False, tokens=19, q_heads=16,
                  block=16, device="cuda"):
    """DeepSeek MLA: q_pe = the last 64 of each 192-dim q head, k_pe [T, 1, 64] and kv_c
    [T, 1, 512] (views of one [T, 576] projection) into one [blocks, block, 576] entry:
    kv_c in [:512], k_pe in [512:]."""
    g = torch.Generator().manual_seed(seed)
    dt = DTYPES[dtype]
    cache_dt = dt if cache == "auto" else torch.uint8
    num_blocks = math.ceil(tokens * 1.25 / block) + 1
    slots = torch.randperm(num_blocks * block, generator=g)[:tokens].to(torch.int64)
    slots[0] = -1
    base = {
        "positions": torch.randint(0, 4096, (tokens,), generator=g, dtype=torch.int64),
        "q": (torch.randn(tokens, q_heads, 192, generator=g) * 3).to(dt),
        "kv": (torch.randn(tokens, 576, generator=g) * 3).to(dt),
        "cos_sin_cache": cos_sin_table(4096, 64, torch.float32),
        "slot_mapping": slots,
        "cache": torch.empty(num_blocks, block, 576, dtype=cache_dt),
    }
    base["cache"].view(torch.uint8).fill_(SENTINEL)
    if cache != "auto":
        base["k_scale"], base["v_scale"] = torch.tensor([0.9]), torch.tensor([1.1])
    base = {k: v.to(device) for k, v in base.items()}

    def derive(b):
        args = dict(positions=b["positions"], query=b["q"][..., 128:],
                    key=b["kv"][:, None, 512:], value=b["kv"][:, None, :512],
                    cos_sin_cache=b["cos_sin_cache"], slot_mapping=b["slot_mapping"],
                    key_cache=b["cache"][..., 512:], value_cache=b["cache"][..., :512],
                    is_neox=neox, kv_cache_dtype=cache)
        if cache != "auto":
            args["k_scale"], args["v_scale"] = b["k_scale"], b["v_scale"]
        return args

    return Case(base, derive, dict(dtype=dtype, cache=cache, neox=neox, tokens=tokens))


# ---- references


def rotate_reference(x, cos, sin, rot, neox):
    """x [T, H, D] in float64; cos, sin [T, rot / 2] in float64. Returns the exactly rotated x and,
    per element, the size of the fp32 products the kernel rounds (0 on pass-through dims)."""
    out = x.clone()
    terms = torch.zeros_like(x)
    c, s = cos[:, None, :], sin[:, None, :]
    if neox:
        x1, x2 = x[..., : rot // 2], x[..., rot // 2 : rot]
    else:
        x1, x2 = x[..., 0:rot:2], x[..., 1:rot:2]
    o1, o2 = x1 * c - x2 * s, x2 * c + x1 * s
    t1, t2 = (x1 * c).abs() + (x2 * s).abs(), (x2 * c).abs() + (x1 * s).abs()
    if neox:
        out[..., : rot // 2], out[..., rot // 2 : rot] = o1, o2
        terms[..., : rot // 2], terms[..., rot // 2 : rot] = t1, t2
    else:
        out[..., 0:rot:2], out[..., 1:rot:2] = o1, o2
        terms[..., 0:rot:2], terms[..., 1:rot:2] = t1, t2
    return out, terms


MANTISSA_BITS = {torch.bfloat16: 7, torch.float16: 10, torch.float32: 23}


def ulp(values, dtype):
    """The spacing of `dtype` at each float64 value (its subnormal spacing below the normals)."""
    info = torch.finfo(dtype)
    mag = values.abs().clamp(min=info.tiny)
    return torch.exp2(torch.floor(torch.log2(mag)) - MANTISSA_BITS[dtype])


def within_one_ulp(result, exact, terms):
    """|result - exact| <= 1 ulp of the result's dtype at `exact`, plus the rounding of the fp32
    products (2^-23 of their size), which only matters where they nearly cancel."""
    err = (result.double() - exact).abs()
    bound = ulp(exact, result.dtype) + terms * 2.0**-23
    return err <= bound, err, bound


def expected_caches(case, key_rot, value):
    """The caches a correct run leaves: the sentinel everywhere but at the slots, where the
    rotated key and the value rows go (fp8: saturated and rounded quotients by the scale, as
    torch converts them). `key_rot` and `value` are [T, Hkv, D] in the q/k/v dtype."""
    exp = case.clone()
    for name in ("key_cache", "value_cache", "kv_cache", "cache"):
        if name in exp.base:
            exp.base[name].view(torch.uint8).fill_(SENTINEL)
    args = exp.args
    slots = args["slot_mapping"]
    tc = slots.shape[0]
    valid = slots >= 0
    t = torch.arange(tc, device=slots.device)[valid]
    s = slots[valid]
    cache = args["kv_cache_dtype"]
    for src, scale_name, view in ((key_rot, "k_scale", args["key_cache"]),
                                  (value, "v_scale", args["value_cache"])):
        rows = src[:tc][t]  # [n, Hkv, D]
        if cache != "auto":
            # Quotient in fp32 on the GPU (an IEEE division, as the kernels' is), saturated, then
            # torch's round-to-nearest-even conversion; written as bytes, since index_put_ does
            # not take float8 everywhere.
            scale = args[scale_name].reshape(1, -1, 1).float()
            q = (rows.float() / scale).clamp(-FP8_MAX[cache], FP8_MAX[cache]).to(FP8[cache])
            rows = q.view(torch.uint8)
            view = view.view(torch.uint8)
        if view.dim() == 3:  # one head: [blocks, block, D]
            rows = rows[:, 0]
            view[s // view.shape[1], s % view.shape[1]] = rows
        elif case.meta.get("layout") in ("hnd", "packed_hnd"):  # [blocks, Hkv, block, D]
            block = view.shape[2]
            view[s // block, :, s % block] = rows
        else:  # [blocks, block, Hkv, D], whatever the strides
            block = view.shape[1]
            view[s // block, s % block] = rows
    return exp
