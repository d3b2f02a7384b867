#!/usr/bin/env python3
"""Round 44's warp-cost model of the fused strided grid (results/NOTES.md, session 38), the source
of the imbalance numbers quoted there. A warp's cost on one pass is the number of distinct roles
among its 32 units (q rotation, k rotation, k pass-through, v), since a warp runs its roles'
branches one after another; summed over the launch's passes. Printed: the slowest warp against
the mean, plain loop and turned (the CTA's four warps taking its quarters a warp further round
each pass). Sampled over every STEP-th CTA. bf16, 8-element chunks, gpt-j or neox, row-major or
role-major order (each role segment padded to whole warps where a token's units are not whole
warps)."""
import statistics

STEP = 7


def pad(n):
    return (n + 31) // 32 * 32


def token_roles(hq, hkv, d, rot, style, role_major):
    qr = kr = rot // 8 if style == "gptj" else rot // 16
    kp, v = (d - rot) // 8, d // 8
    if role_major:
        segs = [("qrot", hq * qr), ("krot", hkv * kr), ("kpass", hkv * kp), ("v", hkv * v)]
        whole = sum(n for _, n in segs) % 32 == 0
        out = []
        for name, n in segs:
            if n:
                out += [name] * n + ([] if whole else ["idle"] * (pad(n) - n))
        return out
    out = []
    for _ in range(hq):
        out += ["qrot"] * qr
    for _ in range(hkv):
        out += ["krot"] * kr + ["kpass"] * kp
    for _ in range(hkv):
        out += ["v"] * v
    return out


def imbalance(roles, ctas, tokens, turned):
    units = len(roles)
    stride, total = ctas * 128, tokens * units
    costs = []
    for c in range(0, ctas, STEP):
        for w in range(4):
            cost, k, base = 0, 0, c * 128
            while base < total:
                first = base + ((w + k) % 4 if turned else w) * 32
                cost += len({roles[(first + i) % units] for i in range(32) if first + i < total} -
                            {"idle"})
                base += stride
                k += 1
            costs.append(cost)
    return max(costs) / statistics.mean(costs)


# name, hq, hkv, d, rot, style, role-major, CTAs of the strided grid on 132 SMs
CASES = [
    ("16x2x256 gptj rot=128", 16, 2, 256, 128, "gptj", False, 2111),
    ("16x2x256 gptj rot=64", 16, 2, 256, 64, "gptj", False, 2111),
    ("16x4x128 gptj rot=64", 16, 4, 128, 64, "gptj", False, 2111),
    ("8x1x64 gptj rot=32", 8, 1, 64, 32, "gptj", False, 2111),
    ("8x8x128 gptj full", 8, 8, 128, 128, "gptj", False, 2111),
    ("28x4x128 gptj rot=64", 28, 4, 128, 64, "gptj", False, 2111),
    ("32x8x128 gptj rot=64", 32, 8, 128, 64, "gptj", False, 2111),
    ("28x4x128 neox rot=64 roles", 28, 4, 128, 64, "neox", True, 1188),
    ("28x4x128 neox full", 28, 4, 128, 128, "neox", False, 1188),
    ("16x2x256 neox full", 16, 2, 256, 256, "neox", False, 1187),
    ("16x2x256 neox rot=64 roles", 16, 2, 256, 64, "neox", True, 1188),
    ("16x2x256 neox rot=128 roles", 16, 2, 256, 128, "neox", True, 1187),
    # In 16 waves at 65k (the hardware hands out CTAs as SMs free up, which this static model
    # does not see).
    ("32x8x128 neox rot=64 roles", 32, 8, 128, 64, "neox", True, 18992),
]

if __name__ == "__main__":
    print(f"{'case':28s} {'tokens':>6s} {'plain':>6s} {'turned':>6s}")
    for name, hq, hkv, d, rot, style, rm, ctas in CASES:
        roles = token_roles(hq, hkv, d, rot, style, rm)
        for n in (16384, 65536):
            print(f"{name:28s} {n:6d} {imbalance(roles, ctas, n, False):6.3f} "
                  f"{imbalance(roles, ctas, n, True):6.3f}")
